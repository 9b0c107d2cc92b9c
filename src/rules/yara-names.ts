/**
 * The rule identifiers a YARA file declares: the names YARA results show (the compiler's
 * `rule` identifier), so the library can retrieve a file by any of them. One linear pass that
 * skips comments, text strings and regular expressions, so `rule x` inside them is not taken
 * for a declaration; a declaration is `rule <identifier>` followed by `:` (tags) or `{`.
 */

const isWordStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isWord = (c: number) => isWordStart(c) || (c >= 0x30 && c <= 0x39);
const isBlank = (c: number) =>
  c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/** Where the comment, string or regex starting at `i` ends, or `i` when none starts there. */
function skipOpaque(text: string, i: number, regexAllowed: boolean): number {
  const c = text[i];
  const next = text[i + 1];
  if (c === '/' && next === '/') {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === '/' && next === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c === '"' || (c === '/' && regexAllowed)) {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === c || text[j] === '\n') return j + 1;
    }
    return text.length;
  }
  return i;
}

/** The next index at or after `i` that is not whitespace or a comment. */
function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && isBlank(text.charCodeAt(i))) i++;
    const after = text[i] === '/' ? skipOpaque(text, i, false) : i;
    if (after === i) return i;
    i = after;
  }
}

export function yaraRuleIdentifiers(text: string): string[] {
  const out: string[] = [];
  // A `/` opens a regex only after `=` (a string definition) or `matches`.
  let previous = '';
  let i = 0;
  while (i < text.length) {
    const opaque = skipOpaque(text, i, previous === '=' || previous === 'matches');
    if (opaque !== i) {
      if (text[i] === '"' || !(text[i + 1] === '/' || text[i + 1] === '*')) previous = 'value';
      i = opaque;
      continue;
    }
    const c = text.charCodeAt(i);
    if (!isWordStart(c)) {
      if (!isBlank(c)) previous = text[i]!;
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isWord(text.charCodeAt(i))) i++;
    const word = text.slice(start, i);
    previous = word;
    if (word !== 'rule') continue;
    const nameAt = skipBlank(text, i);
    let end = nameAt;
    if (!isWordStart(text.charCodeAt(end))) continue;
    while (end < text.length && isWord(text.charCodeAt(end))) end++;
    const after = text[skipBlank(text, end)];
    if (after === ':' || after === '{') out.push(text.slice(nameAt, end));
  }
  return out;
}
