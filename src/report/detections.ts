/**
 * The Sigma detections as one table (time, host, level, rule, MITRE, evidence, record) and the
 * rules that matched as a compact table, their details (description, references…) opened on
 * demand. The rows travel as an inert JSON data block that the page's script draws a page at a
 * time (detections-script.ts), so 6,000 matches cost one parse, not 6,000 rendered rows. Every
 * string is shown through the one sanitiser before it enters the block and reaches the page by
 * `textContent` only; evidence is cut into plain and matched pieces here, so the script never
 * has to index into text the sanitiser may have lengthened.
 */
import { clip } from '../analysis/index.js';
import { displayBlock } from '../display/index.js';
import { LEVELS, levelRank } from '../sigma/index.js';
import { scriptJson } from './graph-members.js';
import { esc } from './html.js';
import { mitreOf, mitreText } from './mitre.js';
import { commonFolder, relativeTo } from './paths.js';
import type { ReportEvidence, ReportRule } from './types.js';

/** Rows the block holds at most, and per rule (the results file keeps every match). */
export const MAX_ROWS = 20_000;
export const ROWS_PER_RULE = 20;
/** Evidence characters over all rows; past it a row keeps its first matched field, shortly. */
const EVIDENCE_BUDGET = 80_000;
const FIELD_CHARS = 160;
const FIELDS_PER_ROW = 4;

const show = (s: unknown, max = 1000) => displayBlock(clip(String(s ?? ''), max));

/** Interns strings as indexes into a list, so 6,000 rows name 50 hosts once each. */
class Strings {
  readonly list: string[] = [];
  private readonly at = new Map<string, number>();
  id(s: string): number {
    let i = this.at.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.at.set(s, i);
    }
    return i;
  }
}

/** A field as [name, matched, piece, piece…], pieces alternating plain and matched text. */
type Field = [string, 0 | 1, ...string[]];

function pieces(f: ReportEvidence, max: number): Field {
  const value = String(f.value ?? '');
  const out: Field = [show(f.name, 80), f.matched ? 1 : 0];
  let at = 0;
  const spans = Array.isArray(f.spans) ? f.spans.slice(0, 16) : [];
  for (const [start, end] of spans) {
    if (!(start >= at && end > start && end <= value.length) || start >= max) continue;
    out.push(displayBlock(value.slice(at, start)), displayBlock(value.slice(start, Math.min(end, max))));
    at = Math.min(end, max);
  }
  out.push(displayBlock(value.slice(at, max)) + (value.length > max ? '…' : ''));
  return out;
}

/** Severity order: most severe first, unknown levels last. */
export const severity = (level: string | undefined): number => {
  const i = levelRank(level);
  return i < 0 ? LEVELS.length : LEVELS.length - 1 - i;
};

export function sortedRules(rules: readonly ReportRule[]): ReportRule[] {
  return [...rules].sort(
    (a, b) => severity(a.level) - severity(b.level) || b.matches - a.matches || (a.title < b.title ? -1 : 1),
  );
}

/** The detections block: rules, interned hosts, files and channels, and the rows by time. */
export function detectionsBlock(
  rules: readonly ReportRule[],
  folder: string,
): { json: string; listed: number } {
  const hosts = new Strings();
  const files = new Strings();
  const channels = new Strings();
  const matches = rules.flatMap((r, rule) => r.sample.slice(0, ROWS_PER_RULE).map((m) => ({ m, rule })));
  matches.sort(
    (a, b) =>
      (Number.isFinite(a.m.timestamp) ? a.m.timestamp : Infinity) -
        (Number.isFinite(b.m.timestamp) ? b.m.timestamp : Infinity) || a.rule - b.rule,
  );
  let budget = EVIDENCE_BUDGET;
  const rows = matches.slice(0, MAX_ROWS).map(({ m, rule }) => {
    const evidence = (m.evidence ?? []).slice(0, FIELDS_PER_ROW);
    const fields = budget > 0 ? evidence : evidence.filter((f) => f.matched).slice(0, 1);
    const max = budget > 0 ? FIELD_CHARS : 80;
    const ev = fields.map((f) => pieces(f, max));
    for (const f of ev) budget -= f.reduce<number>((n, p) => n + String(p).length, 0);
    return [
      Number.isFinite(m.timestamp) ? m.timestamp : null,
      hosts.id(show(m.computer ?? '', 300)),
      rule,
      files.id(show(relativeTo(folder, m.file ?? ''), 500)),
      // As the timeline's references and the tables' Records columns name channels.
      channels.id(show(String(m.channel ?? '').replace(/^Microsoft-Windows-/, ''), 200)),
      m.recordId || 0,
      ev,
    ];
  });
  const total = rules.reduce((n, r) => n + r.matches, 0);
  const data = { hosts: hosts.list, files: files.list, channels: channels.list, rows, total };
  return { json: scriptJson(data), listed: rows.length };
}

/**
 * Each rule, in severity order (the detections block's rows index it): [title, level, status,
 * id, kind, author, source, description, other tags, references, false positives, matches,
 * MITRE];
 * sources relative to the folder the rule files share. The rules table is drawn from it, and
 * a rule's panel opens from it on demand.
 */
export function ruleDetailsBlock(rules: readonly ReportRule[]): string {
  const list = (v: readonly string[] | undefined, n: number, max: number) =>
    (v ?? []).slice(0, n).map((s) => show(s, max));
  const folder = commonFolder(rules.map((r) => r.source ?? ''));
  const details = rules.map((r) => [
    show(r.title, 300),
    show(r.level ?? '', 40),
    show(r.status ?? '', 40),
    show(r.id ?? '', 100),
    show(r.kind ?? '', 40),
    show(r.author ?? '', 80),
    show(relativeTo(folder, r.source ?? ''), 300),
    show(r.description ?? '', 300),
    // ATT&CK tags are in the MITRE text below; the others (car., cve., detection.) as they are.
    list(
      (r.tags ?? []).filter((t) => !/^attack\./i.test(String(t))),
      8,
      60,
    ),
    list(r.references, 3, 120),
    list(r.falsepositives, 3, 120),
    r.matches,
    show(mitreText(mitreOf(r.tags)), 400),
  ]);
  return scriptJson(details);
}

/** The detections section: the controls' anchor, an empty table the script fills, the rules. */
export function detectionsHtml(rules: readonly ReportRule[], ran: boolean, folder: string): string {
  if (!ran) return '<p class="empty">Sigma rules were not run.</p>';
  if (rules.length === 0) return '<p class="empty">No Sigma rule matched.</p>';
  const sorted = sortedRules(rules);
  const { json, listed } = detectionsBlock(sorted, folder);
  const total = sorted.reduce((n, r) => n + r.matches, 0);
  const note =
    listed < total
      ? `${total} matches of ${rules.length} rules; ${listed} listed (the first ${ROWS_PER_RULE} of each rule; the results file, -o, has them all).`
      : `${total} matches of ${rules.length} rules.`;
  const head = ['Time', 'Host', 'Level', 'Rule', 'MITRE ATT&CK', 'Evidence', 'Record']
    .map((h) => `<th>${esc(h)}</th>`)
    .join('');
  return (
    `<p class="note">${esc(note)}</p>` +
    `<div id="det-controls" class="filters"></div>` +
    `<div class="scroll det-scroll"><table id="detections-table" data-controls="own"><thead><tr>${head}</tr></thead><tbody></tbody></table></div>` +
    `<div id="det-pager" class="filters pager"></div>` +
    `<noscript><p class="note">The detections table needs the page's script; the rules are listed below.</p></noscript>` +
    `<div id="rule-panel" class="rule-panel" hidden role="region" aria-label="Rule details"></div>` +
    `<details class="rules-list"${rules.length <= 30 ? ' open' : ''}><summary>Rules that matched (${rules.length})</summary>` +
    `<div class="scroll"><table id="rules-table"><thead><tr><th>Level</th><th>Rule</th><th>Matches</th><th>MITRE ATT&amp;CK</th></tr></thead><tbody></tbody></table></div></details>` +
    `<script type="application/json" id="det-data">${json}</script>` +
    `<script type="application/json" id="rule-data">${ruleDetailsBlock(sorted)}</script>`
  );
}
