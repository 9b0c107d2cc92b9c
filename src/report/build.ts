/**
 * `buildReport`: one self-contained HTML file from a parse job's insights. It opens on the
 * answer (summary.ts: time span, hosts by worst finding with Sigma matches by level, coverage),
 * then the Sigma detections as one paged table, the key event timeline, the graph, and the
 * result types' tables; a section whose markup is large starts collapsed. The strict CSP
 * (`default-src 'none'`, the one style and script allowed by hash) means the page can make no
 * request even if some text slipped through, and every text is escaped anyway. Data the script
 * draws (detections, rule details, graph summaries) rides along in inert JSON data blocks.
 */
import { createHash } from 'node:crypto';
import { formatTime, PROCESSES_TITLE, RESULT_TYPES, SOURCES_TITLE } from '../analysis/index.js';
import { invalidOption } from '../errors/index.js';
import { type Insight, insightType } from '../insights/index.js';
import { levelRank } from '../sigma/index.js';
import { STYLE as BASE_STYLE, SCRIPT as TIMELINE_SCRIPT } from './assets.js';
import { detectionsHtml, severity } from './detections.js';
import { DETECTIONS_SCRIPT, DETECTIONS_STYLE } from './detections-script.js';
import { GRAPH_EXPAND_SCRIPT, GRAPH_EXPAND_STYLE } from './graph-expand.js';
import { GRAPH_SCRIPT, GRAPH_STYLE } from './graph-nav.js';
import { GRAPH_TREE_STYLE, processTreeHtml } from './graph-tree.js';
import { GRAPH_TREE_SCRIPT } from './graph-tree-script.js';
import { esc, slug } from './html.js';
import { TABLE_SCRIPT, TABLE_STYLE } from './interactive.js';
import { SECTIONS_SCRIPT } from './open-sections.js';
import { commonFolder } from './paths.js';
import { insightHtml, type TimelineState } from './sections.js';
import { fileLines, type OverviewFacts, overviewFacts, summaryHtml } from './summary.js';
import type { ReportInput } from './types.js';
import { WRAP_STYLE } from './wrap.js';

const SECTION_ORDER = [
  'Summary',
  'Sigma Detections',
  'Key Event Timeline',
  'Process Inference Graph',
  'Overview',
  'Process Analysis',
  'Network Analysis',
  'Authentication',
  'Persistence',
  'Other Results',
] as const;

/** Sections always open: the first screen and the paged detections. */
const ALWAYS_OPEN = new Set(['Summary', 'Sigma Detections', 'Process Inference Graph']);
/** A section with more markup than this starts collapsed (about 150 table rows). */
const COLLAPSE_CHARS = 40_000;

const STYLE =
  BASE_STYLE +
  TABLE_STYLE +
  WRAP_STYLE +
  GRAPH_STYLE +
  GRAPH_EXPAND_STYLE +
  DETECTIONS_STYLE +
  GRAPH_TREE_STYLE;
const SCRIPT =
  // Scripts that build rows run before the table script, which makes every table sortable.
  TIMELINE_SCRIPT +
  DETECTIONS_SCRIPT +
  TABLE_SCRIPT +
  GRAPH_SCRIPT +
  GRAPH_EXPAND_SCRIPT +
  GRAPH_TREE_SCRIPT +
  SECTIONS_SCRIPT;

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

function titleOf(i: Insight): string {
  const value = (i as unknown as Record<string, { title?: unknown }>)[insightType(i)];
  return typeof value?.title === 'string' ? value.title : '';
}

/** The result type an insight belongs to, by its title (`Network Analysis: DNS Queries`). */
function sectionOf(i: Insight): string {
  const title = titleOf(i);
  const type = RESULT_TYPES.find((t) => title === t || title.startsWith(`${t}:`));
  return type ?? 'Other Results';
}

function check(input: ReportInput): void {
  if (input === null || typeof input !== 'object') throw invalidOption('input', 'an object', input);
  if (!Array.isArray(input.insights)) throw invalidOption('insights', 'an array of insights', input.insights);
  if (input.sigmaRules !== undefined && !Array.isArray(input.sigmaRules))
    throw invalidOption('sigmaRules', 'an array of rules', input.sigmaRules);
  if (input.files !== undefined && !Array.isArray(input.files))
    throw invalidOption('files', 'an array of file names', input.files);
  if (input.generatedAt !== undefined && !Number.isFinite(input.generatedAt))
    throw invalidOption('generatedAt', 'Unix milliseconds', input.generatedAt);
}

/** The sources table's rows (without its header), or [] (key-events.ts in the analysis). */
function sourcesOf(insights: readonly Insight[]): string[][] {
  for (const i of insights)
    if (i !== null && typeof i === 'object' && 'Table' in i && i.Table.title === SOURCES_TITLE)
      return Array.isArray(i.Table.data) ? i.Table.data.slice(1) : [];
  return [];
}

/** The folder every file of the report shares (inputs, key event sources, Sigma matches). */
function folderOf(input: ReportInput, facts: OverviewFacts, sources: readonly (readonly string[])[]): string {
  const files = [...(input.files ?? []), ...fileLines(facts.meta.files).map((f) => f.path)];
  for (const s of sources) if (s[3]) files.push(s[3]);
  for (const r of input.sigmaRules ?? []) for (const m of r.sample) if (m.file) files.push(m.file);
  return commonFolder(files);
}

/** `6659: critical 29, high 5133, …` from the rules' match counts. */
function detectionsLine(input: ReportInput, ran: boolean): string {
  if (!ran) return 'Sigma rules were not run';
  const by = new Map<string, number>();
  for (const r of input.sigmaRules ?? []) {
    const level = String(r.level ?? 'none').toLowerCase();
    by.set(level, (by.get(level) ?? 0) + r.matches);
  }
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  const parts = [...by]
    .sort((a, b) => severity(a[0]) - severity(b[0]))
    .map(([l, n]) => `<span class="badge l-${levelRank(l) >= 0 ? esc(l) : 'none'}">${esc(l)} ${n}</span>`);
  return `${total} Sigma ${total === 1 ? 'match' : 'matches'} ${parts.join(' ')} <a href="#sigma-detections">table</a>`;
}

/** A section's body, collapsed behind a toggle when large. */
function sectionBody(name: string, body: string): string {
  if (ALWAYS_OPEN.has(name) || body.length <= COLLAPSE_CHARS) return body;
  const tables = (body.match(/<table/g) ?? []).length;
  const rows = (body.match(/<tr/g) ?? []).length;
  return `<details class="section-body"><summary>Show ${tables} ${tables === 1 ? 'table' : 'tables'} (${rows} rows)</summary>\n${body}\n</details>`;
}

export async function buildReport(input: ReportInput): Promise<string> {
  check(input);
  const bySection = new Map<string, string[]>();
  const problems: string[] = [];
  const facts = overviewFacts(input.insights);
  const sources = sourcesOf(input.insights);
  const folder = folderOf(input, facts, sources);
  const state: TimelineState = { timeline: false, sources, folder };
  let tree = '';
  for (const insight of input.insights) {
    if (insight === null || typeof insight !== 'object') continue;
    if ('Table' in insight && insight.Table?.title === SOURCES_TITLE) continue; // shown in the timeline
    if ('Table' in insight && insight.Table?.title === PROCESSES_TITLE) {
      tree = processTreeHtml(Array.isArray(insight.Table.data) ? insight.Table.data : []);
      continue;
    }
    // The detections' rules table says the same, with details on demand.
    if (
      'Table' in insight &&
      insight.Table?.title === 'Overview: Sigma Matches' &&
      (input.sigmaRules?.length ?? 0) > 0
    )
      continue;
    const html = await insightHtml(insight, state);
    if (insightType(insight) === 'Error') {
      problems.push(html);
      continue;
    }
    const section = sectionOf(insight);
    bySection.set(section, [...(bySection.get(section) ?? []), html]);
  }
  if (tree !== '')
    bySection.set('Process Inference Graph', [...(bySection.get('Process Inference Graph') ?? []), tree]);
  const ran = input.sigmaRan === true || (input.sigmaRules?.length ?? 0) > 0;
  if (ran) bySection.set('Sigma Detections', [detectionsHtml(input.sigmaRules ?? [], true, folder)]);
  if (bySection.has('Overview') || ran)
    bySection.set('Summary', [summaryHtml(facts, detectionsLine(input, ran), input.files)]);
  const sections = SECTION_ORDER.filter((s) => bySection.has(s));
  const title = input.title ?? 'Threat analysis report';
  const generated = input.generatedAt === undefined ? '' : `Generated ${formatTime(input.generatedAt)} UTC. `;
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;
  const body = sections
    .map(
      (s) =>
        `<section id="${slug(s)}"><h2>${esc(s)}</h2>\n${sectionBody(s, bySection.get(s)!.join('\n'))}\n</section>`,
    )
    .join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${esc(title)}</h1><p>${esc(generated)}Offline report: this file makes no network requests.</p>`,
    `<nav>${sections.map((s) => `<a href="#${slug(s)}">${esc(s)}</a>`).join('')}</nav></header>`,
    '<main>',
    problems.length > 0 ? `<section id="problems"><h2>Problems</h2>${problems.join('\n')}</section>` : '',
    body,
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
