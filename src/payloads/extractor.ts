/**
 * The payload extractor: events in (in any order), payloads out as soon as they are whole.
 * Script blocks wait for their parts in a bounded buffer; every other source yields at once.
 * Each text then has its encoded content unwrapped, level by level (no recursion), within the
 * event's budget of payloads and the depth bound; every cut leaves a diagnostic.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { decodeCandidate, type Report } from './decode.js';
import { findCandidates } from './finders.js';
import { type PayloadLimits, resolveLimits } from './limits.js';
import { type AssembledScriptBlock, ScriptBlockBuffer } from './script-blocks.js';
import { FIELD_SOURCES, fieldText, SCRIPT_BLOCK_SOURCE, sourceMatches } from './sources.js';
import { clipText } from './text.js';
import type { DecodeLayer, Payload, PayloadDiagnostic, PayloadKind, PayloadRecord } from './types.js';

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

/** A text to emit and search: an event field or a script block. */
interface Root {
  /** Null for a text searched but not emitted (a command line). */
  readonly kind: PayloadKind | null;
  readonly text: string;
  readonly field: string;
  readonly computer: string;
  readonly records: readonly PayloadRecord[];
  readonly label?: string;
  readonly parts?: { present: number; total: number };
  readonly partial?: boolean;
}

/** Payloads one event (or one script block) may still yield. */
interface Budget {
  left: number;
  reported: boolean;
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

  /** Takes one payload from the event's budget; the first refusal leaves a diagnostic. */
  function spend(budget: Budget, report: Report): boolean {
    if (budget.left > 0) {
      budget.left--;
      return true;
    }
    if (!budget.reported)
      report('payload.too_many', `more than ${limits.maxPayloadsPerEvent} payloads in one event`);
    budget.reported = true;
    return false;
  }

  /** The root payload (when emitted) and everything decoded from it, breadth first. */
  function unwrap(root: Root, out: Payload[], budget: Budget): void {
    const report: Report = (code, message) =>
      diagnose({ code, message, computer: root.computer, records: root.records });
    // The emitted text is clipped; the search runs over all of it (a record, or a script block
    // within the pending bound), so a stage past the clip is still found and cut on its own.
    const clipped =
      root.kind === null ? { text: root.text, cut: false } : clipText(root.text, limits.maxPayloadBytes);
    if (clipped.cut)
      report('payload.too_large', `${root.kind} ${root.field} cut to ${limits.maxPayloadBytes} bytes`);
    const base = {
      computer: root.computer,
      records: root.records,
      ...(root.label ? { label: root.label } : {}),
    };
    if (root.kind !== null) {
      if (!spend(budget, report)) return;
      out.push({
        ...base,
        kind: root.kind,
        text: clipped.text,
        provenance: { field: root.field, within: null, layers: [], depth: 0 },
        ...(root.parts ? { parts: root.parts } : {}),
        partial: root.partial === true,
        truncated: clipped.cut,
      });
    }
    type Item = { text: string; kind: PayloadKind | null; layers: readonly DecodeLayer[]; depth: number };
    const queue: Item[] = [{ text: root.text, kind: root.kind, layers: [], depth: 0 }];
    for (let q = 0; q < queue.length; q++) {
      const item = queue[q]!;
      const found = findCandidates(item.text, {
        depth: item.depth,
        minChars: limits.minBase64Chars,
        minLiteralChars: limits.minBase64LiteralChars,
        max: limits.maxPayloadsPerEvent + 1,
      });
      if (found.length > 0 && item.depth >= limits.maxDepth) {
        report(
          'payload.too_deep',
          `encoded content at depth ${item.depth} left as it is (limit ${limits.maxDepth})`,
        );
        continue;
      }
      for (const c of found) {
        const d = decodeCandidate(c, item.text, item.depth, limits, report);
        if (d === null) continue;
        if (!spend(budget, report)) return;
        const layers = [...item.layers, ...d.layers];
        const depth = item.depth + d.steps;
        out.push({
          ...base,
          kind: c.kind,
          ...d.content,
          provenance: { field: root.field, within: item.kind, layers, depth },
          partial: root.partial === true,
          truncated: d.truncated,
        });
        if (d.content.text !== undefined) queue.push({ text: d.content.text, kind: c.kind, layers, depth });
      }
    }
  }

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
      { left: limits.maxPayloadsPerEvent, reported: false },
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
      const budget = { left: limits.maxPayloadsPerEvent, reported: false };
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
