/** The search endpoint's request, its validated form and its answers. */
import type { IndexTableInsight, Insight } from '../insights/index.js';
import type { FilterOperator } from '../lookup/index.js';

/** `POST /analysis/winevtx/search` as sent (every field is checked: the body is hostile). */
export interface SearchRequest {
  readonly job_id: string;
  /** Case-insensitive, partial; '' matches every event. */
  readonly search: string;
  readonly filter?: readonly SearchFilter[];
  /** 1 to 10, default 1. */
  readonly page?: number;
  /** 1 to 100, default 10. */
  readonly show?: number;
  /** Unix ms, inclusive. */
  readonly start_time?: number;
  readonly end_time?: number;
  readonly browse_events: boolean;
}

export interface SearchFilter {
  readonly field: string;
  readonly operator: string;
  readonly value: string;
}

/** The filterable fields besides `details.<name>`. */
export const SEARCH_FIELDS = [
  'event_id',
  'record_id',
  'timestamp',
  'provider',
  'computer',
  'sigma_matches',
  'yara_matches',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** A filter's target: a fixed field, or one event-data field by exact name. */
export type FilterTarget =
  | { readonly kind: 'field'; readonly field: SearchField }
  | { readonly kind: 'details'; readonly name: string };

/** A checked filter; `value` is case-folded already. */
export interface EventFilter {
  readonly target: FilterTarget;
  readonly operator: FilterOperator;
  readonly value: string;
}

/** A checked request. Text is case-folded; the time window is inclusive Unix ms. */
export interface SearchQuery {
  readonly text: string;
  readonly filters: readonly EventFilter[];
  readonly page: number;
  readonly show: number;
  readonly start: number | null;
  readonly end: number | null;
  readonly browseEvents: boolean;
}

/** `browse_events: true`: one `Event Table` IndexTable holding the requested page. */
export interface EventTableResponse {
  readonly insights: IndexTableInsight[];
}

/** The job-status shape rebuilt for the window (`browse_events: false`). */
export interface RebuiltJobResponse {
  readonly id: string;
  readonly job_name: string;
  readonly status: 'Completed';
  readonly insights: Insight[];
}

export type SearchResponse = EventTableResponse | RebuiltJobResponse;

export const SEARCH_LIMITS = Object.freeze({
  maxPage: 10,
  maxShow: 100,
  defaultShow: 10,
  /** Characters of `search` and of a filter value. */
  maxText: 1000,
  maxFilters: 20,
  /** Characters of a `details.<name>` field name. */
  maxFieldName: 128,
});
