/**
 * The graph's processes as a table beside it (`Process Inference Graph: Processes`): one row per
 * process the graph resolved (up to PROCESSES_PER_HOST a host), with its host, its id (as `_stats_original_nodes` and the
 * summaries name it), its parent's id ('' for a root) and what a person needs to read a tree
 * of them: image, pid, user, command line, start and record. Parents come before children.
 * The optimised DOT summarises across the whole case; this keeps every parent link, so a reader (the report's per-host
 * process tree) can draw one host's tree whole and summarise inside it.
 */
import { type Insight, tableInsight } from '../../../insights/index.js';
import { cleanCell, cleanRows, formatTime } from '../../text.js';
import type { Instance } from './resolve.js';

export const PROCESSES_TITLE = 'Process Inference Graph: Processes';
/**
 * Processes listed per host, the first in tree order (so every listed parent is listed): a
 * reader draws one host's tree from them, and a host with more is summarised by the graph. With
 * every process the 1 GB bench job's table had 49,857 rows, 12.7 MB of its 26 MB result, which
 * the job's process held several times over while storing and writing it (its peak went from
 * 523–530 to 534–588 MiB).
 */
export const PROCESSES_PER_HOST = 1000;
/** A command line's characters here, as the graph keeps them (the report shows 100). */
export const PROCESS_COMMAND_CHARS = 200;
export const PROCESSES_COLUMNS = [
  'Computer',
  'Process',
  'Parent',
  'Image',
  'PID',
  'User',
  'Command Line',
  'Start',
  'Record',
] as const;

/**
 * Every process, each root (in start order) followed by its descendants depth first, so a parent
 * always comes before its children, inferred parents too (which are made after them).
 */
function parentsFirst(instances: readonly Instance[]): Instance[] {
  const byIdx = (a: Instance, b: Instance) => a.idx - b.idx;
  const out: Instance[] = [];
  const stack = instances
    .filter((i) => i.parent === null)
    .sort(byIdx)
    .reverse();
  while (stack.length > 0) {
    const i = stack.pop()!;
    out.push(i);
    stack.push(...[...i.children].sort(byIdx).reverse());
  }
  return out;
}

export function processesInsight(
  instances: readonly Instance[],
  ids: ReadonlyMap<Instance, string>,
): Insight {
  const listed = new Map<string, number>();
  const kept = parentsFirst(instances).filter((i) => {
    const n = listed.get(i.computer) ?? 0;
    listed.set(i.computer, n + 1);
    return n < PROCESSES_PER_HOST;
  });
  const rows = kept.map((i) => [
    i.computer,
    ids.get(i) ?? '',
    i.parent === null ? '' : (ids.get(i.parent) ?? ''),
    i.image,
    i.pid === null ? '' : String(i.pid),
    i.user,
    cleanCell(i.commandLine, PROCESS_COMMAND_CHARS),
    Number.isFinite(i.start) ? formatTime(i.start) : '',
    i.inferred ? 'inferred' : (i.refs[0] ?? String(i.recordId)),
  ]);
  return tableInsight(PROCESSES_TITLE, PROCESSES_COLUMNS, cleanRows(rows), 'Process');
}
