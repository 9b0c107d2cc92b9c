/**
 * What the logsource mapping tests share (sigma-logsource*.test.ts): the channels they name, a
 * one-rule loader that fails on any diagnostic, a rule's variants, and events written by our
 * EVTX writer and decoded by our decoder.
 */
import assert from 'node:assert/strict';
import { type EventDescription, writeEvtx } from '../../fixtures/evtx-writer/index.js';
import type { EvtxEvent } from '../../src/evtx/index.js';
import { parseEvtx } from '../../src/parse/index.js';
import {
  eventFromObject,
  loadRules,
  type MappingOptions,
  mapRule,
  type RuleVariant,
  type SigmaEvent,
  type SigmaRule,
} from '../../src/sigma/index.js';

export const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
export const PS = ['Microsoft-Windows-PowerShell/Operational', 'PowerShellCore/Operational'];
export const DEFENDER = 'Microsoft-Windows-Windows Defender/Operational';

export const R = String.raw;

export function rule(logsource: string, detection: string, extra = ''): SigmaRule {
  const text = `title: t\nid: 11111111-1111-1111-1111-111111111111\n${extra}logsource:\n${logsource
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\ndetection:\n${detection
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
  const r = loadRules(text, 't.yml');
  assert.deepEqual(r.diagnostics, []);
  return r.rules[0]!;
}

export function variants(r: SigmaRule, options?: MappingOptions): RuleVariant[] {
  const m = mapRule(r, options);
  assert.ok(m.ok, m.ok ? '' : m.diagnostic.message);
  return [...m.variants];
}

export const ev = (fields: Record<string, unknown>): SigmaEvent => eventFromObject(fields);

export async function decode(events: EventDescription[]): Promise<EvtxEvent[]> {
  const out: EvtxEvent[] = [];
  for await (const r of parseEvtx(Buffer.from(writeEvtx(events)), { outputs: ['event'] }))
    if (r.event) out.push(r.event);
  return out;
}

export const base = { time: '2024-05-01T10:00:00Z', computer: 'WS1' };
