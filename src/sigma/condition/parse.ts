/**
 * Recursive descent over the condition grammar (§1.8), least to most binding:
 * or < and < not < `x of` < parentheses; both binary operators left-associative.
 */
import { fail } from '../diagnostics.js';
import { MAX_CONDITION_DEPTH } from '../limits.js';
import { type Token, tokenize } from './tokenize.js';

export type Condition =
  | { readonly kind: 'and'; readonly args: readonly Condition[] }
  | { readonly kind: 'or'; readonly args: readonly Condition[] }
  | { readonly kind: 'not'; readonly arg: Condition }
  | { readonly kind: 'identifier'; readonly name: string }
  /** `1 of`/`any of` (`one`) or `all of` over `them` (pattern `null`) or a name pattern. */
  | { readonly kind: 'selector'; readonly quantifier: 'one' | 'all'; readonly pattern: string | null };

class Parser {
  private pos = 0;
  /** Open parentheses and `not`s around the current token: each is one level of recursion. */
  private depth = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
  ) {}

  parse(): Condition {
    if (this.tokens.length === 0) fail('condition.syntax', 'the condition is empty');
    const c = this.or();
    const extra = this.tokens[this.pos];
    if (extra) this.error(extra, 'expected and/or or the end of the condition');
    return c;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private error(at: Token | undefined, expectation: string): never {
    const found = at === undefined ? 'the end' : at.kind === 'word' ? `'${at.text}'` : `'${at.kind}'`;
    const where = at === undefined ? '' : ` at ${at.at}`;
    const hint =
      at?.kind === 'word' && /^(AND|OR|NOT|Or|And|Not)$/.test(at.text) ? ' (operators are lower-case)' : '';
    fail('condition.syntax', `${expectation}, found ${found}${where}${hint} in '${this.text}'`);
  }

  private or(): Condition {
    const args = [this.and()];
    while (this.peek()?.kind === 'or') {
      this.pos++;
      args.push(this.and());
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  private and(): Condition {
    const args = [this.not()];
    while (this.peek()?.kind === 'and') {
      this.pos++;
      args.push(this.not());
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  }

  /** Every recursion of the grammar passes here (`not`, then `(`), so the bound holds for all of it. */
  private nested<T>(at: Token, inner: () => T): T {
    if (++this.depth > MAX_CONDITION_DEPTH)
      fail(
        'condition.too_deep',
        `the condition nests parentheses and 'not' deeper than ${MAX_CONDITION_DEPTH} levels, at character ${at.at}`,
      );
    const out = inner();
    this.depth--;
    return out;
  }

  private not(): Condition {
    const t = this.peek();
    if (t?.kind === 'not') {
      this.pos++;
      return this.nested(t, () => ({ kind: 'not', arg: this.not() }));
    }
    return this.atom();
  }

  private atom(): Condition {
    const t = this.peek();
    this.pos++;
    switch (t?.kind) {
      case '(': {
        const inner = this.nested(t, () => this.or());
        if (this.peek()?.kind !== ')') this.error(this.peek(), "expected ')'");
        this.pos++;
        return inner;
      }
      case '1':
      case 'any':
      case 'all':
        return this.selector(t.kind === 'all' ? 'all' : 'one');
      case 'word':
        if (t.text.includes('*')) this.error(t, "a pattern needs '1 of' or 'all of'");
        return { kind: 'identifier', name: t.text };
      default:
        return this.error(t, 'expected an identifier, a selector or (');
    }
  }

  private selector(quantifier: 'one' | 'all'): Condition {
    if (this.peek()?.kind !== 'of') this.error(this.peek(), "expected 'of'");
    this.pos++;
    const target = this.peek();
    this.pos++;
    if (target?.kind === 'them') return { kind: 'selector', quantifier, pattern: null };
    if (target?.kind === 'word') return { kind: 'selector', quantifier, pattern: target.text };
    return this.error(target, "expected 'them' or an identifier pattern");
  }
}

export function parseCondition(text: string): Condition {
  return new Parser(tokenize(text), text).parse();
}
