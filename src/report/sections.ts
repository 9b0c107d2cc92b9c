/** One renderer per insight type (the key event timeline's is timeline.ts). */
export type { TimelineState } from './timeline.js';

import { formatTime } from '../analysis/index.js';
import { type Insight, insightType } from '../insights/index.js';
import { chartSvg } from './charts.js';
import { graphSvg } from './graph.js';
import { summaryDataBlock } from './graph-members.js';
import { esc, table } from './html.js';
import { fileLines } from './summary.js';
import { type TimelineState, timelineHtml } from './timeline.js';
import { escClipWrap } from './wrap.js';

/** Cells longer than this are cut in tables (the JSON results keep them whole). */
const MAX_CELL = 1000;
/** Rows a table shows: the analysis puts the most notable first; the JSON results keep all. */
const MAX_ROWS = 100;
/** DOT larger than this is not laid out (the analyzer's graphs are far smaller). */
const MAX_DOT_CHARS = 4 * 1024 * 1024;

function dataTable(title: string, data: readonly (readonly unknown[])[]): string {
  const [header = [], ...rows] = data;
  if (rows.length === 0) return `<h3>${esc(title)}</h3><p class="empty">No rows.</p>`;
  const body = rows.slice(0, MAX_ROWS).map((r) => header.map((_, i) => escClipWrap(r[i], MAX_CELL)));
  const note =
    rows.length > MAX_ROWS
      ? `First ${MAX_ROWS} of ${rows.length} rows (the results file, -o, has them all)`
      : `${rows.length} rows`;
  return `<h3>${esc(title)}</h3><p class="note">${note}</p>${table(header.map(String), body)}`;
}

/** The Overview's file list, which the Summary's coverage shows: a count here. */
function filesValue(value: unknown, folder: string): string {
  const files = fileLines(String(value ?? ''));
  if (files.length <= 3) return escClipWrap(value, MAX_CELL);
  return `${files.length} files${folder ? ` under ${esc(folder)}` : ''}: listed in the <a href="#summary">Summary</a>'s coverage`;
}

function metadata(title: string, data: Readonly<Record<string, unknown>>, folder: string): string {
  const items = Object.entries(data)
    .map(
      ([k, v]) =>
        `<dt>${esc(k.replace(/_/g, ' '))}</dt><dd>${title === 'Overview' && k === 'files' ? filesValue(v, folder) : escClipWrap(v, MAX_CELL)}</dd>`,
    )
    .join('');
  return `<h3>${esc(title)}</h3><dl class="meta">${items}</dl>`;
}

/** The HTML of one insight; the first Timeline becomes the filterable key event timeline. */
export async function insightHtml(insight: Insight, state: TimelineState): Promise<string> {
  const type = insightType(insight);
  switch (type) {
    case 'Timeline': {
      const t = (insight as Extract<Insight, { Timeline: unknown }>).Timeline;
      const data = Array.isArray(t.data) ? t.data : [];
      if (!state.timeline) {
        state.timeline = true;
        return timelineHtml(t.title, data, state);
      }
      return dataTable(t.title, [
        ['Start', 'End', 'Importance', 'Category', 'Event', 'Description', 'Record'],
        ...data.map((e) => [
          formatTime(e.timestamp_start),
          e.timestamp_end === null ? '' : formatTime(e.timestamp_end),
          e.importance,
          e.category,
          e.short_name,
          e.description,
          e.record_id || '',
        ]),
      ]);
    }
    case 'Table': {
      const t = (insight as Extract<Insight, { Table: unknown }>).Table;
      return dataTable(t.title, Array.isArray(t.data) ? t.data : []);
    }
    case 'IndexTable': {
      const t = (insight as Extract<Insight, { IndexTable: unknown }>).IndexTable;
      const rows = (Array.isArray(t.data) ? t.data : []).map(([cells, fields]) => [
        ...cells,
        Object.entries(fields ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join('\n'),
      ]);
      return dataTable(t.title, [t.columns, ...rows]);
    }
    case 'Chart': {
      const c = (insight as Extract<Insight, { Chart: unknown }>).Chart;
      return `<h3>${esc(c.title)}</h3>${chartSvg(Array.isArray(c.data) ? c.data : [])}`;
    }
    case 'Graph': {
      const g = (insight as Extract<Insight, { Graph: unknown }>).Graph;
      const meta = g.graph_metadata;
      const counts = `${meta?._stats_original_nodes?.length ?? 0} processes, ${meta?._stats_optimized_nodes?.length ?? 0} after summarising`;
      const svg =
        typeof g.data === 'string' && g.data.length <= MAX_DOT_CHARS
          ? await graphSvg(g.data)
          : '<p class="empty">The graph is too large to draw.</p>';
      return `<h3>${esc(g.title)}</h3><p class="note">${esc(counts)}</p><div class="graph" id="process-graph">${svg}</div>${summaryDataBlock(meta)}`;
    }
    case 'Metadata': {
      const m = (insight as Extract<Insight, { Metadata: unknown }>).Metadata;
      return metadata(m.title, m.data ?? {}, state.folder);
    }
    case 'Error':
      return `<p class="error">${esc((insight as Extract<Insight, { Error: unknown }>).Error.message)}</p>`;
    default:
      return type satisfies never;
  }
}
