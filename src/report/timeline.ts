/**
 * The key event timeline: up to 2,000 entries with their host and record reference (the
 * analysis's sources table). The rows travel as a JSON data block, host and file names once
 * each, and the page's script builds them at load (assets.ts), so the markup of 2,000 rows
 * (a third of a 5 MB report) costs its text and little more. Filters (category, importance,
 * computer, text) are server-rendered; every string is sanitised here and reaches the page
 * through `textContent`.
 */
import { clip } from '../analysis/index.js';
import { displayBlock } from '../display/index.js';
import { CATEGORIES, IMPORTANCE, type TimelineEntry } from '../insights/index.js';
import { scriptJson } from './graph-members.js';
import { esc } from './html.js';
import { relativeTo } from './paths.js';

/** Descriptions are cut here in the page (the results keep them whole). */
const MAX_DESCRIPTION = 400;

/** What the timeline reads beside its entries: the sources table's rows and the files' folder. */
export interface TimelineState {
  timeline: boolean;
  /** `Key Event Timeline: Sources` rows without the header: [entry, computer, record, file]. */
  sources: readonly (readonly string[])[];
  folder: string;
}

const show = (s: unknown, max: number) => displayBlock(clip(String(s ?? ''), max));
const rankOf = (importance: unknown) =>
  Math.max(0, IMPORTANCE.indexOf(importance as (typeof IMPORTANCE)[number]));

function intern(list: string[], at: Map<string, number>, s: string): number {
  let i = at.get(s);
  if (i === undefined) {
    i = list.length;
    list.push(s);
    at.set(s, i);
  }
  return i;
}

/** `{ hosts, files, categories, rows: [start, end, rank, category, host, event, description, ref, file] }` */
export function timelineBlock(entries: readonly TimelineEntry[], state: TimelineState): string {
  const sources = state.sources.length === entries.length ? state.sources : [];
  const hosts: string[] = [];
  const files: string[] = [];
  const categories: string[] = [];
  const maps = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()] as const;
  const rows = entries.map((e, i) => {
    const source = sources[i];
    const ref = source?.[2] || (e.record_id ? String(e.record_id) : '');
    return [
      Number.isFinite(e.timestamp_start) ? e.timestamp_start : null,
      e.timestamp_end !== null && Number.isFinite(e.timestamp_end) ? e.timestamp_end : null,
      rankOf(e.importance),
      intern(categories, maps[2], show(e.category, 40)),
      intern(hosts, maps[0], show(source?.[1] ?? '', 200)),
      show(e.short_name, 200),
      show(e.description, MAX_DESCRIPTION),
      show(ref, 200),
      intern(files, maps[1], show(relativeTo(state.folder, source?.[3] ?? ''), 300)),
    ];
  });
  return scriptJson({ hosts, files, categories, importance: IMPORTANCE, rows });
}

export function timelineHtml(title: string, entries: readonly TimelineEntry[], state: TimelineState): string {
  const present = CATEGORIES.filter((c) => entries.some((e) => e.category === c));
  const others = [...new Set(entries.map((e) => String(e.category)))].filter(
    (c) => !(CATEGORIES as readonly string[]).includes(c),
  );
  const options = [...present, ...others.sort()]
    .map((c) => `<option value="${esc(c)}">${esc(c)}</option>`)
    .join('');
  const levels = IMPORTANCE.map((i, n) => `<option value="${n}">${esc(i)} and above</option>`).join('');
  const sources = state.sources.length === entries.length ? state.sources : [];
  const computers = [...new Set(sources.map((s) => s[1] ?? ''))].filter(Boolean).sort();
  const hostOptions = computers.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join('');
  const head = ['Start', 'End', 'Importance', 'Category', 'Computer', 'Event', 'Description', 'Record']
    .map((h) => `<th>${h}</th>`)
    .join('');
  return (
    `<h3>${esc(title)}</h3>` +
    `<div class="filters"><label>Category <select id="tl-category"><option value="">All</option>${options}</select></label>` +
    `<label>Importance <select id="tl-importance">${levels}</select></label>` +
    (computers.length > 0
      ? `<label>Computer <select id="tl-host"><option value="">All (${computers.length})</option>${hostOptions}</select></label>`
      : '') +
    `<label>Text <input id="tl-text" type="search"></label><span id="tl-count" class="note">${entries.length} key events</span></div>` +
    `<div class="scroll"><table id="timeline-table"><thead><tr>${head}</tr></thead><tbody></tbody></table></div>` +
    `<script type="application/json" id="tl-data">${timelineBlock(entries, state)}</script>`
  );
}
