/**
 * An in-memory lookup table: rows plus their lower-cased text, prepared once, so a query is a
 * linear scan of short strings (about 1,800 rows: well under a millisecond).
 */
import { COLUMNS, type LookupModule } from './columns.js';
import { OPERATOR_TESTS } from './filters.js';
import type { LookupQuery } from './types.js';

const SEP = '\u001f';
const NUMERIC = /^\d+$/;

export class LookupTable {
  readonly module: LookupModule;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  private readonly lowerCells: readonly (readonly string[])[];
  private readonly lowerText: readonly string[];

  constructor(module: LookupModule, rows: readonly (readonly string[])[]) {
    this.module = module;
    this.columns = COLUMNS[module];
    const width = this.columns.length;
    this.rows = rows.map((r) => Object.freeze(Array.from({ length: width }, (_, i) => r[i] ?? '')));
    this.lowerCells = this.rows.map((r) => r.map((c) => c.toLowerCase()));
    this.lowerText = this.lowerCells.map((r) => r.join(SEP));
  }

  get size(): number {
    return this.rows.length;
  }

  /** Row indexes matching the query, best first (rank, then table order). */
  match(query: LookupQuery): number[] {
    const ranked: { index: number; rank: number }[] = [];
    for (let i = 0; i < this.rows.length; i++) {
      const cells = this.lowerCells[i] as readonly string[];
      if (!query.filters.every((f) => OPERATOR_TESTS[f.operator](cells[f.column] as string, f.value)))
        continue;
      const rank = this.rank(query.search, cells, this.lowerText[i] as string);
      if (rank >= 0) ranked.push({ index: i, rank });
    }
    ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
    return ranked.map((r) => r.index);
  }

  /**
   * 0 exact key, 1 key prefix, 2 key substring, 3 any other field; -1 no match. The key is the
   * Event ID (a numeric search on event_id matches only that column) or the File Name.
   */
  private rank(search: string, cells: readonly string[], text: string): number {
    if (search === '') return 3;
    const key = cells[0] as string;
    if (key === search) return 0;
    if (key.startsWith(search)) return 1;
    if (key.includes(search)) return 2;
    if (this.module === 'event_id' && NUMERIC.test(search)) return -1;
    return text.includes(search) ? 3 : -1;
  }
}
