/**
 * Process events: creation (Sysmon 1, Security 4688 with hex ids), exit (Sysmon 5, 4689), and the
 * process-to-process access that credential theft and injection leave (Sysmon 8, 10).
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { Emit } from '../facts.js';
import { account, basename, field, isBlank, parsePid } from '../text.js';
import { normalizeGuid, origin, SECURITY, SYSMON } from './common.js';
import {
  COMMAND_LINE_INDICATORS,
  type Indicator,
  matchIndicators,
  POWERSHELL_INDICATORS,
} from './patterns.js';
import type { ExtractorTable } from './registry.js';

const orBlank = (s: string): string => (isBlank(s) ? '' : s);

/** Command-line indicators; PowerShell's apply when PowerShell runs or is named on the line. */
function indicatorsOf(image: string, commandLine: string): Indicator[] {
  if (commandLine === '') return [];
  const found = matchIndicators(commandLine, COMMAND_LINE_INDICATORS, 8192);
  const ps = /^(powershell|pwsh)(_ise)?\.exe$/i.test(basename(image)) || /powershell|pwsh/i.test(commandLine);
  if (!ps) return found;
  const labels = new Set(found.map((i) => i.label));
  return [
    ...found,
    ...matchIndicators(commandLine, POWERSHELL_INDICATORS, 8192).filter((i) => !labels.has(i.label)),
  ];
}

function sysmonStart(e: EvtxEvent, emit: Emit): void {
  emit({
    kind: 'processStart',
    ...origin(e),
    source: 'sysmon',
    pid: parsePid(field(e, 'ProcessId')),
    guid: normalizeGuid(field(e, 'ProcessGuid')),
    image: field(e, 'Image'),
    commandLine: field(e, 'CommandLine'),
    user: orBlank(field(e, 'User')),
    parentPid: parsePid(field(e, 'ParentProcessId')),
    parentGuid: normalizeGuid(field(e, 'ParentProcessGuid')),
    parentImage: orBlank(field(e, 'ParentImage')),
    originalFileName: orBlank(field(e, 'OriginalFileName')),
    indicators: indicatorsOf(field(e, 'Image'), field(e, 'CommandLine')),
    twin: false,
  });
}

/** 4688: ids in hex; the new process's account is Target* when it differs from the creator's. */
function securityStart(e: EvtxEvent, emit: Emit): void {
  const target = account(field(e, 'TargetDomainName'), field(e, 'TargetUserName'));
  emit({
    kind: 'processStart',
    ...origin(e),
    source: 'security',
    pid: parsePid(field(e, 'NewProcessId')),
    guid: '',
    image: field(e, 'NewProcessName'),
    commandLine: field(e, 'CommandLine'),
    user: target || account(field(e, 'SubjectDomainName'), field(e, 'SubjectUserName')),
    parentPid: parsePid(field(e, 'ProcessId')),
    parentGuid: '',
    parentImage: orBlank(field(e, 'ParentProcessName')),
    originalFileName: '',
    indicators: indicatorsOf(field(e, 'NewProcessName'), field(e, 'CommandLine')),
    twin: false,
  });
}

function sysmonEnd(e: EvtxEvent, emit: Emit): void {
  emit({
    kind: 'processEnd',
    ...origin(e),
    pid: parsePid(field(e, 'ProcessId')),
    guid: normalizeGuid(field(e, 'ProcessGuid')),
    image: field(e, 'Image'),
  });
}

function securityEnd(e: EvtxEvent, emit: Emit): void {
  emit({
    kind: 'processEnd',
    ...origin(e),
    pid: parsePid(field(e, 'ProcessId')),
    guid: '',
    image: field(e, 'ProcessName'),
  });
}

/** Access rights that let a process read another's memory (PROCESS_VM_READ) or own it outright. */
const readsMemory = (mask: string): boolean => {
  const m = parsePid(mask);
  return m !== null && ((m & 0x10) !== 0 || m === 0x1fffff);
};

function processAccess(e: EvtxEvent, emit: Emit): void {
  const target = field(e, 'TargetImage');
  if (basename(target).toLowerCase() !== 'lsass.exe' || !readsMemory(field(e, 'GrantedAccess'))) return;
  const source = field(e, 'SourceImage');
  emit({
    kind: 'notable',
    ...origin(e),
    name: 'LSASS memory access',
    group: source.toLowerCase(),
    category: 'Process',
    importance: 'High',
    description: `${source} opened lsass.exe with access ${field(e, 'GrantedAccess')}`,
  });
}

function remoteThread(e: EvtxEvent, emit: Emit): void {
  const source = field(e, 'SourceImage');
  const target = field(e, 'TargetImage');
  emit({
    kind: 'notable',
    ...origin(e),
    name: 'Remote thread created',
    group: `${source.toLowerCase()}>${target.toLowerCase()}`,
    category: 'Process',
    importance: 'Medium',
    description: `${source} started a thread in ${target}`,
  });
}

export const PROCESS_EXTRACTORS: ExtractorTable = {
  [SYSMON]: { 1: sysmonStart, 5: sysmonEnd, 8: remoteThread, 10: processAccess },
  [SECURITY]: { 4688: securityStart, 4689: securityEnd },
};
