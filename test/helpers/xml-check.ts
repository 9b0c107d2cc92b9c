/**
 * Real XML parsers as judges of well-formedness: saxes (strict XML 1.0 with namespaces: it
 * rejects forbidden characters, even as references, undeclared entities and prefixes,
 * repeated attributes, several roots) and, where python3 is installed, Python's ElementTree
 * (expat) as a second opinion. Also the inverses of the escapes the renderer documents.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';

export interface XmlElementRead {
  readonly name: string;
  readonly attrs: [string, string][];
  readonly children: XmlElementRead[];
  text: string;
}

/** Parses `xml` with saxes; the root elements read, or the first errors. */
export function readXml(xml: string): { roots: XmlElementRead[]; errors: string[] } {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const errors: string[] = [];
  const roots: XmlElementRead[] = [];
  const open: XmlElementRead[] = [];
  parser.on('error', (e) => {
    if (errors.length < 5) errors.push(e.message);
  });
  parser.on('opentag', (t) => {
    const attrs = Object.values(t.attributes).map((a): [string, string] => [a.name, a.value]);
    const e: XmlElementRead = { name: t.name, attrs, children: [], text: '' };
    (open.at(-1)?.children ?? roots).push(e);
    open.push(e);
  });
  parser.on('closetag', () => open.pop());
  const addText = (s: string) => {
    const e = open.at(-1);
    if (e !== undefined) e.text += s;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(xml).close();
  return { roots, errors };
}

/** saxes' first errors on a (large) XML file read as a stream, and how many children its root has. */
export async function xmlFileErrors(path: string): Promise<{ errors: string[]; children: number }> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const errors: string[] = [];
  let depth = 0;
  let children = 0;
  parser.on('error', (e) => {
    if (errors.length < 5) errors.push(e.message);
  });
  parser.on('opentag', () => {
    if (++depth === 2) children++;
  });
  parser.on('closetag', () => depth--);
  for await (const piece of createReadStream(path, { encoding: 'utf8' })) parser.write(piece as string);
  parser.close();
  return { errors, children };
}

export const hasPython =
  spawnSync('python3', ['-c', 'import xml.etree.ElementTree'], { stdio: 'ignore' }).status === 0;

const ELEMENT_TREE = `
import sys, xml.etree.ElementTree as ET
n = 0
try:
    for _ in ET.iterparse(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.buffer):
        n += 1
except ET.ParseError as e:
    print(e); sys.exit(1)
print(n)
`;

/** ElementTree's verdict on an XML file (`path`) or text: null when well-formed, else its error. */
export function elementTreeError(xml: { path: string } | { text: string }): string | null {
  const r = spawnSync('python3', ['-c', ELEMENT_TREE, ...('path' in xml ? [xml.path] : [])], {
    input: 'text' in xml ? xml.text : undefined,
    encoding: 'utf8',
  });
  return r.status === 0 ? null : `${r.stdout}${r.stderr}`.trim();
}

/** The inverse of the renderer's `\u{X}` escape. */
export const unescapeVisible = (s: string): string =>
  s.replace(/\\u\{([0-9A-F]+)\}/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));

/** The inverse of the name escape `_xHHHH_` (`_x_` is the empty name). */
export const decodeName = (s: string): string =>
  s.replace(/_x([0-9A-Fa-f]{4}|[0-9A-Fa-f]{8})?_/g, (_, hex: string | undefined) =>
    hex === undefined ? '' : String.fromCodePoint(Number.parseInt(hex, 16)),
  );
