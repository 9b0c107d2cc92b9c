/**
 * A stream of JSON values, as `jq` and `evtx_dump -o json` print them: values one after the
 * other, separated by any whitespace or none, each possibly spread over many lines. One
 * linear pass finds where each top-level value ends (string and escape aware) and refuses
 * nesting deeper than the limit before `JSON.parse` or any walk of ours ever sees it; each
 * slice is then parsed on its own. A single value and JSON lines are special cases.
 */

export type JsonStream =
  | { readonly ok: true; readonly values: readonly unknown[] }
  | { readonly ok: false; readonly why: string };

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Where a bare scalar (number, true, false, null) ends: whitespace or the start of a value. */
const endsScalar = (c: number) => isSpace(c) || c === 0x7b || c === 0x5b || c === 0x22;

/** Line and column of an offset, for messages (computed only on failure). */
function where(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`;
}

/** End (exclusive) of the string whose opening quote is at `start`, or -1 when unterminated. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

/**
 * The values of `text`, or why it is not a stream of JSON values. `maxValues` stops the scan
 * early (a longer stream is refused by the caller anyway); `maxDepth` bounds `{`/`[` nesting.
 */
export function parseJsonStream(text: string, maxDepth: number, maxValues: number): JsonStream {
  const values: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (values.length >= maxValues) return { ok: false, why: `more than ${maxValues} events` };
    const start = i;
    let depth = 0;
    do {
      const d = text.charCodeAt(i);
      if (d === 0x22) {
        const end = stringEnd(text, i);
        if (end < 0) return { ok: false, why: `unterminated string at ${where(text, i)}` };
        i = end;
      } else if (d === 0x7b || d === 0x5b) {
        if (++depth > maxDepth)
          return { ok: false, why: `JSON nested deeper than ${maxDepth} levels at ${where(text, i)}` };
        i++;
      } else if (d === 0x7d || d === 0x5d) {
        if (--depth < 0) return { ok: false, why: `unexpected '${text[i]}' at ${where(text, i)}` };
        i++;
      } else if (depth === 0) {
        // A top-level scalar: up to the next separator.
        while (i < text.length && !endsScalar(text.charCodeAt(i))) i++;
      } else i++;
    } while (depth > 0 && i < text.length);
    if (depth > 0) return { ok: false, why: `JSON value starting at ${where(text, start)} is not closed` };
    try {
      values.push(JSON.parse(text.slice(start, i)));
    } catch (e) {
      return { ok: false, why: `JSON value at ${where(text, start)}: ${(e as Error).message}` };
    }
  }
  return { ok: true, values };
}
