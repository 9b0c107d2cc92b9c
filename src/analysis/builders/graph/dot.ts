/**
 * DOT text for a process graph. Every id and label is a quoted string with backslashes and quotes
 * escaped and control characters removed (labels come from hostile event data), clipped, so no
 * input can end a string early, inject attributes or reach Graphviz's HTML labels.
 */
import type { GraphMetadata } from '../../../insights/index.js';
import { basename, formatTime, oneLine } from '../../text.js';
import type { GraphNode, HostForest } from './optimise.js';
import type { Instance } from './resolve.js';

/** A DOT quoted string; `\n` line breaks are added by the caller after escaping each part. */
export const quote = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const part = (s: string, max: number): string => oneLine(s, max).replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** `cmd.exe:7312@r57`, or `services.exe:704@inferred`: unique per original node. */
export function originalIds(instances: readonly Instance[]): Map<Instance, string> {
  const ids = new Map<Instance, string>();
  const seen = new Map<string, number>();
  for (const i of instances) {
    const base = `${oneLine(basename(i.image), 48) || 'unknown'}:${i.pid ?? '?'}@${i.inferred ? 'inferred' : `r${i.recordId}`}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    ids.set(i, n === 1 ? base : `${base}~${n}`);
  }
  return ids;
}

function processLabel(i: Instance): string {
  const lines = [part(basename(i.image) || 'unknown image', 48)];
  lines.push(
    part(`pid ${i.pid ?? '?'}${i.user ? ` · ${i.user}` : ''}${i.inferred ? ' · inferred parent' : ''}`, 60),
  );
  if (i.commandLine) lines.push(part(i.commandLine, 60));
  if (Number.isFinite(i.start)) lines.push(formatTime(i.start));
  return lines.join('\\n');
}

function summaryLabel(n: GraphNode): string {
  const images = new Map<string, number>();
  for (const m of n.members) {
    const b = basename(m.image) || 'unknown';
    images.set(b, (images.get(b) ?? 0) + 1);
  }
  const top = [...images].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (top.length === 1)
    return `${part(top[0]![0], 48)} ×${n.members.length}\\nsummary of ${n.members.length} processes`;
  const names = top
    .slice(0, 3)
    .map(([b, c]) => `${b} ×${c}`)
    .join(', ');
  return `${n.members.length} processes\\n${part(`${top.length} images: ${names}${top.length > 3 ? ', …' : ''}`, 60)}`;
}

export interface RenderedGraph {
  dot: string;
  metadata: GraphMetadata;
  /** Each original process's id, as the metadata names it. */
  ids: Map<Instance, string>;
}

/** DOT text and graph metadata for the (optimised) forests of all hosts. */
export function renderGraph(
  title: string,
  forests: readonly HostForest[],
  instances: readonly Instance[],
): RenderedGraph {
  const ids = originalIds(instances);
  const metadata: GraphMetadata = {
    _stats_original_nodes: instances.map((i) => ids.get(i)!),
    _stats_optimized_nodes: [],
  };
  const lines = [
    `digraph ${quote(title)} {`,
    '  graph [rankdir=LR, fontname="Helvetica", fontsize=10];',
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=9];',
    '  edge [fontname="Helvetica", fontsize=8];',
  ];
  const edges: string[] = [];
  let summaries = 0;
  const nodeId = new Map<GraphNode, string>();
  forests.forEach((f, c) => {
    lines.push(
      `  subgraph ${quote(`cluster_${c + 1}`)} {`,
      `    label=${quote(oneLine(f.computer, 80) || 'unknown host')};`,
    );
    const visit = (n: GraphNode, parent: GraphNode | null) => {
      let id: string;
      if (n.summary) {
        id = `summary_${++summaries}`;
        const members = [...n.members].sort((a, b) => a.idx - b.idx).map((m) => ids.get(m)!);
        metadata[`summary_${summaries}`] = members;
        lines.push(`    ${quote(id)} [label="${summaryLabel(n)}", shape=box3d, style=""];`);
      } else {
        const i = n.members[0]!;
        id = ids.get(i)!;
        const style = i.inferred ? ', style="rounded,dashed"' : i.flagged ? ', color="red"' : '';
        lines.push(`    ${quote(id)} [label="${processLabel(i)}"${style}];`);
      }
      nodeId.set(n, id);
      metadata._stats_optimized_nodes.push(id);
      if (parent !== null)
        edges.push(`  ${quote(nodeId.get(parent)!)} -> ${quote(id)} [label="${n.members.length}"];`);
      for (const child of n.children) visit(child, n);
    };
    for (const r of f.roots) visit(r, null);
    lines.push('  }');
  });
  lines.push(...edges, '}');
  return { dot: `${lines.join('\n')}\n`, metadata, ids };
}
