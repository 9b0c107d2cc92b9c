/**
 * Imports a provider's event definitions into event_id rows, from the XML that
 * `wevtutil gp <Provider> /ge /gm /f:xml` prints (see data/README.md), from an
 * instrumentation manifest (`<instrumentationManifest>` with `<templates>`), or from a
 * provider-metadata dump (`<Providers><Provider Name><EventMetadata><Event><Id>…`, the shape
 * `Get-WinEvent -ListProvider` exports in data/README.md produce).
 * Parsing keeps attributes as text, never expands entities (a DOCTYPE is ignored) and never
 * converts numbers; only the five XML entities and character references are decoded.
 */
import { XMLParser } from 'fast-xml-parser';
import { cleanCell, Diagnostics, IMPORT_LIMITS, type ImportResult, tooLarge } from './common.js';

export interface ProviderXmlImportOptions {
  /** Written to the OS Version column of every row (say, the gold image's build). */
  readonly osVersion?: string;
}

type Node = Record<string, unknown>;

const LISTS = new Set([
  'provider',
  'Provider',
  'event',
  'Event',
  'data',
  'channel',
  'task',
  'template',
  'opcode',
  'level',
  'keyword',
]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  cdataPropName: '#cdata',
  isArray: (name) => LISTS.has(name),
});

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (all, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? all;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

const list = (v: unknown): Node[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter(
    (x): x is Node => typeof x === 'object' && x !== null,
  );
const attr = (n: Node | undefined, name: string): string =>
  typeof n?.[`@_${name}`] === 'string' ? decodeXmlText(n[`@_${name}`] as string) : '';

/** An element's text: character data decoded, CDATA sections kept as written. */
function text(n: Node | undefined, name: string): string {
  const v = n?.[name];
  if (typeof v === 'string') return decodeXmlText(v);
  if (typeof v !== 'object' || v === null) return '';
  const o = v as Node;
  const plain = typeof o['#text'] === 'string' ? decodeXmlText(o['#text']) : '';
  const raw = o['#cdata'];
  const cdata = (Array.isArray(raw) ? raw : [raw]).filter((c): c is string => typeof c === 'string');
  return plain + cdata.join('');
}

const firstLine = (message: string): string => {
  const line = message.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const t = line.trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
};

function findProviders(doc: Node): Node[] {
  const direct = list(doc.provider);
  if (direct.length > 0) return direct;
  const manifest = doc.instrumentationManifest as Node | undefined;
  const events = (manifest?.instrumentation as Node | undefined)?.events as Node | undefined;
  return list(events?.provider);
}

function templateFields(t: Node | undefined): string[] {
  return list(t?.data)
    .map((d) => attr(d, 'name'))
    .filter((n) => n !== '');
}

/** A template given inline (child element), as escaped XML text, or by id (manifests). */
function fieldsOf(event: Node, byId: Map<string, Node>, diag: Diagnostics, record: number): string[] {
  const child = list(event.template)[0];
  if (child) return templateFields(child);
  const ref = attr(event, 'template');
  if (ref.trimStart().startsWith('<')) {
    try {
      return templateFields(list((parser.parse(ref) as Node).template)[0]);
    } catch {
      diag.add('warning', 'an inline template could not be parsed', record);
      return [];
    }
  }
  return ref === '' ? [] : templateFields(byId.get(ref));
}

export function importProviderXml(text: string, options: ProviderXmlImportOptions = {}): ImportResult {
  const diag = new Diagnostics();
  if (tooLarge(text, diag)) return { module: 'event_id', rows: [], diagnostics: diag.done() };
  if (/<!DOCTYPE/i.test(text)) diag.add('warning', 'a DOCTYPE was ignored; entities are never expanded');
  let doc: Node;
  try {
    doc = parser.parse(text) as Node;
  } catch (e) {
    diag.add('error', `not well-formed XML: ${(e as Error).message.slice(0, 120)}`);
    return { module: 'event_id', rows: [], diagnostics: diag.done() };
  }
  const os = cleanCell(options.osVersion ?? '', diag, 0);
  const rows: string[][] = [];
  for (const provider of findProviders(doc)) {
    const name = attr(provider, 'name');
    const channels = new Map(
      list((provider.channels as Node | undefined)?.channel).flatMap((c) => {
        const label = attr(c, 'name');
        return [attr(c, 'id'), attr(c, 'value'), attr(c, 'chid')]
          .filter(Boolean)
          .map((k) => [k, label] as const);
      }),
    );
    const tasks = new Map(
      list((provider.tasks as Node | undefined)?.task).map(
        (t) => [attr(t, 'value'), attr(t, 'message') || attr(t, 'name')] as const,
      ),
    );
    const templates = new Map(
      list((provider.templates as Node | undefined)?.template).map((t) => [attr(t, 'tid'), t] as const),
    );
    list((provider.events as Node | undefined)?.event).forEach((event, i) => {
      if (rows.length >= IMPORT_LIMITS.maxRows) return;
      const id = attr(event, 'value');
      if (!/^\d+$/.test(id)) {
        diag.add('warning', 'event without a numeric value was skipped', i + 1);
        return;
      }
      const channel = attr(event, 'channel');
      rows.push(
        [
          id,
          os,
          attr(event, 'version') || '0',
          name,
          firstLine(attr(event, 'message')),
          fieldsOf(event, templates, diag, i + 1).join('|'),
          channels.get(channel) ?? channel,
          tasks.get(attr(event, 'task')) ?? '',
          '',
          'imported: provider metadata',
        ].map((c) => cleanCell(c, diag, i + 1)),
      );
    });
  }
  readMetadataDump(doc, os, rows, diag);
  if (rows.length === 0) diag.add('error', 'no event definitions found');
  return { module: 'event_id', rows, diagnostics: diag.done() };
}

/** `<Providers><Provider Name><EventMetadata><Event><Id/><Version/><Channel/><Message/><Template/>`. */
function readMetadataDump(doc: Node, os: string, rows: string[][], diag: Diagnostics): void {
  const root = doc.Providers as Node | undefined;
  const providers = root === undefined ? list(doc.Provider) : list(root.Provider);
  for (const provider of providers) {
    const name = attr(provider, 'Name') || attr(provider, 'name');
    list((provider.EventMetadata as Node | undefined)?.Event).forEach((event, i) => {
      if (rows.length >= IMPORT_LIMITS.maxRows) return;
      const id = text(event, 'Id').trim();
      if (!/^\d+$/.test(id)) {
        diag.add('warning', 'event without a numeric Id was skipped', i + 1);
        return;
      }
      let fields: string[] = [];
      const template = text(event, 'Template').trim();
      if (template.startsWith('<')) {
        try {
          fields = templateFields(list((parser.parse(template) as Node).template)[0]);
        } catch {
          diag.add('warning', 'a template could not be parsed', i + 1);
        }
      }
      rows.push(
        [
          id,
          os,
          text(event, 'Version').trim() || '0',
          name,
          firstLine(text(event, 'Message') || text(event, 'Description')),
          fields.join('|'),
          text(event, 'Channel').trim() || text(event, 'LogLink').trim(),
          text(event, 'Task').trim(),
          '',
          'imported: provider metadata',
        ].map((c) => cleanCell(c, diag, i + 1)),
      );
    });
  }
}
