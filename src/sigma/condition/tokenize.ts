/**
 * Condition tokens. Keywords are lower-case only (pySigma rejects `OR`), so an upper-case
 * operator stays a word and the parser reports it where it stands.
 */
import { fail } from '../diagnostics.js';

export type Token =
  | {
      readonly kind: '(' | ')' | 'and' | 'or' | 'not' | 'of' | 'them' | '1' | 'any' | 'all';
      readonly at: number;
    }
  /** An identifier (`[A-Za-z0-9_-]+`) or, with `*`, a pattern (`[A-Za-z0-9_*]+`). */
  | { readonly kind: 'word'; readonly text: string; readonly at: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'of', 'them', '1', 'any', 'all']);
const WORD_CHAR = /[A-Za-z0-9_*-]/;

export function tokenize(condition: string): Token[] {
  if (condition.includes('|'))
    fail(
      'condition.aggregation',
      `aggregation ('|') in conditions was replaced by correlation rules: '${condition.trim()}'`,
    );
  const tokens: Token[] = [];
  let i = 0;
  while (i < condition.length) {
    const c = condition[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c, at: i });
      i++;
    } else if (WORD_CHAR.test(c)) {
      const start = i;
      while (i < condition.length && WORD_CHAR.test(condition[i]!)) i++;
      const text = condition.slice(start, i);
      if (text.includes('*') && text.includes('-'))
        fail('condition.syntax', `'${text}' at ${start}: a pattern cannot contain '-'`);
      if (KEYWORDS.has(text)) tokens.push({ kind: text as 'and', at: start });
      else tokens.push({ kind: 'word', text, at: start });
    } else {
      fail('condition.syntax', `unexpected character '${c}' at ${i} in '${condition}'`);
    }
  }
  return tokens;
}
