/**
 * The literals a regular expression's every match must contain, read off its source as a
 * conjunction of alternatives (see anchors.ts): `foo(bar|baz)+x` needs `foo`, one of `bar` and
 * `baz`, and `x`. Anything this reader does not fully understand (escapes it does not know,
 * nested classes, `\Q…\E`, lookarounds) gives up on the whole pattern, which only means the
 * rule is always evaluated. Literals are ASCII and lower-cased, since the scanners fold case:
 * a literal a case-sensitive match contains occurs in the folded text too, and RE2's
 * case-insensitive orbits that leave ASCII (`ſ` for s, the Kelvin sign for k) are folded by
 * the scanner as well (literal-scan.ts).
 */

/** A conjunction of clauses, each a list of literals at least one of which occurs. */
export type LiteralCnf = readonly (readonly string[])[];

const GIVE_UP = Symbol('give up');
type Parsed = LiteralCnf | typeof GIVE_UP;

/** Escapes that stand for one literal character: the ASCII punctuation RE2 accepts escaped. */
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
/** Escapes of classes or positions (`\d`, `\b`…): they break a literal run and need nothing. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'A', 'z']);
/** Control escapes: a character never in a literal here (the scanners take printable ASCII). */
const CONTROL_ESCAPES = new Set(['n', 'r', 't', 'f', 'v', 'a']);

class Reader {
  pos = 0;
  constructor(
    readonly src: string,
    readonly selective: (literal: string) => boolean,
  ) {}

  /** An alternation up to `)` or the end. */
  alternation(): Parsed {
    const branches: LiteralCnf[] = [];
    for (;;) {
      const b = this.concatenation();
      if (b === GIVE_UP) return GIVE_UP;
      branches.push(b);
      if (this.src[this.pos] !== '|') break;
      this.pos++;
    }
    if (branches.length === 1) return branches[0]!;
    // Some branch needs nothing: the alternation needs nothing.
    if (branches.some((b) => b.length === 0)) return [];
    return orClauses(branches);
  }

  private concatenation(): Parsed {
    const clauses: (readonly string[])[] = [];
    let run = '';
    const flush = () => {
      if (this.selective(run)) clauses.push([run]);
      run = '';
    };
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === '|' || c === ')') break;
      let atom: { char: string } | { cnf: LiteralCnf } | 'none';
      if (c === '(') {
        const group = this.group();
        if (group === GIVE_UP) return GIVE_UP;
        atom = { cnf: group };
      } else if (c === '[') {
        if (!this.skipClass()) return GIVE_UP;
        atom = 'none';
      } else if (c === '\\') {
        const e = this.escape();
        if (e === GIVE_UP) return GIVE_UP;
        atom = e === null ? 'none' : { char: e };
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        return GIVE_UP; // a quantifier with nothing before it
      } else {
        this.pos++;
        atom = c === '.' || c === '^' || c === '$' || c.charCodeAt(0) >= 0x80 ? 'none' : { char: c };
      }
      const q = this.quantifier();
      if (q === GIVE_UP) return GIVE_UP;
      if (atom === 'none') {
        flush();
        continue;
      }
      if ('cnf' in atom) {
        flush();
        if (q !== 'optional') clauses.push(...atom.cnf);
        continue;
      }
      if (q === 'optional') flush();
      else {
        run += atom.char.toLowerCase();
        if (q === 'repeated') flush();
      }
    }
    flush();
    return clauses;
  }

  /** `(…)`, `(?:…)`, `(?P<n>…)`, `(?<n>…)`, `(?i)`, `(?i:…)`; lookarounds give up. */
  private group(): Parsed {
    const src = this.src;
    this.pos++;
    if (src[this.pos] === '?') {
      const flags = /^\?[imsU-]*(:|\))/.exec(src.slice(this.pos));
      const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(src.slice(this.pos));
      if (flags) {
        this.pos += flags[0].length;
        if (flags[1] === ')') return []; // flags only: they change no literal (folded anyway)
      } else if (named) this.pos += named[0].length;
      else return GIVE_UP;
    }
    const inner = this.alternation();
    if (inner === GIVE_UP || src[this.pos] !== ')') return GIVE_UP;
    this.pos++;
    return inner;
  }

  /** Skips `[…]`; a nested `[` (POSIX classes) gives up rather than misread the end. */
  private skipClass(): boolean {
    const src = this.src;
    let i = this.pos + 1;
    if (src[i] === '^') i++;
    if (src[i] === ']') i++;
    for (; i < src.length; i++) {
      const c = src[i];
      if (c === '\\') i++;
      else if (c === '[') return false;
      else if (c === ']') {
        this.pos = i + 1;
        return true;
      }
    }
    return false;
  }

  /** The character an escape stands for, null for a class or position, or give up. */
  private escape(): string | null | typeof GIVE_UP {
    const e = this.src[this.pos + 1];
    if (e === undefined) return GIVE_UP;
    this.pos += 2;
    if (PUNCTUATION.test(e)) return e;
    if (CLASS_ESCAPES.has(e) || CONTROL_ESCAPES.has(e)) return null;
    if (e === 'p' || e === 'P') {
      if (this.src[this.pos] === '{') {
        const end = this.src.indexOf('}', this.pos);
        if (end < 0) return GIVE_UP;
        this.pos = end + 1;
      } else this.pos++;
      return null;
    }
    if (e === 'x') {
      const m = /^(\{[0-9A-Fa-f]+\}|[0-9A-Fa-f]{2})/.exec(this.src.slice(this.pos));
      if (!m) return GIVE_UP;
      this.pos += m[0].length;
      return null;
    }
    return GIVE_UP;
  }

  /** What follows an atom: none, `?`/`*`/`{0,…}` (optional) or `+`/`{n≥1,…}` (repeated). */
  private quantifier(): 'once' | 'optional' | 'repeated' | typeof GIVE_UP {
    const src = this.src;
    const c = src[this.pos];
    let kind: 'once' | 'optional' | 'repeated' = 'once';
    if (c === '?' || c === '*') kind = 'optional';
    else if (c === '+') kind = 'repeated';
    else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(src.slice(this.pos));
      if (!m) return GIVE_UP; // RE2 reads a bad repeat as literal text; too rare to follow
      this.pos += m[0].length - 1;
      kind = Number(m[1]) === 0 ? 'optional' : m[2] === undefined && m[1] === '1' ? 'once' : 'repeated';
    }
    if (kind === 'once' && c !== '{') return 'once';
    this.pos++;
    if (src[this.pos] === '?' || src[this.pos] === '+') this.pos++; // lazy or possessive
    if (/^[*+?{]/.test(src[this.pos] ?? '')) return GIVE_UP; // a stacked quantifier
    return kind;
  }
}

/** At most this many clauses are kept from an alternation's cross product. */
const MAX_OR_CLAUSES = 4;

/** `A ∨ B` of two conjunctions: each pair of clauses joined (the strongest pairs kept). */
export function orClauses(branches: readonly LiteralCnf[]): LiteralCnf {
  let acc: LiteralCnf = branches[0]!;
  for (const b of branches.slice(1)) {
    const next: string[][] = [];
    for (const x of acc.slice(0, MAX_OR_CLAUSES))
      for (const y of b.slice(0, MAX_OR_CLAUSES)) next.push([...new Set([...x, ...y])]);
    acc = next;
    if (acc.length === 0) return [];
  }
  return acc;
}

/**
 * The literal clauses every match of `pattern` satisfies (each literal one `selective` keeps),
 * or undefined when none can be read off safely.
 */
export function regexLiterals(
  pattern: string,
  selective: (literal: string) => boolean,
): LiteralCnf | undefined {
  const r = new Reader(pattern, selective);
  const cnf = r.alternation();
  if (cnf === GIVE_UP || r.pos !== pattern.length || cnf.length === 0) return undefined;
  return cnf;
}
