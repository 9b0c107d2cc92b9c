/**
 * The flat event model the analysis layers consume: System fields typed, EventData and
 * UserData as name → value, unnamed `Data` as an array. Values are text as Windows renders them.
 */
import type { XmlElement, XmlNode } from './tree.js';

export type EventFieldValue = string | string[];

export interface EvtxEvent {
  /** EventRecordID from System (the record header's id when absent). */
  readonly recordId: number;
  /** TimeCreated in ms since the Unix epoch (NaN when absent). */
  readonly timestamp: number;
  /** TimeCreated as ISO 8601 UTC with 100 ns precision, e.g. `2016-07-08T18:12:51.6816404Z`. */
  readonly timestampText: string;
  readonly eventId: number;
  readonly qualifiers: number | null;
  readonly version: number | null;
  readonly level: number | null;
  readonly task: number | null;
  readonly opcode: number | null;
  readonly keywords: string | null;
  readonly provider: string;
  readonly providerGuid: string | null;
  readonly channel: string;
  readonly computer: string;
  readonly userSid: string | null;
  readonly processId: number | null;
  readonly threadId: number | null;
  /** EventData `Data Name=` fields, or the leaf elements of UserData's payload element. */
  readonly data: Record<string, EventFieldValue>;
  /** EventData `Data` elements without a Name, in order. */
  readonly unnamedData: string[];
  /** The UserData payload element's name (e.g. `LogFileCleared`), else null. */
  readonly userDataName: string | null;
}

function text(nodes: readonly XmlNode[]): string {
  let s = '';
  for (const n of nodes) {
    if (n.kind === 'text' || n.kind === 'cdata' || n.kind === 'value') s += n.text;
    else if (n.kind === 'charref') s += String.fromCodePoint(n.code);
    else if (n.kind === 'entityref') s += ENTITIES[n.name] ?? `&${n.name};`;
  }
  return s;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function fieldValue(e: XmlElement): EventFieldValue {
  const only = e.children.length === 1 ? e.children[0] : undefined;
  if (only?.kind === 'value' && only.items !== null) return [...only.items];
  return text(e.children);
}

function attr(e: XmlElement | undefined, name: string): string | null {
  if (e === undefined) return null;
  for (const a of e.attrs) if (a.name === name) return text(a.value) || null;
  return null;
}

/** A System field's number from its text (decimal or `0x` hex); null when empty or not a number. */
export const num = (s: string | null | undefined): number | null => {
  if (s === null || s === undefined || s === '') return null;
  const v = s.startsWith('0x') ? Number.parseInt(s.slice(2), 16) : Number(s);
  return Number.isFinite(v) ? v : null;
};

/** TimeCreated's milliseconds from its text (NaN when absent or unreadable). */
export function parseTimestamp(t: string | null): number {
  if (t === null) return Number.NaN;
  return Date.parse(t.length > 24 ? `${t.slice(0, 23)}Z` : t);
}

/** The event's fields as text, before numbers are parsed (the form compiled templates fill in). */
export interface EventText {
  recordId: string | null;
  timeCreated: string | null;
  eventId: string | null;
  qualifiers: string | null;
  version: string | null;
  level: string | null;
  task: string | null;
  opcode: string | null;
  keywords: string | null;
  provider: string | null;
  providerGuid: string | null;
  channel: string | null;
  computer: string | null;
  userSid: string | null;
  processId: string | null;
  threadId: string | null;
  data: Record<string, EventFieldValue>;
  unnamedData: string[];
  userDataName: string | null;
}

export function eventText(nodes: readonly XmlNode[]): EventText {
  const root = nodes.find((n): n is XmlElement => n.kind === 'element');
  const sys: Record<string, XmlElement> = {};
  const data: Record<string, EventFieldValue> = {};
  const unnamedData: string[] = [];
  let userDataName: string | null = null;
  for (const c of root?.children ?? []) {
    if (c.kind !== 'element') continue;
    if (c.name === 'System') {
      for (const s of c.children) if (s.kind === 'element' && !(s.name in sys)) sys[s.name] = s;
    } else if (c.name === 'EventData') {
      for (const d of c.children) {
        if (d.kind !== 'element') continue;
        const name = attr(d, 'Name');
        if (name === null) unnamedData.push(text(d.children));
        else addField(data, name, fieldValue(d));
      }
    } else if (c.name === 'UserData') {
      const payload = c.children.find((x): x is XmlElement => x.kind === 'element');
      if (payload !== undefined) {
        userDataName = payload.name;
        flattenInto(payload, '', data);
      }
    }
  }
  const sysText = (name: string): string | null => {
    const e = sys[name];
    return e === undefined ? null : text(e.children);
  };
  return {
    recordId: sysText('EventRecordID'),
    timeCreated: attr(sys.TimeCreated, 'SystemTime'),
    eventId: sysText('EventID'),
    qualifiers: attr(sys.EventID, 'Qualifiers'),
    version: sysText('Version'),
    level: sysText('Level'),
    task: sysText('Task'),
    opcode: sysText('Opcode'),
    keywords: sysText('Keywords'),
    provider: attr(sys.Provider, 'Name'),
    providerGuid: attr(sys.Provider, 'Guid'),
    channel: sysText('Channel'),
    computer: sysText('Computer'),
    userSid: attr(sys.Security, 'UserID'),
    processId: attr(sys.Execution, 'ProcessID'),
    threadId: attr(sys.Execution, 'ThreadID'),
    data,
    unnamedData,
    userDataName,
  };
}

export function finishEvent(t: EventText, headerRecordId: number): EvtxEvent {
  const timestampText = t.timeCreated ?? '';
  return {
    recordId: num(t.recordId) ?? headerRecordId,
    timestamp: parseTimestamp(timestampText || null),
    timestampText,
    eventId: num(t.eventId) ?? -1,
    qualifiers: num(t.qualifiers),
    version: num(t.version),
    level: num(t.level),
    task: num(t.task),
    opcode: num(t.opcode),
    keywords: t.keywords,
    provider: t.provider ?? '',
    providerGuid: t.providerGuid,
    channel: t.channel ?? '',
    computer: t.computer ?? '',
    userSid: t.userSid,
    processId: num(t.processId),
    threadId: num(t.threadId),
    data: t.data,
    unnamedData: t.unnamedData,
    userDataName: t.userDataName,
  };
}

export const toEvent = (nodes: readonly XmlNode[], headerRecordId: number): EvtxEvent =>
  finishEvent(eventText(nodes), headerRecordId);

/**
 * A name seen again (a string array Windows renders as repeated `Data` elements, or a log
 * that repeats a field) collects every value in order instead of keeping only the last.
 */
function addField(data: Record<string, EventFieldValue>, name: string, value: EventFieldValue): void {
  const previous = data[name];
  if (previous === undefined) data[name] = value;
  else
    data[name] = [
      ...(Array.isArray(previous) ? previous : [previous]),
      ...(Array.isArray(value) ? value : [value]),
    ];
}

/** UserData leaves become fields named by their path below the payload (`Parent.Child`). */
function flattenInto(e: XmlElement, prefix: string, out: Record<string, EventFieldValue>): void {
  for (const c of e.children) {
    if (c.kind !== 'element') continue;
    const key = prefix + c.name;
    if (c.children.some((x) => x.kind === 'element')) flattenInto(c, `${key}.`, out);
    else if (!(key in out)) out[key] = fieldValue(c);
    for (const a of c.attrs) {
      const k = `${key}.${a.name}`;
      if (!(k in out)) out[k] = text(a.value);
    }
  }
}
