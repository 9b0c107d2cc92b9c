/**
 * The payload extractor: events in (in any order), payloads out as soon as they are whole.
 * Script blocks wait for their parts in a bounded buffer; every other source yields at once.
 * Each text then has its encoded content unwrapped (unwrap.ts) within the budget of its event
 * (or of its script block) and the depth bound; every cut leaves a diagnostic.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { type PayloadLimits, resolveLimits } from './limits.js';
import { type AssembledScriptBlock, ScriptBlockBuffer } from './script-blocks.js';
import { FIELD_SOURCES, fieldText, SCRIPT_BLOCK_SOURCE, sourceMatches } from './sources.js';
import type { Payload, PayloadDiagnostic, PayloadRecord } from './types.js';
import { newBudget, unwrap } from './unwrap.js';

export interface PayloadExtractorOptions {
  readonly limits?: Partial<PayloadLimits>;
}

export interface PayloadExtractor {
  /** The payloads this event completes (a script block's last part completes the block). */
  add(event: EvtxEvent, file?: string): Payload[];
  /** Script blocks still incomplete, emitted partial; call once at the end of the stream. */
  finish(): Payload[];
  readonly diagnostics: readonly PayloadDiagnostic[];
  /** Diagnostics past `limits.maxDiagnostics`, counted but not kept. */
  readonly droppedDiagnostics: number;
}

const MAX_PARTS = 1_000_000;
const partNumber = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d{1,7}$/.test(v) ? Number(v) : Number.NaN;
  return n >= 1 && n <= MAX_PARTS ? n : null;
};

export function createPayloadExtractor(options: PayloadExtractorOptions = {}): PayloadExtractor {
  const limits = resolveLimits(options.limits);
  const blocks = new ScriptBlockBuffer(limits);
  const diagnostics: PayloadDiagnostic[] = [];
  let dropped = 0;
  const diagnose = (d: PayloadDiagnostic) => {
    if (diagnostics.length < limits.maxDiagnostics) diagnostics.push(d);
    else dropped++;
  };

  function scriptBlock(b: AssembledScriptBlock, out: Payload[]): void {
    if (b.evicted !== null)
      diagnose({
        code: 'payload.script_block_evicted',
        message: `script block ${b.id} emitted with ${b.present} of ${b.total} parts: the buffer of incomplete blocks is full (${b.evicted})`,
        computer: b.computer,
        records: b.records,
      });
    unwrap(
      {
        kind: 'script-block',
        text: b.text,
        field: 'ScriptBlockText',
        computer: b.computer,
        records: b.records,
        ...(b.path ? { label: b.path } : {}),
        parts: { present: b.present, total: b.total },
        partial: b.partial,
      },
      out,
      newBudget(limits),
      limits,
      diagnose,
    );
  }

  const recordOf = (e: EvtxEvent, file: string | undefined): PayloadRecord => ({
    recordId: e.recordId,
    timestamp: e.timestamp,
    timestampText: e.timestampText,
    eventId: e.eventId,
    channel: e.channel,
    ...(file !== undefined ? { file } : {}),
  });

  return {
    add(e, file) {
      const out: Payload[] = [];
      if (sourceMatches(SCRIPT_BLOCK_SOURCE, e)) {
        const number = partNumber(e.data.MessageNumber ?? '1');
        const total = partNumber(e.data.MessageTotal ?? '1');
        const text = fieldText(e, 'ScriptBlockText') ?? '';
        const id = fieldText(e, 'ScriptBlockId') ?? `record ${e.recordId}`;
        if (number === null || total === null || number > total) {
          diagnose({
            code: 'payload.script_block_bad_part',
            message: `script block ${id}: part ${String(e.data.MessageNumber)} of ${String(e.data.MessageTotal)} ignored`,
            computer: e.computer,
            records: [recordOf(e, file)],
          });
          return out;
        }
        const record = recordOf(e, file);
        const part = { computer: e.computer, id, number, total, text, path: fieldText(e, 'Path'), record };
        for (const b of blocks.add(part)) scriptBlock(b, out);
        return out;
      }
      const budget = newBudget(limits);
      for (const s of Object.values(FIELD_SOURCES)) {
        if (!sourceMatches(s, e)) continue;
        const label = s.label === undefined ? null : fieldText(e, s.label);
        for (const field of s.fields) {
          const text = fieldText(e, field);
          if (text === null) continue;
          unwrap(
            {
              kind: s.emit,
              text,
              field,
              computer: e.computer,
              records: [recordOf(e, file)],
              ...(label ? { label } : {}),
            },
            out,
            budget,
            limits,
            diagnose,
          );
        }
      }
      return out;
    },
    finish() {
      const out: Payload[] = [];
      for (const b of blocks.drain()) {
        diagnose({
          code: 'payload.script_block_partial',
          message: `script block ${b.id} ended with ${b.present} of ${b.total} parts`,
          computer: b.computer,
          records: b.records,
        });
        scriptBlock(b, out);
      }
      return out;
    },
    get diagnostics() {
      return diagnostics;
    },
    get droppedDiagnostics() {
      return dropped;
    },
  };
}

/** Every payload of `events` (each an event, or an event with its file), and the diagnostics. */
export function extractPayloads(
  events: Iterable<EvtxEvent | { readonly event: EvtxEvent; readonly file?: string }>,
  options: PayloadExtractorOptions = {},
): { payloads: Payload[]; diagnostics: readonly PayloadDiagnostic[] } {
  const x = createPayloadExtractor(options);
  const payloads: Payload[] = [];
  for (const item of events) {
    const found = 'event' in item ? x.add(item.event, item.file) : x.add(item);
    for (const p of found) payloads.push(p);
  }
  for (const p of x.finish()) payloads.push(p);
  return { payloads, diagnostics: x.diagnostics };
}
