/**
 * The graph's processes as a table beside it (`Process Inference Graph: Processes`): one row per
 * process the graph resolved, with its host, its id (as `_stats_original_nodes` and the
 * summaries name it), its parent's id ('' for a root) and what a person needs to read a tree
 * of them: image, pid, user, command line, start and record. Parents come before children. The optimised DOT summarises
 * across the whole case; this keeps every parent link, so a reader (the report's per-host
 * process tree) can draw one host's tree whole and summarise inside it.
 */
import { type Insight, tableInsight } from '../../../insights/index.js';
import { cleanRows, formatTime } from '../../text.js';
import type { Instance } from './resolve.js';

export const PROCESSES_TITLE = 'Process Inference Graph: Processes';
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
  const rows = parentsFirst(instances).map((i) => [
    i.computer,
    ids.get(i) ?? '',
    i.parent === null ? '' : (ids.get(i.parent) ?? ''),
    i.image,
    i.pid === null ? '' : String(i.pid),
    i.user,
    i.commandLine,
    Number.isFinite(i.start) ? formatTime(i.start) : '',
    i.inferred ? 'inferred' : (i.refs[0] ?? String(i.recordId)),
  ]);
  return tableInsight(PROCESSES_TITLE, PROCESSES_COLUMNS, cleanRows(rows), 'Process');
}
