/**
 * The output formats, one small function each: a human table (default), JSON (one array),
 * JSON lines, CSV, and Timesketch timelines as JSON lines or CSV (`message`, `datetime`,
 * `timestamp`, `timestamp_desc` first, then the row's own columns). Each yields output pieces
 * so large results stream through `Output` with back-pressure.
 */
import { type Command, Option } from 'commander';
import { clip } from '../analysis/index.js';
import { displayJson, displayLine } from '../display/index.js';
import { TaeError } from '../errors/index.js';
import type { Cell, RecordSet, Row } from './records.js';

export const FORMATS = ['table', 'json', 'jsonl', 'csv', 'timesketch', 'timesketch-csv'] as const;
export type Format = (typeof FORMATS)[number];

type Formatter = (set: RecordSet) => Iterable<string>;

const TABLE_CELL = 60;
const TABLE_LAST_CELL = 160;

/** A cell on one line, as a person may safely read it on a terminal (src/display). */
const oneLine = (c: Cell): string => (c === null ? '' : displayLine(cellText(c).replace(/\s+/g, ' ').trim()));

/** An object cell as a person reads it: `name=value; …`. */
export const cellText = (c: Exclude<Cell, null>): string =>
  typeof c === 'object'
    ? Object.entries(c)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ')
    : String(c);

/** The end of a path: its name and the folders nearest it tell files apart. */
const clipStart = (s: string, max: number): string =>
  s.length <= max ? s : `…${s.slice(s.length - max + 1)}`;

function* table(set: RecordSet): Iterable<string> {
  if (set.rows.length === 0) {
    yield `${set.empty ?? 'No results.'}\n`;
    return;
  }
  const last = set.columns.length - 1;
  const cells = set.rows.map((r) =>
    set.columns.map((c, i) => {
      const max = i === last ? TABLE_LAST_CELL : TABLE_CELL;
      const text = oneLine(r[c.key] ?? null);
      return c.path === true ? clipStart(text, max) : clip(text, max);
    }),
  );
  const widths = set.columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    `${r
      .map((s, i) => (i === last ? s : s.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}\n`;
  yield line(set.columns.map((c) => c.label));
  yield line(widths.map((w) => '-'.repeat(w)));
  for (const r of cells) yield line(r);
}

/** A row's cells in column order (JSON keys in the order of the columns). */
export const orderedRow = (columns: RecordSet['columns'], r: Row): Record<string, Cell> =>
  Object.fromEntries(columns.map((c) => [c.key, r[c.key] ?? null]));

const ordered = (set: RecordSet, r: Row): Record<string, Cell> => orderedRow(set.columns, r);

function* json(set: RecordSet): Iterable<string> {
  if (set.rows.length === 0) {
    yield '[]\n';
    return;
  }
  for (const [i, r] of set.rows.entries())
    yield `${i === 0 ? '[\n' : ',\n'}  ${displayJson(JSON.stringify(ordered(set, r)))}`;
  yield '\n]\n';
}

function* jsonl(set: RecordSet): Iterable<string> {
  for (const r of set.rows) yield `${displayJson(JSON.stringify(ordered(set, r)))}\n`;
}

/**
 * RFC 4180 quoting. `neutralise` prefixes `'` to text a spreadsheet would run as a formula
 * (=, +, -, @, tab, CR at the start, and not a plain number): event text is attacker-written.
 */
function csvCell(c: Cell, neutralise: boolean): string {
  let s = c === null ? '' : typeof c === 'object' ? JSON.stringify(c) : String(c);
  if (neutralise && /^[=+\-@\t\r]/.test(s) && !/^[+-]?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function* csvRows(keys: readonly string[], rows: Iterable<Record<string, Cell>>, neutralise: boolean) {
  yield `${keys.map((k) => csvCell(k, false)).join(',')}\n`;
  for (const r of rows) yield `${keys.map((k) => csvCell(r[k] ?? null, neutralise)).join(',')}\n`;
}

const csv: Formatter = (set) =>
  csvRows(
    set.columns.map((c) => c.key),
    set.rows.map((r) => ordered(set, r)),
    true,
  );

const TIMESKETCH_KEYS = ['message', 'datetime', 'timestamp', 'timestamp_desc'];

function* timesketchRows(set: RecordSet): Iterable<Record<string, Cell>> {
  if (set.timeline === undefined) return;
  for (const r of set.rows) {
    const p = set.timeline(r);
    if (p === undefined || !Number.isFinite(p.time)) continue;
    yield {
      message: p.message,
      datetime: new Date(p.time).toISOString(),
      timestamp: Math.round(p.time * 1000),
      timestamp_desc: p.description,
      ...Object.fromEntries(
        set.columns.filter((c) => !TIMESKETCH_KEYS.includes(c.key)).map((c) => [c.key, r[c.key] ?? null]),
      ),
    };
  }
}

function* timesketch(set: RecordSet): Iterable<string> {
  for (const r of timesketchRows(set)) yield `${displayJson(JSON.stringify(r))}\n`;
}

const timesketchCsv: Formatter = (set) =>
  csvRows(
    [...TIMESKETCH_KEYS, ...set.columns.map((c) => c.key).filter((k) => !TIMESKETCH_KEYS.includes(k))],
    timesketchRows(set),
    false,
  );

export const FORMATTERS: Readonly<Record<Format, Formatter>> = {
  table,
  json,
  jsonl,
  csv,
  timesketch,
  'timesketch-csv': timesketchCsv,
};

export interface FormatFlags {
  json?: boolean;
  jsonl?: boolean;
  csv?: boolean;
  timesketch?: boolean;
}

/** Adds --json, --jsonl, --csv (and --timesketch where rows have times) to a command. */
export function formatOptions(command: Command, options: { timesketch: boolean }): Command {
  command
    .addOption(new Option('--json', 'print one JSON array'))
    .addOption(new Option('--jsonl', 'print one JSON object per line'))
    .addOption(
      new Option(
        '--csv',
        options.timesketch ? 'print CSV (with --timesketch: a Timesketch CSV)' : 'print CSV',
      ),
    );
  if (options.timesketch)
    command.addOption(
      new Option('--timesketch', 'print a Timesketch timeline (JSON lines; with --csv, CSV)'),
    );
  return command;
}

/** The one format the flags ask for; two at once is a usage error. */
export function formatOf(flags: FormatFlags): Format {
  const chosen = (['json', 'jsonl', 'csv'] as const).filter((f) => flags[f] === true);
  if (chosen.length > 1)
    throw new TaeError(
      'INVALID_ARGUMENT',
      `choose one of --json, --jsonl, --csv (got ${chosen.map((f) => `--${f}`).join(' and ')})`,
    );
  if (flags.timesketch === true) {
    if (chosen[0] === 'json')
      throw new TaeError('INVALID_ARGUMENT', '--timesketch writes JSON lines or CSV, not --json');
    return chosen[0] === 'csv' ? 'timesketch-csv' : 'timesketch';
  }
  return chosen[0] ?? 'table';
}
