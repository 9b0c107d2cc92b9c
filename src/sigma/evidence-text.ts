/**
 * Evidence values as safe, short text: attacker-written characters that could hide or reorder
 * text on a terminal or page (controls, bidi overrides, zero-width marks, lone surrogates) are
 * escaped, and a long value is cut to a window that still holds the first matched text, so a
 * `-enc` deep inside a long command line is shown rather than cut off.
 */
import { displayLine } from '../display/index.js';

/** A needle to highlight: literal text (compared case-insensitively) or a finder (regex). */
export type Needle =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'find'; readonly find: (s: string) => readonly [number, number] | undefined }
  /** The whole value is what the rule tested (a number comparison, a CIDR, `exists`). */
  | { readonly kind: 'whole' };

export type Span = readonly [start: number, end: number];

/** `\n`, `\r`, `\t`, `\xNN` for other controls, `\u{NNNN}` for invisible or lone characters. */
export const escapeEvidence: (text: string) => string = displayLine;

/** Cuts at `end` without splitting a surrogate pair or an escape just made. */
function cutAt(text: string, end: number): string {
  let cut = Math.min(end, text.length);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  const slash = text.lastIndexOf('\\', cut - 1);
  if (slash >= 0 && cut - slash < 10) {
    const made = /^\\(x[0-9a-f]{2}|u\{[0-9A-F]{1,4}\}|[nrt])/.exec(text.slice(slash));
    if (made !== null && slash + made[0].length > cut) cut = slash;
  }
  return text.slice(0, cut);
}

function findFirst(text: string, lower: string, needle: Needle): Span | undefined {
  switch (needle.kind) {
    case 'text': {
      if (needle.text === '') return undefined;
      const at = lower.indexOf(needle.text.toLowerCase());
      return at < 0 ? undefined : [at, at + needle.text.length];
    }
    case 'find':
      return needle.find(text);
    case 'whole':
      return [0, text.length];
  }
}

/** Every occurrence of the needles in `text`, merged, in order, at most `max`. */
export function spansIn(text: string, needles: readonly Needle[], max: number): Span[] {
  const lower = text.toLowerCase();
  const found: [number, number][] = [];
  for (const n of needles) {
    if (n.kind === 'whole') found.push([0, text.length]);
    else if (n.kind === 'find') {
      const s = n.find(text);
      if (s !== undefined && s[1] > s[0]) found.push([s[0], s[1]]);
    } else {
      const t = escapeEvidence(n.text).toLowerCase();
      if (t === '') continue;
      for (let at = lower.indexOf(t); at >= 0 && found.length < max * 4; at = lower.indexOf(t, at + t.length))
        found.push([at, at + t.length]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const s of found) {
    const last = merged.at(-1);
    if (last !== undefined && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else if (merged.length < max) merged.push([s[0], s[1]]);
  }
  return merged;
}

export interface ShownValue {
  readonly text: string;
  readonly spans: Span[];
}

/**
 * The value escaped and cut to about `max` characters around the first needle found (`…` marks
 * a cut), with the needles' places in the text shown.
 */
export function showValue(
  raw: string,
  needles: readonly Needle[],
  max: number,
  maxSpans: number,
): ShownValue {
  let start = 0;
  if (raw.length > max && needles.length > 0) {
    const lower = raw.toLowerCase();
    let first: Span | undefined;
    for (const n of needles) {
      const s = findFirst(raw, lower, n);
      if (s !== undefined && (first === undefined || s[0] < first[0])) first = s;
    }
    // Keep a little context before the match; the head of the value is what is cut.
    if (first !== undefined && first[1] > max - 8) start = Math.max(0, first[0] - Math.floor(max / 4));
  }
  const prefix = start > 0 ? '…' : '';
  // Escaping at most quadruples a character: escape only what can be shown.
  const window = escapeEvidence(raw.slice(start, start + max * 2));
  const body = cutAt(window, max - prefix.length);
  const cut = body.length < window.length || start + max * 2 < raw.length;
  const text = `${prefix}${body}${cut ? '…' : ''}`;
  return { text, spans: spansIn(text, needles, maxSpans) };
}
