/**
 * Datasets: the built-in tables (parsed from the shipped data modules on first use, then
 * kept), and merged datasets that append a user's imported rows to them.
 */
import { invalidOption } from '../errors/index.js';
import { COLUMNS, LOOKUP_MODULES, type LookupModule } from './columns.js';
import { EVENT_ID_TSV } from './data/event-id.js';
import { FILE_NAME_TSV } from './data/file-name.js';
import { LookupTable } from './table.js';

export type LookupRow = readonly string[];

export class LookupDataset {
  /** The tables `lookup` searches, indexed for its queries. @internal */
  readonly tables: Readonly<Record<LookupModule, LookupTable>>;

  constructor(rows: Readonly<Record<LookupModule, readonly LookupRow[]>>) {
    this.tables = {
      event_id: new LookupTable('event_id', rows.event_id),
      file_name: new LookupTable('file_name', rows.file_name),
    };
  }

  /** Row counts per module. */
  counts(): Record<LookupModule, number> {
    return { event_id: this.tables.event_id.size, file_name: this.tables.file_name.size };
  }
}

export const parseTsv = (tsv: string): LookupRow[] =>
  tsv === '' ? [] : tsv.split('\n').map((l) => l.split('\t'));

let builtin: LookupDataset | undefined;

/** The built-in reference data (built once, on first use). */
export function builtinLookupDataset(): LookupDataset {
  builtin ??= new LookupDataset({ event_id: parseTsv(EVENT_ID_TSV), file_name: parseTsv(FILE_NAME_TSV) });
  return builtin;
}

export interface CreateLookupDatasetOptions {
  /** Extra event-id rows (from an importer), in `EVENT_ID_COLUMNS` order. */
  readonly eventId?: readonly LookupRow[];
  /** Extra file-name rows (from an importer), in `FILE_NAME_COLUMNS` order. */
  readonly fileName?: readonly LookupRow[];
  /** Start from the built-in rows (default true). */
  readonly includeBuiltin?: boolean;
}

function checkRows(option: string, rows: unknown, module: LookupModule): readonly LookupRow[] {
  if (rows === undefined) return [];
  const width = COLUMNS[module].length;
  if (
    !Array.isArray(rows) ||
    !rows.every((r) => Array.isArray(r) && r.length <= width && r.every((c) => typeof c === 'string'))
  )
    throw invalidOption(option, `an array of rows, each at most ${width} strings`, rows);
  return rows as readonly LookupRow[];
}

/** Built-in rows followed by the given rows; a row identical to one already present is skipped. */
export function createLookupDataset(options: CreateLookupDatasetOptions = {}): LookupDataset {
  if (typeof options !== 'object' || options === null) throw invalidOption('options', 'an object', options);
  if (options.includeBuiltin !== undefined && typeof options.includeBuiltin !== 'boolean')
    throw invalidOption('includeBuiltin', 'a boolean', options.includeBuiltin);
  const extra: Record<LookupModule, readonly LookupRow[]> = {
    event_id: checkRows('eventId', options.eventId, 'event_id'),
    file_name: checkRows('fileName', options.fileName, 'file_name'),
  };
  const base = options.includeBuiltin === false ? undefined : builtinLookupDataset();
  const merged = {} as Record<LookupModule, LookupRow[]>;
  for (const module of LOOKUP_MODULES) {
    const width = COLUMNS[module].length;
    const rows: LookupRow[] = [...(base?.tables[module].rows ?? [])];
    const seen = new Set(rows.map((r) => r.join('\t')));
    for (const r of extra[module]) {
      const full = Array.from({ length: width }, (_, i) => r[i] ?? '');
      const key = full.join('\t');
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(full);
    }
    merged[module] = rows;
  }
  return new LookupDataset(merged);
}
