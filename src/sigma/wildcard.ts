/**
 * Sigma strings: pySigma's escape scan (§1.4) and a linear glob matcher. Rule text never
 * becomes a RegExp, so no value can make matching backtrack.
 */

export const ANY: unique symbol = Symbol('*');
export const ONE: unique symbol = Symbol('?');
export type Part = string | typeof ANY | typeof ONE;

/**
 * `\*`, `\?`, `\\` are escapes; a backslash before anything else, or at the end, is itself.
 * Adjacent literal characters are merged into one string part.
 */
export function parseSigmaString(text: string): Part[] {
  const parts: Part[] = [];
  let lit = '';
  const flush = () => {
    if (lit !== '') parts.push(lit);
    lit = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '*' || next === '?' || next === '\\') {
        lit += next;
        i++;
      } else lit += c;
    } else if (c === '*' || c === '?') {
      flush();
      parts.push(c === '*' ? ANY : ONE);
    } else lit += c;
  }
  flush();
  return normalise(parts);
}

/** Merges adjacent literals and runs of `*`, so matchers see a canonical shape. */
export function normalise(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (typeof p === 'string') {
      if (p === '') continue;
      if (typeof last === 'string') out[out.length - 1] = last + p;
      else out.push(p);
    } else if (!(p === ANY && last === ANY)) out.push(p);
  }
  return out;
}

export const hasWildcard = (parts: readonly Part[]): boolean => parts.some((p) => typeof p !== 'string');

/** The plain text of a wildcard-free string (callers check `hasWildcard` first). */
export const plainText = (parts: readonly Part[]): string =>
  parts.map((p) => (typeof p === 'string' ? p : p === ANY ? '*' : '?')).join('');

/** Renders parts back into Sigma syntax, escaping what the scan would read as special. */
export function toSigmaText(parts: readonly Part[]): string {
  return parts
    .map((p) => (p === ANY ? '*' : p === ONE ? '?' : p.replace(/[\\*?]/g, (c) => `\\${c}`)))
    .join('');
}

export const mapLiterals = (parts: readonly Part[], f: (s: string) => string): Part[] =>
  parts.map((p) => (typeof p === 'string' ? f(p) : p));

/** One `*`-free run of literals and `?`s; matched at a given position. */
type Segment = readonly (string | typeof ONE)[];

function matchAt(s: string, pos: number, seg: Segment): number {
  for (const t of seg) {
    if (t === ONE) {
      if (pos >= s.length) return -1;
      const code = s.charCodeAt(pos);
      // `?` is one character, so a surrogate pair counts once (as in Python).
      pos += code >= 0xd800 && code <= 0xdbff && pos + 1 < s.length ? 2 : 1;
    } else {
      if (!s.startsWith(t, pos)) return -1;
      pos += t.length;
    }
  }
  return pos;
}

function find(s: string, from: number, seg: Segment): [number, number] {
  const first = seg[0];
  for (let i = from; i <= s.length; i++) {
    if (typeof first === 'string') {
      i = s.indexOf(first, i);
      if (i < 0) return [-1, -1];
    }
    const end = matchAt(s, i, seg);
    if (end >= 0) return [i, end];
  }
  return [-1, -1];
}

/**
 * A predicate over already-prepared text (lower-cased by the caller when the pattern is).
 * Leftmost matching of the `*`-separated segments is complete for globs, so one pass suffices.
 */
export function compileGlob(parts: readonly Part[]): (s: string) => boolean {
  const p = normalise(parts);
  const [a, b, c] = p;
  if (p.length === 0) return (s) => s === '';
  if (p.length === 1 && typeof a === 'string') return (s) => s === a;
  if (p.length === 1 && a === ANY) return () => true;
  if (p.length === 2 && typeof a === 'string' && b === ANY) return (s) => s.startsWith(a);
  if (p.length === 2 && a === ANY && typeof b === 'string') return (s) => s.endsWith(b);
  if (p.length === 3 && a === ANY && typeof b === 'string' && c === ANY) return (s) => s.includes(b);
  const segments: Segment[] = [[]];
  for (const part of p) {
    if (part === ANY) segments.push([]);
    else (segments[segments.length - 1] as (string | typeof ONE)[]).push(part);
  }
  const head = segments[0]!;
  const tail = segments.length > 1 ? segments[segments.length - 1]! : undefined;
  const middle = segments.slice(1, -1);
  const tailText = tail?.every((t) => typeof t === 'string') ? tail.join('') : undefined;
  return (s) => {
    const afterHead = matchAt(s, 0, head);
    if (afterHead < 0) return false;
    if (tail === undefined) return afterHead === s.length;
    let pos = afterHead;
    for (const seg of middle) {
      if (seg.length === 0) continue;
      const [, end] = find(s, pos, seg);
      if (end < 0) return false;
      pos = end;
    }
    if (tailText !== undefined) return s.length - tailText.length >= pos && s.endsWith(tailText);
    // The tail is anchored at the end; trying each start from the right keeps `?` lengths exact.
    for (let start = s.length; start >= pos; start--) if (matchAt(s, start, tail) === s.length) return true;
    return false;
  };
}
