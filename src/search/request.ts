/**
 * Checking a search request body (hostile until checked). The outcome says which of the
 * endpoint's 400s applies: `time_range` (the spec's `Invalid time range`: a bound that is not
 * a non-negative integer, or start after end) or `invalid` (any other malformed field, with
 * details). `job_id` is left to the caller, which answers for unknown jobs.
 */
import { FILTER_OPERATORS, type FilterOperator } from '../lookup/index.js';
import { fold, SEPARATOR } from '../rows/index.js';
import {
  type EventFilter,
  type FilterTarget,
  SEARCH_FIELDS,
  SEARCH_LIMITS,
  type SearchField,
  type SearchQuery,
} from './types.js';

export type CheckedSearch =
  | { readonly ok: true; readonly query: SearchQuery }
  | { readonly ok: false; readonly problem: 'time_range' | 'invalid'; readonly details: string };

/** Event-data names: XML name characters, `[`/`]` (unnamed `Data[0]`), spaces; never `"` or `\`. */
const DETAIL_NAME = /^[A-Za-z0-9_.:\-[\] ]+$/;

class Invalid extends Error {
  constructor(
    readonly problem: 'time_range' | 'invalid',
    readonly details: string,
  ) {
    super(details);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

function text(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new Invalid('invalid', `${field} must be a string`);
  if (v.length > SEARCH_LIMITS.maxText)
    throw new Invalid('invalid', `${field} must be at most ${SEARCH_LIMITS.maxText} characters`);
  if (v.includes('\u0000') || v.includes(SEPARATOR))
    throw new Invalid('invalid', `${field} must not contain U+0000 or U+001F`);
  return fold(v);
}

function bounded(v: unknown, field: string, max: number, fallback: number): number {
  if (absent(v)) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
    throw new Invalid('invalid', `${field} must be an integer from 1 to ${max}`);
  return v;
}

function time(v: unknown, field: string): number | null {
  if (absent(v)) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new Invalid('time_range', `${field} must be a non-negative integer (Unix ms)`);
  return v;
}

function target(field: unknown, at: string): FilterTarget {
  if (typeof field !== 'string') throw new Invalid('invalid', `${at}.field must be a string`);
  if ((SEARCH_FIELDS as readonly string[]).includes(field))
    return { kind: 'field', field: field as SearchField };
  if (field.startsWith('details.')) {
    const name = field.slice('details.'.length);
    if (name.length >= 1 && name.length <= SEARCH_LIMITS.maxFieldName && DETAIL_NAME.test(name))
      return { kind: 'details', name };
  }
  throw new Invalid(
    'invalid',
    `${at}.field must be one of ${SEARCH_FIELDS.join(', ')} or details.<name> (letters, digits, _ . : - [ ] and spaces, at most ${SEARCH_LIMITS.maxFieldName})`,
  );
}

function filters(v: unknown): EventFilter[] {
  if (absent(v)) return [];
  if (!Array.isArray(v)) throw new Invalid('invalid', 'filter must be an array of filter objects');
  if (v.length > SEARCH_LIMITS.maxFilters)
    throw new Invalid('invalid', `filter must hold at most ${SEARCH_LIMITS.maxFilters} filters`);
  return v.map((f: unknown, i): EventFilter => {
    const at = `filter[${i}]`;
    if (!isRecord(f)) throw new Invalid('invalid', `${at} must be an object`);
    const t = target(f.field, at);
    if (!(FILTER_OPERATORS as readonly unknown[]).includes(f.operator))
      throw new Invalid('invalid', `${at}.operator must be one of ${FILTER_OPERATORS.join(', ')}`);
    return { target: t, operator: f.operator as FilterOperator, value: text(f.value, `${at}.value`) };
  });
}

export function checkSearchRequest(body: unknown): CheckedSearch {
  try {
    if (!isRecord(body)) throw new Invalid('invalid', 'the body must be a JSON object');
    const query: SearchQuery = {
      text: text(body.search, 'search'),
      filters: filters(body.filter),
      page: bounded(body.page, 'page', SEARCH_LIMITS.maxPage, 1),
      show: bounded(body.show, 'show', SEARCH_LIMITS.maxShow, SEARCH_LIMITS.defaultShow),
      browseEvents: browse(body.browse_events),
      start: time(body.start_time, 'start_time'),
      end: time(body.end_time, 'end_time'),
    };
    if (query.start !== null && query.end !== null && query.start > query.end)
      throw new Invalid('time_range', 'start_time is after end_time');
    return { ok: true, query };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, problem: e.problem, details: e.details };
    throw e;
  }
}

function browse(v: unknown): boolean {
  if (typeof v !== 'boolean') throw new Invalid('invalid', 'browse_events must be a boolean');
  return v;
}
