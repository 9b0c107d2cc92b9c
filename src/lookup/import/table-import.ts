/**
 * Imports rows in the lookup's own columns: CSV with a header row, or JSON (an array of
 * objects keyed by column name, or the endpoint's own `{ columns, rows }` shape).
 */
import { COLUMNS, FIELD_ALIASES, isLookupModule, type LookupModule, REQUIRED_COLUMNS } from '../columns.js';
import { cleanCell, Diagnostics, IMPORT_LIMITS, type ImportResult, tooLarge } from './common.js';
import { parseCsv } from './csv.js';

export interface TableImportOptions {
  readonly module: LookupModule;
}

function checkModule(options: unknown): LookupModule {
  const m = (options as { module?: unknown } | null)?.module;
  if (!isLookupModule(m)) throw new TypeError('options.module must be "event_id" or "file_name"');
  return m;
}

/** Header name → column index (case-insensitive; `EventID` accepted for `Event ID`). */
function headerMap(
  module: LookupModule,
  header: readonly string[],
  diag: Diagnostics,
): (number | undefined)[] | undefined {
  const cols = COLUMNS[module].map((c) => c.toLowerCase());
  const aliases = Object.fromEntries(
    Object.entries(FIELD_ALIASES[module]).map(([a, c]) => [a.toLowerCase(), c.toLowerCase()]),
  );
  const map = header.map((h) => {
    const name = h.trim().toLowerCase();
    const i = cols.indexOf(aliases[name] ?? name);
    if (i < 0) diag.add('warning', `column "${h.slice(0, 60)}" is not a ${module} column and was ignored`);
    return i < 0 ? undefined : i;
  });
  const missing = REQUIRED_COLUMNS[module].filter((c) => !map.includes(COLUMNS[module].indexOf(c)));
  if (missing.length > 0) {
    diag.add('error', `missing required column(s): ${missing.join(', ')}`);
    return undefined;
  }
  return map;
}

function toRow(
  module: LookupModule,
  values: readonly unknown[],
  map: readonly (number | undefined)[],
  diag: Diagnostics,
  record: number,
): string[] | undefined {
  const row: string[] = new Array(COLUMNS[module].length).fill('');
  values.forEach((v, i) => {
    const col = map[i];
    if (col !== undefined) row[col] = cleanCell(v, diag, record);
  });
  if ((row[0] as string) === '') {
    diag.add('warning', `record has an empty ${COLUMNS[module][0]} and was skipped`, record);
    return undefined;
  }
  return row;
}

export function importLookupCsv(text: string, options: TableImportOptions): ImportResult {
  const module = checkModule(options);
  const diag = new Diagnostics();
  if (tooLarge(text, diag)) return { module, rows: [], diagnostics: diag.done() };
  const [header, ...records] = parseCsv(text, diag);
  const map = header === undefined ? undefined : headerMap(module, header.cells, diag);
  if (header === undefined) diag.add('error', 'the input has no header row');
  const rows: string[][] = [];
  for (const r of map === undefined ? [] : records) {
    if (r.cells.length > (map as unknown[]).length)
      diag.add('warning', 'record has more cells than the header; extras ignored', r.line);
    const row = toRow(module, r.cells, map as (number | undefined)[], diag, r.line);
    if (row) rows.push(row);
  }
  return { module, rows, diagnostics: diag.done() };
}

export function importLookupJson(text: string, options: TableImportOptions): ImportResult {
  const module = checkModule(options);
  const diag = new Diagnostics();
  if (tooLarge(text, diag)) return { module, rows: [], diagnostics: diag.done() };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    diag.add('error', `not valid JSON: ${(e as Error).message.slice(0, 120)}`);
    return { module, rows: [], diagnostics: diag.done() };
  }
  const rows: string[][] = [];
  const shaped = data as { columns?: unknown; rows?: unknown };
  if (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray(shaped.columns) &&
    Array.isArray(shaped.rows)
  ) {
    const map = headerMap(module, shaped.columns.map(String), diag);
    shaped.rows.slice(0, IMPORT_LIMITS.maxRows).forEach((r, i) => {
      if (!Array.isArray(r)) {
        diag.add('warning', 'row is not an array and was skipped', i + 1);
        return;
      }
      const row = map && toRow(module, r, map, diag, i + 1);
      if (row) rows.push(row);
    });
  } else if (Array.isArray(data)) {
    const cols = COLUMNS[module];
    data.slice(0, IMPORT_LIMITS.maxRows).forEach((o, i) => {
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        diag.add('warning', 'item is not an object and was skipped', i + 1);
        return;
      }
      const keys = Object.keys(o);
      const map = headerMap(module, keys, new Diagnostics());
      if (!map) {
        diag.add('warning', `item lacks required columns (${REQUIRED_COLUMNS[module].join(', ')})`, i + 1);
        return;
      }
      const row = toRow(
        module,
        keys.map((k) => (o as Record<string, unknown>)[k]),
        map,
        diag,
        i + 1,
      );
      if (row && row.length === cols.length) rows.push(row);
    });
  } else diag.add('error', 'expected an array of objects or { columns, rows }');
  if (Array.isArray(data) && data.length > IMPORT_LIMITS.maxRows)
    diag.add('error', `more than ${IMPORT_LIMITS.maxRows} rows; the rest was ignored`);
  return { module, rows, diagnostics: diag.done() };
}
