/**
 * Turns an untrusted request body into a `LookupQuery`, or throws the endpoint's errors:
 * 400 `Unknown lookup module` for a module string we do not serve, 422 `Validation failed`
 * for anything else malformed. Both bodies are plain text, as the spec prescribes for lookup.
 */
import { TaeError } from '../errors/index.js';
import { columnIndex, isLookupModule, type LookupModule } from './columns.js';
import { isFilterOperator } from './filters.js';
import { LIMITS, type LookupQuery } from './types.js';

export const UNKNOWN_MODULE_MESSAGE = 'Unknown lookup module';
export const VALIDATION_FAILED_MESSAGE = 'Validation failed';

function invalid(field: string, reason: string): TaeError {
  return new TaeError('VALIDATION_FAILED', VALIDATION_FAILED_MESSAGE, {
    bodyFormat: 'text',
    context: { field, reason },
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// Search text is matched against cells joined with a control character, so none may appear in it.
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  if (value.length > LIMITS.maxText) throw invalid(field, `must be at most ${LIMITS.maxText} characters`);
  if (CONTROL.test(value)) throw invalid(field, 'must not contain control characters');
  return value;
}

function bounded(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw invalid(field, `must be an integer from ${min} to ${max}`);
  return value;
}

function filters(value: unknown, module: LookupModule): LookupQuery['filters'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('filter', 'must be an array of filter objects');
  if (value.length > LIMITS.maxFilters)
    throw invalid('filter', `must hold at most ${LIMITS.maxFilters} filters`);
  return value.map((f: unknown, i) => {
    if (!isRecord(f)) throw invalid(`filter[${i}]`, 'must be an object');
    if (typeof f.field !== 'string') throw invalid(`filter[${i}].field`, 'must be a string');
    const column = columnIndex(module, f.field);
    if (column < 0) throw invalid(`filter[${i}].field`, `is not a column of ${module}`);
    if (!isFilterOperator(f.operator)) throw invalid(`filter[${i}].operator`, 'is not a known operator');
    return { column, operator: f.operator, value: text(f.value, `filter[${i}].value`).toLowerCase() };
  });
}

export function validateLookupRequest(body: unknown): LookupQuery {
  if (!isRecord(body)) throw invalid('body', 'must be a JSON object');
  const module = body.module;
  if (typeof module !== 'string') throw invalid('module', 'is required and must be a string');
  if (!isLookupModule(module))
    throw new TaeError('INVALID_ARGUMENT', UNKNOWN_MODULE_MESSAGE, {
      status: 400,
      bodyFormat: 'text',
      context: { field: 'module', got: module.slice(0, 40) },
    });
  const search = text(body.search, 'search');
  const filter = filters(body.filter, module);
  if (search.trim() === '' && filter.length === 0)
    throw invalid('search', 'may be empty only when filters are given');
  return {
    module,
    search: search.trim().toLowerCase(),
    filters: filter,
    page: bounded(body.page, 'page', LIMITS.pageMin, LIMITS.pageMax, LIMITS.pageDefault),
    show: bounded(body.show, 'show', LIMITS.showMin, LIMITS.showMax, LIMITS.showDefault),
  };
}
