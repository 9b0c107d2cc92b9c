/**
 * Graph optimisation: keeps a process graph readable (at most `maxNodes` nodes) by replacing
 * original nodes with summary nodes, in stages that lose the least first. Each stage runs only
 * while the graph is still too large:
 *   1. repeated leaf siblings (same parent, same image) become one summary;
 *   2. repeated siblings with children merge too, their children pooled and merged again;
 *   3. below the deepest level that still fits, each subtree becomes one summary;
 *   4. each host's processes become one summary (and the smallest hosts one more).
 * A summary lists every original process it stands for.
 */
import { basename } from '../../text.js';
import type { Instance } from './resolve.js';

export interface GraphNode {
  /** Original instances this node stands for (one for a process node). */
  members: Instance[];
  summary: boolean;
  children: GraphNode[];
}

/** One host's forest: the processes without a known parent are its roots. */
export interface HostForest {
  computer: string;
  roots: GraphNode[];
}

const imageOf = (n: GraphNode): string => basename(n.members[0]?.image ?? '').toLowerCase() || '?';

function countNodes(nodes: readonly GraphNode[]): number {
  let n = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const x = stack.pop()!;
    n++;
    for (const c of x.children) stack.push(c);
  }
  return n;
}

const total = (forests: readonly HostForest[]): number =>
  forests.reduce((s, f) => s + countNodes(f.roots), 0);

function merge(group: GraphNode[]): GraphNode {
  return {
    members: group.flatMap((g) => g.members),
    summary: true,
    children: group.flatMap((g) => g.children),
  };
}

/** Siblings grouped by image, in first-seen order; groups of two or more become summaries. */
function mergeSiblings(nodes: GraphNode[], leavesOnly: boolean): GraphNode[] {
  const groups = new Map<string, GraphNode[]>();
  const order: (GraphNode | string)[] = [];
  for (const n of nodes) {
    if (leavesOnly && n.children.length > 0) {
      order.push(n);
      continue;
    }
    const k = imageOf(n);
    const g = groups.get(k);
    if (g === undefined) {
      groups.set(k, [n]);
      order.push(k);
    } else g.push(n);
  }
  return order.map((o) => {
    if (typeof o !== 'string') return o;
    const g = groups.get(o)!;
    return g.length === 1 ? g[0]! : merge(g);
  });
}

// Iterative walks throughout: a hostile log can chain processes tens of thousands deep.
function stageSiblings(forests: HostForest[], leavesOnly: boolean): void {
  for (const f of forests) {
    f.roots = mergeSiblings(f.roots, leavesOnly);
    const stack = [...f.roots];
    while (stack.length > 0) {
      const n = stack.pop()!;
      n.children = mergeSiblings(n.children, leavesOnly);
      for (const c of n.children) stack.push(c);
    }
  }
}

function collapse(n: GraphNode): GraphNode {
  const members: Instance[] = [];
  const stack = [...n.children];
  while (stack.length > 0) {
    const x = stack.pop()!;
    for (const m of x.members) members.push(m);
    for (const c of x.children) stack.push(c);
  }
  return { members, summary: true, children: [] };
}

/** Every node with its depth (roots at 0). */
function* withDepth(forests: readonly HostForest[]): Generator<[GraphNode, number]> {
  const stack: [GraphNode, number][] = [];
  for (const f of forests) for (const r of f.roots) stack.push([r, 0]);
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    yield [n, d];
    for (const c of n.children) stack.push([c, d + 1]);
  }
}

/** The deepest level D such that keeping levels ≤ D, plus one summary per node there, fits. */
function stageDepth(forests: HostForest[], maxNodes: number): boolean {
  const levels: number[] = [];
  const withChildren: number[] = [];
  for (const [n, d] of withDepth(forests)) {
    levels[d] = (levels[d] ?? 0) + 1;
    if (n.children.length > 0) withChildren[d] = (withChildren[d] ?? 0) + 1;
  }
  let kept = 0;
  let depth = -1;
  for (let d = 0; d < levels.length; d++) {
    kept += levels[d]!;
    if (kept + (withChildren[d] ?? 0) > maxNodes) break;
    depth = d;
  }
  if (depth < 0) return false;
  const cut = [...withDepth(forests)].filter(([n, d]) => d === depth && n.children.length > 0);
  for (const [n] of cut) n.children = [collapse(n)];
  return true;
}

/** Last resort: one summary per host; the smallest hosts past the limit share one more. */
function stageHosts(forests: HostForest[], maxNodes: number): HostForest[] {
  const hosts = forests
    .filter((f) => f.roots.length > 0)
    .map((f) => ({
      computer: f.computer,
      roots: [collapse({ members: [], summary: true, children: f.roots })],
    }));
  if (hosts.length <= maxNodes) return hosts;
  const size = (f: HostForest) => f.roots[0]!.members.length;
  const bySize = [...hosts].sort((a, b) => size(b) - size(a) || (a.computer < b.computer ? -1 : 1));
  const rest = bySize.slice(maxNodes - 1);
  const kept = new Set(bySize.slice(0, maxNodes - 1));
  const other = { members: rest.flatMap((f) => f.roots[0]!.members), summary: true, children: [] };
  return [...hosts.filter((f) => kept.has(f)), { computer: `(${rest.length} other hosts)`, roots: [other] }];
}

/** The forests after the stages that bring the graph to at most `maxNodes` nodes. */
export function optimise(forests: HostForest[], maxNodes: number): HostForest[] {
  if (total(forests) <= maxNodes) return forests;
  stageSiblings(forests, true);
  if (total(forests) <= maxNodes) return forests;
  stageSiblings(forests, false);
  if (total(forests) <= maxNodes) return forests;
  if (stageDepth(forests, maxNodes)) return forests;
  return stageHosts(forests, maxNodes);
}
