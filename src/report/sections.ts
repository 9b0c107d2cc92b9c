/** One renderer per insight type, and the filterable key event timeline. */
import { formatTime } from '../analysis/index.js';
import { CATEGORIES, IMPORTANCE, type Insight, insightType, type TimelineEntry } from '../insights/index.js';
import { chartSvg } from './charts.js';
import { graphSvg } from './graph.js';
import { summaryDataBlock } from './graph-members.js';
import { esc, table } from './html.js';
import { escClipWrap } from './wrap.js';

/** Cells longer than this are cut in tables (the JSON results keep them whole). */
const MAX_CELL = 4000;
/** DOT larger than this is not laid out (the analyzer's graphs are far smaller). */
const MAX_DOT_CHARS = 4 * 1024 * 1024;

const rankOf = (importance: unknown) =>
  Math.max(0, IMPORTANCE.indexOf(importance as (typeof IMPORTANCE)[number]));

const badge = (importance: string) =>
  `<span class="badge i-${IMPORTANCE.includes(importance as never) ? importance : 'Informational'}">${esc(importance)}</span>`;

function timeline(title: string, entries: readonly TimelineEntry[], id: string): string {
  const present = CATEGORIES.filter((c) => entries.some((e) => e.category === c));
  const others = [...new Set(entries.map((e) => String(e.category)))].filter(
    (c) => !(CATEGORIES as readonly string[]).includes(c),
  );
  const options = [...present, ...others.sort()]
    .map((c) => `<option value="${esc(c)}">${esc(c)}</option>`)
    .join('');
  const levels = IMPORTANCE.map((i, n) => `<option value="${n}">${esc(i)} and above</option>`).join('');
  const rows = entries.map((e) => {
    const cells = [
      esc(formatTime(e.timestamp_start)),
      esc(e.timestamp_end === null ? '' : formatTime(e.timestamp_end)),
      badge(String(e.importance)),
      esc(e.category),
      escClipWrap(e.short_name, 300),
      escClipWrap(e.description, MAX_CELL),
      esc(e.record_id || ''),
    ];
    return `<tr data-category="${esc(e.category)}" data-rank="${rankOf(e.importance)}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  });
  const head = ['Start', 'End', 'Importance', 'Category', 'Event', 'Description', 'Record']
    .map((h) => `<th>${h}</th>`)
    .join('');
  return (
    `<h3>${esc(title)}</h3>` +
    `<div class="filters"><label>Category <select id="tl-category"><option value="">All</option>${options}</select></label>` +
    `<label>Importance <select id="tl-importance">${levels}</select></label>` +
    `<label>Text <input id="tl-text" type="search"></label><span id="tl-count" class="note">${entries.length} key events</span></div>` +
    `<div class="scroll"><table id="${id}"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`
  );
}

function dataTable(title: string, data: readonly (readonly unknown[])[]): string {
  const [header = [], ...rows] = data;
  if (rows.length === 0) return `<h3>${esc(title)}</h3><p class="empty">No rows.</p>`;
  const body = rows.map((r) => header.map((_, i) => escClipWrap(r[i], MAX_CELL)));
  return `<h3>${esc(title)}</h3><p class="note">${rows.length} rows</p>${table(header.map(String), body)}`;
}

function metadata(title: string, data: Readonly<Record<string, unknown>>): string {
  const items = Object.entries(data)
    .map(([k, v]) => `<dt>${esc(k.replace(/_/g, ' '))}</dt><dd>${escClipWrap(v, MAX_CELL)}</dd>`)
    .join('');
  return `<h3>${esc(title)}</h3><dl class="meta">${items}</dl>`;
}

/** The HTML of one insight; the first Timeline becomes the filterable key event timeline. */
export async function insightHtml(insight: Insight, state: { timeline: boolean }): Promise<string> {
  const type = insightType(insight);
  switch (type) {
    case 'Timeline': {
      const t = (insight as Extract<Insight, { Timeline: unknown }>).Timeline;
      const data = Array.isArray(t.data) ? t.data : [];
      if (!state.timeline) {
        state.timeline = true;
        return timeline(t.title, data, 'timeline-table');
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
      return metadata(m.title, m.data ?? {});
    }
    case 'Error':
      return `<p class="error">${esc((insight as Extract<Insight, { Error: unknown }>).Error.message)}</p>`;
    default:
      return type satisfies never;
  }
}
