/** `POST /analysis/lookup` as a function: validate, match, rank, page. */
import { checkOptionKeys, invalidOption } from '../errors/index.js';
import { builtinLookupDataset, LookupDataset } from './dataset.js';
import type { LookupRequest, LookupResult } from './types.js';
import { validateLookupRequest } from './validate.js';

export interface LookupOptions {
  /** The data to search (default: the built-in dataset). */
  readonly dataset?: LookupDataset;
}

const KNOWN_OPTIONS: Record<keyof LookupOptions, true> = { dataset: true };

/**
 * Looks up event ids or Windows file names (`POST /analysis/lookup` as a function). `request` is
 * the endpoint body, checked at run time (it is untrusted). Rejects with `TaeError` 400 `Unknown
 * lookup module` or 422 `Validation failed` (plain-text bodies). A page past the last result
 * resolves to the columns and no rows. Async like the library's other front-door functions.
 *
 * @example
 * const { columns, rows } = await lookup({ search: '4625', module: 'event_id' });
 * console.log(columns, rows[0]);
 */
export async function lookup(request: LookupRequest, options: LookupOptions = {}): Promise<LookupResult> {
  return lookupSync(request, options);
}

/** `lookup` at once, for the Engine's endpoint and the CLI. */
export function lookupSync(request: LookupRequest, options: LookupOptions = {}): LookupResult {
  checkOptionKeys(options, KNOWN_OPTIONS);
  if (options.dataset !== undefined && !(options.dataset instanceof LookupDataset))
    throw invalidOption('dataset', 'a LookupDataset (createLookupDataset)', options.dataset);
  const query = validateLookupRequest(request);
  const table = (options.dataset ?? builtinLookupDataset()).tables[query.module];
  const start = (query.page - 1) * query.show;
  const rows = table
    .match(query)
    .slice(start, start + query.show)
    .map((i) => [...(table.rows[i] as readonly string[])]);
  return { columns: [...table.columns], rows };
}
