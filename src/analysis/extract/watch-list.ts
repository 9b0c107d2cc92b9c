/**
 * Events that are key by their id alone. They carry no bespoke summary: the timeline shows the
 * event's Windows message (the event-id dataset's description with the data substituted).
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { Category, Importance } from '../../insights/index.js';
import type { Emit } from '../facts.js';
import { origin, SECURITY, SYSMON } from './common.js';
import type { Extractor, ExtractorTable } from './registry.js';

function watch(name: string, category: Category, importance: Importance): Extractor {
  return (e: EvtxEvent, emit: Emit) =>
    emit({ kind: 'notable', ...origin(e), name, group: '', category, importance, description: null });
}

export const WATCH_LIST_EXTRACTORS: ExtractorTable = {
  [SECURITY]: {
    4616: watch('System time changed', 'General', 'Low'),
    4706: watch('Domain trust created', 'Authentication', 'Medium'),
    4713: watch('Kerberos policy changed', 'Authentication', 'Medium'),
    4724: watch('Password reset', 'Authentication', 'Low'),
    4739: watch('Domain policy changed', 'General', 'Medium'),
    4765: watch('SID history added', 'Authentication', 'High'),
    4766: watch('SID history add failed', 'Authentication', 'Medium'),
    4781: watch('Account renamed', 'Persistence', 'Medium'),
    4794: watch('DSRM password set', 'Authentication', 'High'),
    5142: watch('Network share added', 'Network', 'Medium'),
    5143: watch('Network share changed', 'Network', 'Low'),
  },
  [SYSMON]: {
    4: watch('Sysmon service state changed', 'General', 'Low'),
    16: watch('Sysmon configuration changed', 'General', 'Medium'),
  },
};
