/**
 * The XML renderer on hand-built trees: every construct BinXML can carry (text, values,
 * attributes, CDATA, character and entity references, PIs, names) with the characters XML 1.0
 * forbids, judged by real parsers (saxes; ElementTree when python3 is there), and the escapes
 * undone give back what the tree held. The writer-made logs are in evtx-xml-wellformed.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderXml, type XmlElement, type XmlNode } from '../src/evtx/index.js';
import {
  decodeName,
  elementTreeError,
  hasPython,
  readXml,
  unescapeVisible,
  type XmlElementRead,
} from './helpers/xml-check.js';

const text = (t: string): XmlNode => ({ kind: 'text', text: t });
const value = (t: string): XmlNode => ({ kind: 'value', type: 1, text: t, items: null });
const el = (name: string, attrs: [string, XmlNode[]][] = [], children: XmlNode[] = []): XmlElement => ({
  kind: 'element',
  name,
  attrs: attrs.map(([n, v]) => ({ name: n, value: v })),
  children,
});

/** Renders `nodes` as a document that both parsers must accept; returns saxes' reading. */
function wellFormed(nodes: XmlNode[]): { xml: string; roots: XmlElementRead[] } {
  const xml = renderXml(nodes);
  const { roots, errors } = readXml(xml);
  assert.deepEqual(errors, [], xml);
  if (hasPython) assert.equal(elementTreeError({ text: xml }), null, xml);
  return { xml, roots };
}

const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
const C1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)).join('');
const HOSTILE = `${C0}|${C1}|\ufffe\uffff|lone \ud800 \udfff pair 😀|]]>|<&>"'|?>|\\u{41} C:\\x64\\ \\`;

test('characters XML 1.0 forbids are written \\u{X} in text, values, attributes and CDATA, and unescaping gives them back', () => {
  const data = el(
    'Data',
    [
      ['Name', [text(HOSTILE)]],
      ['Value', [value(HOSTILE)]],
    ],
    [value(HOSTILE)],
  );
  const cdata = el('CData', [], [{ kind: 'cdata', text: HOSTILE }]);
  const pi: XmlNode = { kind: 'pi', target: 'target', data: HOSTILE };
  const { roots } = wellFormed([el('Event', [], [data, cdata, pi, el('Text', [], [text(HOSTILE)])])]);
  const [d, c, t] = roots[0]!.children as [XmlElementRead, XmlElementRead, XmlElementRead];
  // Attribute values keep TAB, LF and CR as references; in content a parser reads CR as LF.
  assert.deepEqual(
    d.attrs.map(([, v]) => unescapeVisible(v)),
    [HOSTILE, HOSTILE],
  );
  const contentRead = HOSTILE.replaceAll('\r', '\n');
  assert.equal(unescapeVisible(d.text), contentRead);
  assert.equal(unescapeVisible(c.text), contentRead);
  assert.equal(unescapeVisible(t.text), contentRead);
});

test('the escapes are the documented ones: \\u{X} upper case, a backslash only when the text follows it with u{', () => {
  const xml = renderXml(
    [el('D', [['A', [value('\t\n\r"\u0001')]]], [value('a\u0001\u001f\ufffe\\u{41}\\x64\\\\')])],
    {
      declaration: false,
    },
  );
  assert.equal(xml, '<D A="&#9;&#10;&#13;&quot;\\u{1}">a\\u{1}\\u{1F}\\u{FFFE}\\u{5C}u{41}\\x64\\\\</D>\n');
  const pi = renderXml([{ kind: 'pi', target: 'xml', data: 'a?>b\u0002' }], { declaration: false });
  assert.equal(pi, '<?_x0078_ml a?\\u{3E}b\\u{2}?>\n');
});

const NAMES = [
  '',
  ' ',
  'a b',
  '<x>',
  '\u0001',
  'a:b',
  ':a',
  'a:',
  'x:y:z',
  '1abc',
  '-a',
  '.a',
  'é',
  '😀',
  '\ud800',
];
const TRICKY = [...NAMES, '_x0041_', '_x_', 'xml', 'XmL', 'a&b', '>"', 'Data', 'Event_Data-1.x'];

test('names that are not XML names are written _xHHHH_ and decode back to the name the log holds', () => {
  const named = TRICKY.flatMap((name): XmlNode[] => {
    const attrs: [string, XmlNode[]][] = [[name, [text('v')]]];
    return [
      el(name, attrs, [value('x')]),
      el(name, attrs, [el('c')]),
      { kind: 'pi', target: name, data: 'd' },
    ];
  });
  const { roots } = wellFormed([el('Event', [], named)]);
  const read = roots[0]!.children;
  assert.equal(read.length, TRICKY.length * 2);
  read.forEach((e, i) => {
    const name = TRICKY[i >> 1]!;
    assert.equal(decodeName(e.name), name);
    assert.equal(decodeName(e.attrs[0]![0]), name);
  });
  // Plain ASCII names, like every name in the corpus, are written as they are.
  assert.equal(
    renderXml([el('Event_Data-1.x', [['Name', []]])], { declaration: false }),
    '<Event_Data-1.x Name=""/>\n',
  );
});

test('repeated attributes get #N and namespace declarations that would be errors become plain attributes', () => {
  const t = (s: string) => [text(s)];
  const { roots } = wellFormed([
    el('E', [
      ['Name', t('a')],
      ['Name', t('b')],
      ['Name', t('c')],
      ['xmlns', t('urn:x')],
      ['xmlns', t('urn:y')],
      ['xmlns:p', t('')],
      ['xmlns:q', t('http://www.w3.org/2000/xmlns/')],
      ['xmlns:ok', t('urn:ok')],
      ['xml:lang', t('en')],
      ['xmlns:xml', t('urn:z')],
      ['xmlns:d', [value('urn:d')]],
      ['xmlns:ok', t('urn:ok')],
    ]),
  ]);
  assert.deepEqual(
    roots[0]!.attrs.map(([n]) => n),
    [
      'Name',
      'Name_x0023_2',
      'Name_x0023_3',
      'xmlns',
      'xmlns_x0023_2',
      '_x0078_mlns_x003A_p',
      '_x0078_mlns_x003A_q',
      'xmlns:ok',
      'xml:lang',
      '_x0078_mlns_x003A_xml',
      '_x0078_mlns_x003A_d',
      'xmlns_x003A_ok_x0023_2',
    ],
  );
});

test('references to forbidden characters and undeclared entities are written as text', () => {
  const refs: XmlNode[] = [
    { kind: 'charref', code: 1 },
    { kind: 'charref', code: 0x41 },
    { kind: 'charref', code: 0xd800 },
    { kind: 'charref', code: 0xfffe },
    { kind: 'charref', code: 9 },
    { kind: 'entityref', name: 'amp' },
    { kind: 'entityref', name: 'nbsp' },
    { kind: 'entityref', name: 'a<b' },
  ];
  const { xml, roots } = wellFormed([el('E', [['A', refs]], refs)]);
  assert.ok(xml.includes('>\\u{1}&#65;\\u{D800}\\u{FFFE}&#9;&amp;&amp;nbsp;&amp;a&lt;b;</E>'), xml);
  const read = '\u0001A\ud800\ufffe\t&&nbsp;&a<b;';
  assert.equal(unescapeVisible(roots[0]!.text), read);
  assert.equal(unescapeVisible(roots[0]!.attrs[0]![1]), read);
});

test('content that is not one root element is still a document: wrapped in <Events>', () => {
  for (const nodes of [
    [el('a'), el('b')],
    [text('loose text')],
    [],
    [{ kind: 'cdata', text: 'x' } as XmlNode],
  ]) {
    const { xml, roots } = wellFormed(nodes);
    assert.equal(roots[0]!.name, 'Events', xml);
  }
  const one: XmlNode[] = [{ kind: 'pi', target: 'p', data: '' }, text('\n '), el('Event')];
  assert.equal(wellFormed(one).roots[0]!.name, 'Event');
});
