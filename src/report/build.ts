/**
 * `buildReport`: one self-contained HTML file from a parse job's insights. Sections follow the
 * result types (Overview, Key Event Timeline, the graph, Sigma, then the tables); the strict CSP
 * (`default-src 'none'`, the one style and script allowed by hash) means the page can make no
 * request even if some text slipped through, and every text is escaped anyway. The graph's
 * summary membership rides along as an inert JSON data block (graph-members.ts), not a script.
 */
import { createHash } from 'node:crypto';
import { formatTime, RESULT_TYPES } from '../analysis/index.js';
import { invalidOption } from '../errors/index.js';
import { type Insight, insightType } from '../insights/index.js';
import { STYLE as BASE_STYLE, SCRIPT as TIMELINE_SCRIPT } from './assets.js';
import { GRAPH_EXPAND_SCRIPT, GRAPH_EXPAND_STYLE } from './graph-expand.js';
import { GRAPH_SCRIPT, GRAPH_STYLE } from './graph-nav.js';
import { esc, slug } from './html.js';
import { TABLE_SCRIPT, TABLE_STYLE } from './interactive.js';
import { insightHtml } from './sections.js';
import { sigmaHtml } from './sigma.js';
import type { ReportInput } from './types.js';
import { WRAP_STYLE } from './wrap.js';

const SECTION_ORDER = [
  'Overview',
  'Key Event Timeline',
  'Process Inference Graph',
  'Sigma Rules',
  'Process Analysis',
  'Network Analysis',
  'Authentication',
  'Persistence',
  'Other Results',
] as const;

const STYLE = BASE_STYLE + TABLE_STYLE + WRAP_STYLE + GRAPH_STYLE + GRAPH_EXPAND_STYLE;
const SCRIPT = TIMELINE_SCRIPT + TABLE_SCRIPT + GRAPH_SCRIPT + GRAPH_EXPAND_SCRIPT;

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
  if (input.generatedAt !== undefined && !Number.isFinite(input.generatedAt))
    throw invalidOption('generatedAt', 'Unix milliseconds', input.generatedAt);
}

export async function buildReport(input: ReportInput): Promise<string> {
  check(input);
  const bySection = new Map<string, string[]>();
  const problems: string[] = [];
  const state = { timeline: false };
  for (const insight of input.insights) {
    if (insight === null || typeof insight !== 'object') continue;
    const html = await insightHtml(insight, state);
    if (insightType(insight) === 'Error') {
      problems.push(html);
      continue;
    }
    const section = sectionOf(insight);
    bySection.set(section, [...(bySection.get(section) ?? []), html]);
  }
  const ran = input.sigmaRan === true || (input.sigmaRules?.length ?? 0) > 0;
  if (ran) bySection.set('Sigma Rules', [sigmaHtml(input.sigmaRules ?? [], true)]);
  const sections = SECTION_ORDER.filter((s) => bySection.has(s));
  const title = input.title ?? 'Threat analysis report';
  const generated = input.generatedAt === undefined ? '' : `Generated ${formatTime(input.generatedAt)} UTC. `;
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;
  const body = sections
    .map((s) => `<section id="${slug(s)}"><h2>${esc(s)}</h2>\n${bySection.get(s)!.join('\n')}\n</section>`)
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
