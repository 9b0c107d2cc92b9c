/**
 * Process Inference Graph: process ancestry from Sysmon 1 and Security 4688 as a DOT digraph, one
 * cluster per host, edges labelled with the number of processes they lead to, optimised to at
 * most `maxNodes` nodes; graph_metadata lists the original nodes, the shown nodes and, per
 * summary node, the original nodes it replaced. Beside it, a table of every process with its
 * parent (graph/processes-table.ts), from which one host's tree can be drawn whole.
 */
import { graphInsight, type Insight } from '../../insights/index.js';
import type { Fact, ProcessEnd, ProcessStart } from '../facts.js';
import { detach } from '../text.js';
import type { Builder } from '../types.js';
import { renderGraph } from './graph/dot.js';
import { type GraphNode, type HostForest, optimise } from './graph/optimise.js';
import { processesInsight } from './graph/processes-table.js';
import { resolveAncestry } from './graph/resolve.js';

/**
 * Process creations kept for the graph; later ones are counted, not drawn. About 0.9 KB each
 * (the graph resolves ancestry over all of them at the end), so this bounds the builder at
 * ~22 MB; the graph shows 150 nodes by default.
 */
export const MAX_GRAPH_PROCESSES = 25_000;
const MAX_GRAPH_EXITS = 50_000;

export class ProcessGraphBuilder implements Builder {
  readonly resultType = 'Process Inference Graph' as const;
  readonly consumes = ['processStart', 'processEnd'] as const;
  private readonly starts: ProcessStart[] = [];
  private readonly ends: ProcessEnd[] = [];
  /** Creations past MAX_GRAPH_PROCESSES, left out of the graph. */
  dropped = 0;

  constructor(private readonly maxNodes: number) {}

  consume(f: Fact): void {
    if (f.kind === 'processStart') {
      // Labels show 60 characters of a command line: a detached 200 is plenty and bounds memory.
      if (this.starts.length < MAX_GRAPH_PROCESSES)
        this.starts.push({ ...f, commandLine: detach(f.commandLine, 200), image: detach(f.image, 300) });
      else this.dropped++;
    } else if (f.kind === 'processEnd' && this.ends.length < MAX_GRAPH_EXITS) this.ends.push(f);
  }

  finish(): Insight[] {
    const instances = resolveAncestry(this.starts, this.ends);
    const nodes = new Map(
      instances.map((i) => [i, { members: [i], summary: false, children: [] } as GraphNode]),
    );
    const hosts = new Map<string, HostForest>();
    for (const i of instances) {
      const node = nodes.get(i)!;
      for (const c of i.children) node.children.push(nodes.get(c)!);
      if (i.parent !== null) continue;
      let host = hosts.get(i.computer);
      if (host === undefined) {
        host = { computer: i.computer, roots: [] };
        hosts.set(i.computer, host);
      }
      host.roots.push(node);
    }
    const forests = optimise(
      [...hosts.values()].sort((a, b) => (a.computer < b.computer ? -1 : a.computer > b.computer ? 1 : 0)),
      this.maxNodes,
    );
    const { dot, metadata, ids } = renderGraph('Process Inference Graph', forests, instances);
    const graph = graphInsight('Process Inference Graph', dot, metadata, 'Process');
    return instances.length === 0 ? [graph] : [graph, processesInsight(instances, ids)];
  }
}
