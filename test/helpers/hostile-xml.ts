/**
 * Events whose strings hold what XML 1.0 forbids or must escape, in every place our writer
 * lets a log carry text: EventData values (string, ANSI, string array) and `Name` attribute
 * values, provider, channel and computer (as substitutions and as template text), and UserData
 * element, field and attribute names (repeated ones too) with their values, inline and embedded.
 */
import type { EventDescription, EvtxValue } from '../../fixtures/evtx-writer/index.js';

const C0 = Array.from({ length: 0x1f }, (_, i) => String.fromCharCode(i + 1)).join('');
const C1 = Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)).join('');

/** Without NUL: a substitution string ends at its first NUL, so that one comes last. */
export const HOSTILE = [
  C0,
  C1,
  '\ufffe\uffff',
  'lone \ud800 high \udfff low, pair 😀',
  ']]><![CDATA[',
  `<Data Name="x">&amp;</Data> 'single'`,
  '\\u{41} is not an escape, C:\\x64\\cl.exe \\',
  '<?xml version="1.0"?> ?>',
];
const ALL = `${HOSTILE.join('|')}\u0000after NUL`;

export const NAMES = [
  'a b',
  '<x>',
  '\u0001\u001f',
  'a:b',
  ':a',
  'x:y:z',
  '1abc',
  'é',
  '😀',
  '\ud800',
  '_x0041_',
  'xml',
];

const strings = (): Record<string, EvtxValue> => {
  const data: Record<string, EvtxValue> = {};
  HOSTILE.forEach((h, i) => {
    data[`v${i}`] = h;
    data[`${h}#${i}`] = 'hostile name';
  });
  data.all = ALL;
  data.ansi = { type: 'ansi', value: `ansi\u0001\u001f<&>"\\u{42}` };
  data.array = { type: 'stringArray', value: [...HOSTILE, ''] };
  return data;
};

function event(i: number, more: Partial<EventDescription>): EventDescription {
  return {
    time: `2026-03-01T10:00:${String(i).padStart(2, '0')}.1234567Z`,
    eventId: 4688,
    provider: `Provider${HOSTILE[i % HOSTILE.length]}`,
    channel: `Channel${HOSTILE[(i + 1) % HOSTILE.length]}`,
    computer: `HOST${HOSTILE[(i + 2) % HOSTILE.length]}`,
    ...more,
  };
}

function userData(i: number): NonNullable<EventDescription['userData']> {
  const fields: Record<string, EvtxValue> = {};
  NAMES.forEach((n, k) => {
    fields[n] = HOSTILE[(i + k) % HOSTILE.length]!;
  });
  const attributes: [string, EvtxValue][] = NAMES.map((n, k) => [n, HOSTILE[(i + k + 3) % HOSTILE.length]!]);
  attributes.push(
    ['dup', 'a'],
    ['dup', 'b'],
    ['xmlns:p', ''],
    ['xmlns:q', 'urn:q'],
    ['xmlns', 'urn:dynamic'],
  );
  return { element: NAMES[i % NAMES.length]!, xmlns: 'urn:x', fields, attributes };
}

export function hostileXmlEvents(): EventDescription[] {
  const events: EventDescription[] = [];
  for (let i = 0; i < 8; i++) {
    const layout = i % 2 === 0 ? 'manifest' : 'classic';
    const bodyEncoding = i % 4 < 2 ? 'inline' : 'embedded';
    events.push(event(i, { eventData: strings(), systemLayout: layout, bodyEncoding }));
    events.push(event(i + 8, { userData: userData(i), systemLayout: layout, bodyEncoding }));
  }
  return events;
}
