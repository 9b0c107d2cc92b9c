/**
 * `test_data` of the Sigma data endpoint: base64 of JSON (one object, an array, or a stream
 * of values: JSON lines, or pretty-printed objects one after the other as `jq` prints them;
 * flat, nested, or the evtx crate's event shape) or of event-log XML, turned into events.
 * Nesting deeper than MAX_DATA_DEPTH is refused here, before any walk of the data.
 */
import { base64ByteLength, cleanBase64, decodeBase64 } from '../../base64/index.js';
import { TaeError } from '../../errors/index.js';
import { type EvtxEvent, toEvent } from '../../evtx/index.js';
import { MAX_DATA_DEPTH } from '../limits.js';
import { eventJsonToNodes, isEventJson } from './json-event.js';
import { parseJsonStream } from './json-stream.js';
import { xmlEvents } from './xml.js';

/** Decoded size above which test data is refused (the spec leaves the maximum open). */
export const MAX_TEST_DATA_BYTES = 10 * 1024 * 1024;
export const MAX_TEST_EVENTS = 100_000;

export type TestRecord =
  /** Event-log data (XML or the crate's JSON): resolved like a decoded EVTX record. */
  | { readonly kind: 'eventlog'; readonly event: EvtxEvent }
  /** A JSON object whose values are all scalars or lists of scalars. */
  | { readonly kind: 'flat'; readonly object: Readonly<Record<string, unknown>> }
  /** Any other JSON object: its leaves are addressed by dotted paths. */
  | { readonly kind: 'nested'; readonly object: Readonly<Record<string, unknown>> };

const invalid = (why: string) =>
  new TaeError('INVALID_ARGUMENT', 'Invalid test data format', { bodyFormat: 'text', context: { why } });

/** A `rule` or `test_data` field decoding past MAX_TEST_DATA_BYTES. */
export const tooLarge = (what: 'rule' | 'test_data'): TaeError =>
  new TaeError('TOO_LARGE', `${what} exceeds ${MAX_TEST_DATA_BYTES / 1024 / 1024} MB`, {
    bodyFormat: 'text',
  });

/**
 * Test data is read leniently (bad bytes become U+FFFD), as the CLI reads a data file: it is
 * evidence to match, unlike a rule (base64's decodeRuleText), whose bytes must mean one thing.
 */
function decodeTestData(value: unknown): string | undefined {
  const clean = cleanBase64(value);
  if (clean === null) return undefined;
  if (base64ByteLength(clean) > MAX_TEST_DATA_BYTES) throw tooLarge('test_data');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(decodeBase64(clean));
  return text.replace(/^\uFEFF/, '');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function classify(value: unknown, index: number): TestRecord {
  if (!isPlainObject(value)) throw invalid(`element ${index} is not a JSON object`);
  if (isEventJson(value)) return { kind: 'eventlog', event: toEvent(eventJsonToNodes(value), index + 1) };
  const nested = Object.values(value).some(
    (v) => isPlainObject(v) || (Array.isArray(v) && v.some((e) => e !== null && typeof e === 'object')),
  );
  return nested ? { kind: 'nested', object: value } : { kind: 'flat', object: value };
}

/** The events of a JSON stream; a top-level array stands for its elements. */
function parseJson(text: string): unknown[] {
  const stream = parseJsonStream(text, MAX_DATA_DEPTH, MAX_TEST_EVENTS);
  if (!stream.ok) throw invalid(stream.why);
  return stream.values.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

export function parseTestData(testData: unknown): TestRecord[] {
  const text = decodeTestData(testData);
  if (text === undefined) throw invalid('test_data must be a base64 string');
  return parseTestText(text);
}

/** Events from JSON or event-log XML text (a file the CLI read, or decoded `test_data`). */
export function parseTestText(text: string): TestRecord[] {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw invalid('test_data is empty');
  let records: TestRecord[];
  if (trimmed.startsWith('<')) {
    const parsed = xmlEvents(trimmed);
    if (!parsed.ok) throw invalid(parsed.why);
    const events = parsed.events;
    if (events.length === 0) throw invalid('XML without Event elements');
    if (events.length > MAX_TEST_EVENTS) throw invalid(`more than ${MAX_TEST_EVENTS} events`);
    records = events.map((e, i) => ({ kind: 'eventlog', event: toEvent([e], i + 1) }));
  } else {
    const values = parseJson(trimmed);
    if (values.length === 0) throw invalid('no events');
    if (values.length > MAX_TEST_EVENTS) throw invalid(`more than ${MAX_TEST_EVENTS} events`);
    records = values.map(classify);
  }
  return records;
}
