/**
 * Triage controls shared by `tae analyze` and `tae sigma`: which rules run (`--min-level`,
 * `--status`, `--include-rule`, `--exclude-rule`, `--exclude-file`) and which events are
 * evaluated (`--from`, `--to`, `--computer`). Flags are checked once here (a bad value is a
 * usage error naming its flag); the rule choice is applied once, where sigma-rules.ts selects
 * the rule set, so both commands filter alike.
 *
 * The status default follows Hayabusa: deprecated and unsupported rules are left out, stable,
 * test and experimental ones (and rules without a status) run. Chainsaw runs every status by
 * default; `--status all` gives that.
 */
import { type Command, Option } from 'commander';
import { isTaeError } from '../errors/index.js';
import { readRuleInput } from '../rules/index.js';
import {
  LEVELS,
  type LoadResult,
  type SigmaCorrelation,
  type SigmaLevel,
  type SigmaRule,
  type SigmaStatus,
  STATUSES,
} from '../sigma/index.js';
import { collect, usage } from './common.js';

export const DEFAULT_STATUSES: readonly SigmaStatus[] = ['stable', 'test', 'experimental'];
const MAX_EXCLUDE_LINES = 100_000;

export interface TriageFlags {
  minLevel?: string;
  status?: string;
  includeRule?: string[];
  excludeRule?: string[];
  excludeFile?: string[];
  from?: string;
  to?: string;
  computer?: string[];
  profileRules?: boolean;
}

/** Which rules run: `undefined` fields do not filter. */
export interface RuleChoice {
  readonly minLevel?: SigmaLevel;
  /** Statuses that run; rules without a status always run. */
  readonly statuses: ReadonlySet<SigmaStatus>;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

/** Which events are evaluated; times in Unix ms, both ends included. */
export interface EventWindow {
  readonly from?: number;
  readonly to?: number;
  /** Computer names, lower-cased. */
  readonly computers?: ReadonlySet<string>;
}

export function triageOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--min-level <level>', 'run only rules at or above this level').choices([...LEVELS]),
    )
    .option(
      '--status <list>',
      `rule statuses to run, comma-separated, or all (default: ${DEFAULT_STATUSES.join(',')}; deprecated and unsupported are left out)`,
    )
    .option(
      '--include-rule <id|tag|file>',
      'run only rules with this id, tag or file name (repeatable)',
      collect,
    )
    .option(
      '--exclude-rule <id|tag|file>',
      'do not run rules with this id, tag or file name (repeatable)',
      collect,
    )
    .option(
      '--exclude-file <file>',
      'rules to exclude, one id, tag or file name a line, # comments (repeatable)',
      collect,
    )
    .option('--from <time>', 'evaluate only events at or after this time (ISO 8601 or Unix ms)')
    .option('--to <time>', 'evaluate only events at or before this time (ISO 8601 or Unix ms)')
    .option('--computer <name>', 'evaluate only events of this computer, any case (repeatable)', collect)
    .option('--profile-rules', "print each rule's evaluation time and matches on stderr, slowest first");
}

function statusesOf(value: string | undefined): ReadonlySet<SigmaStatus> {
  if (value === undefined) return new Set(DEFAULT_STATUSES);
  const words = value.split(',').map((w) => w.trim().toLowerCase());
  if (words.length === 1 && words[0] === 'all') return new Set(STATUSES);
  const bad = words.find((w) => !(STATUSES as readonly string[]).includes(w));
  if (bad !== undefined)
    throw usage(
      `--status must be a comma-separated list of ${STATUSES.join(', ')}, or all (got ${JSON.stringify(bad)})`,
    );
  return new Set(words as SigmaStatus[]);
}

function excludeFileEntries(path: string): string[] {
  let text: string;
  try {
    text = readRuleInput(path, 'exclude file');
  } catch (e) {
    throw usage(`--exclude-file: cannot read ${path}: ${isTaeError(e) ? e.context.reason : String(e)}`);
  }
  const lines = text.split(/\r?\n/);
  if (lines.length > MAX_EXCLUDE_LINES)
    throw usage(`--exclude-file: ${path} has more than ${MAX_EXCLUDE_LINES} lines`);
  return lines.map((l) => l.replace(/#.*/, '').trim()).filter((l) => l !== '');
}

function entries(flag: string, values: readonly string[] | undefined): string[] {
  const out = (values ?? []).map((v) => v.trim());
  if (out.some((v) => v === '')) throw usage(`${flag} needs a rule id, tag or file name`);
  return out;
}

export function ruleChoiceOf(flags: TriageFlags): RuleChoice {
  const level = flags.minLevel;
  if (level !== undefined && !(LEVELS as readonly string[]).includes(level))
    throw usage(`--min-level must be one of ${LEVELS.join(', ')} (got ${JSON.stringify(level)})`);
  return {
    ...(level === undefined ? {} : { minLevel: level as SigmaLevel }),
    statuses: statusesOf(flags.status),
    include: entries('--include-rule', flags.includeRule),
    exclude: [
      ...entries('--exclude-rule', flags.excludeRule),
      ...(flags.excludeFile ?? []).flatMap(excludeFileEntries),
    ],
  };
}

/** ISO 8601 with a date (a time without a zone is UTC), or Unix milliseconds. */
export function timeFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let ms = Number.NaN;
  if (/^\d{1,15}$/.test(v)) ms = Number(v);
  else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(v)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(v) || v.length === 10 ? v : `${v}Z`;
    ms = Date.parse(zoned.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1'));
    const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
    if (new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d || m < 1 || m > 12) ms = Number.NaN; // 2026-02-30
  }
  if (!Number.isFinite(ms))
    throw usage(
      `${flag} must be an ISO 8601 time (2024-05-01T12:00:00Z) or Unix milliseconds (got ${JSON.stringify(value)})`,
    );
  return ms;
}

export function eventWindowOf(flags: TriageFlags): EventWindow {
  const from = timeFlag('--from', flags.from);
  const to = timeFlag('--to', flags.to);
  if (from !== undefined && to !== undefined && from > to) throw usage('--from must not be after --to');
  const names = entries('--computer', flags.computer).map((c) => c.toLowerCase());
  return {
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(names.length > 0 ? { computers: new Set(names) } : {}),
  };
}

/** Whether an event is evaluated; an event without a time is outside any window. */
export function inWindow(
  w: EventWindow,
  timestamp: number | undefined,
  computer: string | undefined,
): boolean {
  if (w.from !== undefined || w.to !== undefined) {
    if (timestamp === undefined || !Number.isFinite(timestamp)) return false;
    if (w.from !== undefined && timestamp < w.from) return false;
    if (w.to !== undefined && timestamp > w.to) return false;
  }
  return w.computers === undefined || w.computers.has((computer ?? '').toLowerCase());
}

const fileName = (source: string) =>
  source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf(':')) + 1);

/** An entry names a rule by id, tag or file (the file name, with or without .yml, or its path's end). */
function names(entry: string, doc: SigmaRule | SigmaCorrelation): boolean {
  const e = entry.toLowerCase();
  if (doc.id?.toLowerCase() === e) return true;
  if (doc.tags.some((t) => t.toLowerCase() === e)) return true;
  const source = doc.source.toLowerCase();
  const file = fileName(source);
  return file === e || file.replace(/\.ya?ml$/, '') === e || (e.includes('/') && source.endsWith(e));
}

function chosen(choice: RuleChoice, doc: SigmaRule | SigmaCorrelation): boolean {
  if (choice.minLevel !== undefined) {
    if (doc.level === undefined || LEVELS.indexOf(doc.level) < LEVELS.indexOf(choice.minLevel)) return false;
  }
  if (doc.status !== undefined && !choice.statuses.has(doc.status)) return false;
  if (choice.include.length > 0 && !choice.include.some((e) => names(e, doc))) return false;
  return !choice.exclude.some((e) => names(e, doc));
}

/** The loaded documents the choice keeps (filters are kept: they only narrow the rules they name). */
export function chooseRules(loaded: LoadResult, choice: RuleChoice): LoadResult {
  return {
    rules: loaded.rules.filter((r) => chosen(choice, r)),
    correlations: loaded.correlations.filter((c) => chosen(choice, c)),
    filters: loaded.filters,
    diagnostics: loaded.diagnostics,
  };
}
