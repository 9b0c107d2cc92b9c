/**
 * Element, attribute and PI target names for XML output. BinXML names are strings in the
 * file, so a hostile log can hold names with spaces, `<`, controls, colons, or none at all.
 *
 * A name is written as it is when it is plain ASCII (`[A-Za-z_][A-Za-z0-9._-]*`, every name
 * in the corpus). Any other character becomes `_xHHHH_` (`_xHHHHHHHH_` above U+FFFF), the
 * convention of .NET's `XmlConvert.EncodeName`, and a `_` that would read as the start of one
 * is written `_x005F_`, so decoding gives back the name exactly; the empty name is `_x_`.
 * Non-ASCII letters are escaped too: parsers disagree on which of them make names (expat
 * still follows Unicode 2.0), and Windows' own names are ASCII.
 *
 * Colons would make namespace-aware parsers (ElementTree, saxes with xmlns) check prefixes,
 * so a colon is kept only in attribute names `xmlns:NCName` (a declaration, checked by the
 * renderer) and `xml:NCName`; elsewhere it is `_x003A_`.
 */

const PLAIN = /^[A-Za-z_][A-Za-z0-9._-]*$/;
/** A `_` that decoding would take as an escape (anywhere, and what must follow one). */
const LOOKS_ESCAPED = /_x(?:[0-9A-Fa-f]{4}|[0-9A-Fa-f]{8})?_/;
const ESCAPE_REST = /^x(?:[0-9A-Fa-f]{4}|[0-9A-Fa-f]{8})?_/;
const PREFIXED_ATTR = /^(xmlns|xml):([A-Za-z_][A-Za-z0-9._-]*)$/;

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

function isNameChar(c: number, first: boolean): boolean {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) return true;
  return !first && ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e);
}

/** `s` with every character outside the plain set escaped; `forceFirst` escapes the first one too. */
function encode(s: string, forceFirst = false): string {
  if (s === '') return '_x_';
  if (!forceFirst && PLAIN.test(s) && !LOOKS_ESCAPED.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    const wide = cp > 0xffff;
    const force = i === 0 && forceFirst;
    if (!force && isNameChar(cp, i === 0) && !(cp === 0x5f && ESCAPE_REST.test(s.slice(i + 1)))) {
      out += s[i];
      continue;
    }
    out += `_x${wide ? hex(cp, 8) : hex(cp, 4)}_`;
    if (wide) i++;
  }
  return out;
}

/** Written names by kind and name in the log: the tree renderer asks for the same few again and again. */
const written = new Map<string, string>();

function cached(key: string, make: () => string): string {
  let name = written.get(key);
  if (name === undefined) {
    if (written.size >= 10_000) written.clear();
    name = make();
    written.set(key, name);
  }
  return name;
}

/** An element name. */
export const elementName = (name: string): string => cached(`e${name}`, () => encode(name));

/** A PI target: never `xml` in any case (reserved for the declaration), never a colon. */
export const piTarget = (name: string): string => encode(name, name.toLowerCase() === 'xml');

/**
 * An attribute name. `declaration` says whether an `xmlns`/`xmlns:p` attribute may stay a
 * namespace declaration (its value is fixed text the renderer found acceptable); when not,
 * its first letter is escaped so that it is an ordinary attribute.
 */
export const attributeName = (name: string, declaration: boolean): string =>
  cached(`${declaration ? 'd' : 'a'}${name}`, () => writtenAttribute(name, declaration));

function writtenAttribute(name: string, declaration: boolean): string {
  if (name === 'xmlns') return declaration ? name : encode(name, true);
  const m = PREFIXED_ATTR.exec(name);
  if (m === null) return encode(name);
  const [, prefix, local] = m as unknown as [string, string, string];
  if (prefix === 'xml') return `xml:${encode(local)}`;
  if (declaration && local !== 'xml' && local !== 'xmlns') return `xmlns:${encode(local)}`;
  return encode(name, true);
}

/** Whether an attribute name declares a namespace. */
export const isDeclaration = (name: string): boolean => name === 'xmlns' || name.startsWith('xmlns:');

const RESERVED_URIS = new Set(['http://www.w3.org/XML/1998/namespace', 'http://www.w3.org/2000/xmlns/']);

/** Whether a namespace declaration may bind this (fixed) value: no reserved URI, no empty prefix binding. */
export const isDeclarable = (name: string, value: string): boolean =>
  !RESERVED_URIS.has(value) && (name === 'xmlns' || value !== '');

/**
 * An attribute's written `name` made distinct from those already `seen` in its element (a
 * repeated name is ill-formed): `#2`, `#3`… appended as `_x0023_N`, and a repeated
 * declaration loses its colon so that it declares nothing.
 */
export function distinct(name: string, seen: Set<string>): string {
  let out = name;
  if (seen.has(out)) {
    const base = name.replace(':', '_x003A_');
    for (let n = 2; seen.has(out); n++) out = `${base}_x0023_${n}`;
  }
  seen.add(out);
  return out;
}
