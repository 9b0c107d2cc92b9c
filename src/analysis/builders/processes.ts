/**
 * Process Analysis: one row per executable (Sysmon 1 and Security 4688) with counts, first and
 * last seen, parents, users, sample command lines and flags (rare, LOLBin, unusual path, renamed,
 * command-line indicators), rarest first; and the flagged executions themselves, earliest first.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Samples, Span, Tally, topText } from '../aggregate.js';
import { LOLBINS, UNUSUAL_PATH } from '../extract/index.js';
import type { Fact, ProcessStart } from '../facts.js';
import { basename, cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder } from '../types.js';

interface ImageStats {
  image: string;
  span: Span;
  parents: Tally;
  users: Tally;
  computers: Tally;
  commandLines: Samples;
  records: Samples;
  renamedFrom: Samples;
  indicators: Tally;
}

interface Execution {
  time: number;
  recordId: number;
  row: string[];
}

export const PROCESS_COLUMNS = [
  'Image',
  'Executions',
  'First Seen',
  'Last Seen',
  'Parents',
  'Users',
  'Computers',
  'Sample Command Lines',
  'Flags',
  'Records',
] as const;
export const EXECUTION_COLUMNS = [
  'Time',
  'Computer',
  'User',
  'Image',
  'Command Line',
  'Parent',
  'Flags',
  'Record',
] as const;

/** An image run once is rare only when the log holds enough executions to compare with. */
export const RARE_MIN_EXECUTIONS = 20;
const MAX_ROWS = 1000;
const MAX_EXECUTIONS = 200;

const stem = (name: string): string => name.toLowerCase().replace(/\.(exe|com|dll|bat|cmd|scr)$/, '');

/** Sysmon's OriginalFileName differs from the file name: the binary was renamed. */
function renamedFrom(f: ProcessStart): string {
  const original = f.originalFileName;
  if (original === '' || original === '?' || /\.mui$/i.test(original)) return '';
  return stem(original) === stem(basename(f.image)) ? '' : original;
}

export class ProcessesBuilder implements Builder {
  readonly resultType = 'Process Analysis' as const;
  readonly consumes = ['processStart'] as const;
  private readonly images = new Groups<ImageStats>(GROUPS_PER_TABLE);
  private total = 0;
  private readonly executions: Execution[] = [];

  consume(f: Fact): void {
    if (f.kind !== 'processStart') return;
    if (!f.twin) this.total++;
    const image = f.image || '(unknown)';
    const g = this.images.get(image.toLowerCase(), () => ({
      image,
      span: new Span(),
      parents: new Tally(50),
      users: new Tally(50),
      computers: new Tally(20),
      commandLines: new Samples(3),
      records: new Samples(3),
      renamedFrom: new Samples(2),
      indicators: new Tally(20),
    }));
    if (g === undefined) return;
    g.records.add(f.ref);
    // The same creation logged by the other source: only its record reference is kept.
    if (f.twin) return;
    g.span.add(f.time, f.recordId);
    g.parents.add(
      f.parentImage ? basename(f.parentImage) : f.parentPid === null ? 'unknown' : `pid ${f.parentPid}`,
    );
    if (f.user) g.users.add(f.user);
    if (f.computer) g.computers.add(f.computer);
    g.commandLines.add(oneLine(f.commandLine, 300));
    const renamed = renamedFrom(f);
    g.renamedFrom.add(renamed);
    for (const i of f.indicators) g.indicators.add(i.label);
    this.execution(f, renamed);
  }

  /** Keeps the earliest MAX_EXECUTIONS flagged executions, whatever order events arrive in. */
  private execution(f: ProcessStart, renamed: string): void {
    const flags = [
      ...f.indicators.map((i) => i.label),
      UNUSUAL_PATH.test(f.image) ? 'Unusual path' : '',
      renamed ? `Renamed (${renamed})` : '',
    ].filter(Boolean);
    if (flags.length === 0 || !Number.isFinite(f.time)) return;
    const list = this.executions;
    const last = list[list.length - 1];
    if (
      list.length >= MAX_EXECUTIONS &&
      last !== undefined &&
      (f.time > last.time || (f.time === last.time && f.recordId >= last.recordId))
    )
      return;
    const row = [
      formatTime(f.time),
      oneLine(f.computer, 200),
      oneLine(f.user, 200) || '-',
      oneLine(f.image, 500),
      oneLine(f.commandLine, 500) || '-',
      oneLine(f.parentImage, 500) || (f.parentPid === null ? '-' : `pid ${f.parentPid}`),
      flags.join(', '),
      f.ref,
    ];
    let i = list.length;
    while (
      i > 0 &&
      (list[i - 1]!.time > f.time || (list[i - 1]!.time === f.time && list[i - 1]!.recordId > f.recordId))
    )
      i--;
    list.splice(i, 0, { time: f.time, recordId: f.recordId, row });
    if (list.length > MAX_EXECUTIONS) list.pop();
  }

  finish(): Insight[] {
    const stats = [...this.images.map.values()].sort(
      (a, b) => a.span.count - b.span.count || (a.image.toLowerCase() < b.image.toLowerCase() ? -1 : 1),
    );
    const rows = stats.slice(0, MAX_ROWS).map((g) => {
      const flags = [
        g.span.count === 1 && this.total >= RARE_MIN_EXECUTIONS ? 'Rare' : '',
        LOLBINS.has(basename(g.image).toLowerCase()) ? 'LOLBin' : '',
        UNUSUAL_PATH.test(g.image) ? 'Unusual path' : '',
        ...g.renamedFrom.items.map((r) => `Renamed (${r})`),
        ...g.indicators.top(5).map(([label]) => label),
      ].filter(Boolean);
      return [
        oneLine(g.image, 500),
        String(g.span.count),
        formatTime(g.span.first),
        formatTime(g.span.last),
        topText(g.parents, 3),
        topText(g.users, 3) || '-',
        topText(g.computers, 3) || '-',
        g.commandLines.items.join('\n') || '-',
        flags.join(', ') || '-',
        g.records.items.join(', '),
      ];
    });
    return [
      tableInsight('Process Analysis', PROCESS_COLUMNS, cleanRows(rows), 'Process'),
      tableInsight(
        'Process Analysis: Notable Executions',
        EXECUTION_COLUMNS,
        cleanRows(this.executions.map((x) => x.row)),
        'Process',
      ),
    ];
  }
}
