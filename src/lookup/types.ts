/** Request and result shapes of the lookup endpoint (`POST /analysis/lookup`). */
import type { LookupModule } from './columns.js';
import type { FilterOperator } from './filters.js';

export interface LookupFilter {
  readonly field: string;
  readonly operator: FilterOperator;
  readonly value: string;
}

export interface LookupRequest {
  readonly search: string;
  readonly module: LookupModule;
  readonly filter?: readonly LookupFilter[];
  readonly page?: number;
  readonly show?: number;
}

/** Exactly the endpoint's success body. */
export interface LookupResult {
  readonly columns: string[];
  readonly rows: string[][];
}

/** A validated request with defaults applied and filters resolved to column indexes. */
export interface LookupQuery {
  readonly module: LookupModule;
  readonly search: string;
  readonly filters: readonly {
    readonly column: number;
    readonly operator: FilterOperator;
    readonly value: string;
  }[];
  readonly page: number;
  readonly show: number;
}

export const LIMITS = {
  pageMin: 1,
  pageMax: 10,
  pageDefault: 1,
  showMin: 1,
  showMax: 100,
  showDefault: 10,
  /** Longest accepted search text and filter value, in characters. */
  maxText: 1000,
  maxFilters: 25,
} as const;
