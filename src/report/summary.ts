/**
 * The report's first screen: what the case holds and where to look first. The time span, the
 * records and hosts, the detections by level; the hosts from the worst finding down with their
 * Sigma matches by level (the level × host summary); and the coverage: the files read, as a
 * count that opens into their names relative to the folder they share. Everything comes from
 * the Overview insights (Findings per Computer holds the per-host counts), so the summary says
 * what the job computed and nothing else.
 */
import type { Insight } from '../insights/index.js';
import { esc } from './html.js';
import { commonFolder, relativeTo } from './paths.js';

/** The level columns, as the Findings per Computer table's `Sigma Matches by Level` names them. */
const LEVELS = ['critical', 'high', 'medium', 'low', 'informational'] as const;
/** Hosts listed before the rest fold away behind a toggle. */
const HOSTS_SHOWN = 25;
/** Files listed in the coverage toggle (the Overview's metadata keeps every one). */
const FILES_SHOWN = 2000;

export interface OverviewFacts {
  readonly meta: Readonly<Record<string, string>>;
  /** Findings per Computer, header first; [] when the job had none. */
  readonly hosts: readonly (readonly string[])[];
}

export function overviewFacts(insights: readonly Insight[]): OverviewFacts {
  let meta: Record<string, string> = {};
  let hosts: string[][] = [];
  for (const i of insights) {
    if ('Metadata' in i && i.Metadata.title === 'Overview' && i.Metadata.data) meta = i.Metadata.data;
    if ('Table' in i && i.Table.title === 'Overview: Findings per Computer' && Array.isArray(i.Table.data))
      hosts = i.Table.data;
  }
  return { meta, hosts };
}

/**
 * `path: 66 records` lines of the Overview's `files` (a line that does not parse is kept whole).
 * A long list arrives cut at 20,000 characters, ending in `…`: that last piece of a path is no
 * file, and taken as one it made the report's common folder shrink to its first directory.
 */
export function fileLines(files: string | undefined): { path: string; note: string }[] {
  const lines = String(files ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length > 1 && lines.at(-1)!.endsWith('…')) lines.pop();
  return lines.map((line) => {
    const m = /^(.*?): (\d[\d,]* records?.*)$/.exec(line);
    return m ? { path: m[1]!, note: m[2]! } : { path: line, note: '' };
  });
}

/** Counts per level from `critical 2, high 40`; anything else counts nothing. */
function levelCounts(text: string | undefined): number[] {
  const counts = LEVELS.map(() => 0);
  for (const part of String(text ?? '').split(', ')) {
    const m = /^([a-z]+) (\d+)$/.exec(part);
    const at = m ? LEVELS.indexOf(m[1] as (typeof LEVELS)[number]) : -1;
    if (at >= 0) counts[at] = Number(m![2]);
  }
  return counts;
}

const count = (n: number) => (n > 0 ? `<td class="n">${n}</td>` : '<td class="n zero">0</td>');

function hostTable(hosts: OverviewFacts['hosts']): string {
  const [head, ...rows] = hosts;
  if (head === undefined || rows.length === 0) return '<p class="empty">No host was seen.</p>';
  const col = (name: string) => head.indexOf(name);
  const [host, events, worst, byLevel, keyEvents, importance] = [
    col('Computer'),
    col('Events'),
    col('Highest Sigma Level'),
    col('Sigma Matches by Level'),
    col('Key Events'),
    col('Highest Importance'),
  ];
  const line = (r: readonly string[]) => {
    const levels = levelCounts(r[byLevel]);
    const level = String(r[worst] ?? '-').toLowerCase();
    const badge = (LEVELS as readonly string[]).includes(level)
      ? `<span class="badge l-${level}">${esc(level)}</span>`
      : esc(r[worst] ?? '-');
    return (
      `<tr><td>${esc(r[host])}</td><td>${badge}</td>${levels.map(count).join('')}` +
      `<td class="n">${esc(r[keyEvents] ?? '')}</td><td>${esc(r[importance] ?? '')}</td><td class="n">${esc(r[events] ?? '')}</td></tr>`
    );
  };
  const header = `<thead><tr><th>Host</th><th>Worst Sigma level</th>${LEVELS.map((l) => `<th>${esc(l)}</th>`).join('')}<th>Key events</th><th>Worst key event</th><th>Events</th></tr></thead>`;
  const table = (list: readonly (readonly string[])[], id: string) =>
    `<div class="scroll"><table id="${id}" class="levels">${header}<tbody>\n${list.map(line).join('\n')}\n</tbody></table></div>`;
  const shown = rows.slice(0, HOSTS_SHOWN);
  const rest = rows.slice(HOSTS_SHOWN);
  return (
    table(shown, 'host-levels') +
    (rest.length > 0
      ? `<details class="more"><summary>${rest.length} more hosts</summary>${table(rest, 'host-levels-more')}</details>`
      : '')
  );
}

function coverage(meta: OverviewFacts['meta'], given: readonly string[] | undefined): string {
  const described = fileLines(meta.files);
  const notes = new Map(described.map((f) => [f.path, f.note]));
  const files =
    given === undefined
      ? described
      : given.map((path) => ({ path: String(path), note: notes.get(String(path)) ?? '' }));
  const folder = commonFolder(files.map((f) => f.path));
  const list = files
    .slice(0, FILES_SHOWN)
    .map(
      (f) =>
        `<li>${esc(relativeTo(folder, f.path))}${f.note ? ` <span class="note">${esc(f.note)}</span>` : ''}</li>`,
    )
    .join('');
  const more =
    files.length > FILES_SHOWN ? `<p class="note">First ${FILES_SHOWN} of ${files.length} files.</p>` : '';
  const where = folder === '' ? '' : ` under <code>${esc(folder)}</code>`;
  return (
    `<details class="coverage"><summary>${files.length} ${files.length === 1 ? 'file' : 'files'}${where}</summary>` +
    `<ul class="files">${list}</ul>${more}</details>`
  );
}

/** The summary section: the facts line, the hosts by worst finding, the coverage toggle. */
export function summaryHtml(facts: OverviewFacts, detections: string, files?: readonly string[]): string {
  const m = facts.meta;
  const span =
    m.first_event && m.last_event
      ? `${esc(m.first_event)} – ${esc(m.last_event)} UTC${m.time_span ? ` (${esc(m.time_span)})` : ''}`
      : 'no event with a time';
  const hosts = Math.max(0, facts.hosts.length - 1);
  const items = [
    ['Time span', span],
    [
      'Records',
      esc(m.records ?? '0') +
        (m.duplicate_records && m.duplicate_records !== '0'
          ? ` (${esc(m.duplicate_records)} duplicates skipped)`
          : ''),
    ],
    ['Hosts', String(hosts)],
    ['Detections', detections],
    ['Coverage', coverage(m, files)],
  ];
  return (
    `<dl class="facts">${items.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>` +
    `<h3>Hosts by worst finding: Sigma matches by level</h3>${hostTable(facts.hosts)}`
  );
}
