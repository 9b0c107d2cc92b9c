/**
 * One text (an event field or a script block) to payloads: the text itself when it is a payload,
 * then everything encoded inside it, level by level (a queue, no recursion), within the event's
 * budget (count and bytes) and the depth bound. Every cut leaves one diagnostic.
 */
import { decodeCandidate, type Report } from './decode.js';
import { findCandidates } from './finders.js';
import type { PayloadLimits } from './limits.js';
import { clipText } from './text.js';
import type {
  DecodeLayer,
  Payload,
  PayloadContent,
  PayloadDiagnostic,
  PayloadKind,
  PayloadRecord,
} from './types.js';

/** A text to emit and search. */
export interface Root {
  /** Null for a text searched but not emitted (a command line: its plain text is in the event). */
  readonly kind: PayloadKind | null;
  readonly text: string;
  readonly field: string;
  readonly computer: string;
  readonly records: readonly PayloadRecord[];
  readonly label?: string;
  readonly parts?: { present: number; total: number };
  readonly partial?: boolean;
}

/** What one event (or one script block) may still yield. */
export interface Budget {
  payloads: number;
  bytes: number;
  reported: boolean;
}

export const newBudget = (limits: PayloadLimits): Budget => ({
  payloads: limits.maxPayloadsPerEvent,
  bytes: limits.maxBytesPerEvent,
  reported: false,
});

type Item = { text: string; kind: PayloadKind | null; layers: readonly DecodeLayer[]; depth: number };

const sizeOf = (p: PayloadContent) => (p.text !== undefined ? p.text.length * 2 : p.bytes!.length);

export function unwrap(
  root: Root,
  out: Payload[],
  budget: Budget,
  limits: PayloadLimits,
  diagnose: (d: PayloadDiagnostic) => void,
): void {
  const report: Report = (code, message) =>
    diagnose({ code, message, computer: root.computer, records: root.records });
  /** Takes one payload of `size` bytes from the budget; the first refusal leaves a diagnostic. */
  const spend = (size: number): boolean => {
    if (budget.payloads > 0 && budget.bytes >= size) {
      budget.payloads--;
      budget.bytes -= size;
      return true;
    }
    if (!budget.reported)
      report(
        'payload.too_many',
        budget.payloads > 0
          ? `payloads of one event over ${limits.maxBytesPerEvent} bytes: the rest left out`
          : `more than ${limits.maxPayloadsPerEvent} payloads in one event`,
      );
    budget.reported = true;
    return false;
  };
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
    if (!spend(sizeOf(clipped))) return;
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
  const queue: Item[] = [{ text: root.text, kind: root.kind, layers: [], depth: 0 }];
  for (let q = 0; q < queue.length; q++) {
    const item = queue[q]!;
    queue[q] = undefined as unknown as Item; // a decoded text is held only until it was searched
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
      if (!spend(sizeOf(d.content))) return;
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
