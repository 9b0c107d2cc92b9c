/**
 * Text for XML 1.0 output that stays well-formed whatever a hostile log holds.
 *
 * XML 1.0 forbids most C0 controls, U+FFFE, U+FFFF and lone surrogates even as character
 * references (`&#1;` is itself ill-formed), so no XML form keeps them. They are written as the
 * visible escape `\u{X}` (upper-case hex, no padding: `\u{1}`, `\u{1F}`, `\u{FFFE}`), as the
 * CLI's evidence and payload text show hidden characters. Only `\u{` opens an escape, so a
 * backslash that the text itself follows with `u{` is written `\u{5C}`; every other backslash
 * (Windows paths: the corpus has 348 literal `\x64`-like sequences and no `\u{`) stays as is,
 * and replacing each `\u{X}` by code point X gives back the exact text. `\xNN` was not chosen
 * for that reason: guarding `\x` would have rewritten real paths such as `…\Hostx64\x64\cl.exe`.
 *
 * Attribute values also keep TAB, LF and CR as `&#9;` `&#10;` `&#13;` (as canonical XML does):
 * written raw, every parser would turn them into spaces.
 */

const FORBIDDEN = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff';
const ESCAPE_OPENER = '\\\\(?=u\\{)';
const LONE_SURROGATE =
  '[\\ud800-\\udbff](?![\\udc00-\\udfff])|[\\udc00-\\udfff](?<![\\ud800-\\udbff][\\udc00-\\udfff])';

/**
 * Per context, a test for what needs escaping (lone surrogates are left to the native
 * `isWellFormed`, so clean text costs one scan) and the pattern that replaces it.
 */
interface Escaper {
  readonly test: RegExp;
  readonly all: RegExp;
  readonly replace: (c: string) => string;
}

const escaper = (chars: string, replace: (c: string) => string, more = ''): Escaper => {
  const source = `[${chars}${FORBIDDEN}]|${ESCAPE_OPENER}${more}`;
  return { test: new RegExp(source), all: new RegExp(`${source}|${LONE_SURROGATE}`, 'g'), replace };
};

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** The visible escape of one UTF-16 code unit or code point. */
export const visibleEscape = (code: number): string => `\\u{${code.toString(16).toUpperCase()}}`;

const visible = (c: string): string => visibleEscape(c.charCodeAt(0));
const entityOrVisible = (c: string): string => ENTITY[c] ?? visible(c);

const TEXT = escaper('&<>', entityOrVisible);
const ATTR = escaper('&<>"\\t\\n\\r', entityOrVisible);
// CDATA sections and PI data take no entities; a PI also must not hold `?>`.
const RAW = escaper('', visible);
const PI = escaper('', visible, '|(?<=\\?)>');

function escapeWith(s: string, e: Escaper): string {
  return e.test.test(s) || !s.isWellFormed() ? s.replace(e.all, e.replace) : s;
}

/** Element content. */
export const escapeXmlText = (s: string): string => escapeWith(s, TEXT);
/** An attribute value between double quotes. */
export const escapeXmlAttr = (s: string): string => escapeWith(s, ATTR);
/** The inside of a CDATA section (its `]]>` is split by the caller). */
export const escapeXmlRaw = (s: string): string => escapeWith(s, RAW);
/** A processing instruction's data: the `>` of a `?>` inside it is escaped too. */
export const escapeXmlPi = (s: string): string => escapeWith(s, PI);

/** Whether a character reference to `code` is allowed in XML 1.0 (§2.2 Char). */
export const isXmlChar = (code: number): boolean =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/** The XML 1.0 predefined entities: any other reference would need a DTD. */
export const PREDEFINED_ENTITIES: ReadonlySet<string> = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
