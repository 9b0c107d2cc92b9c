/** The Sigma section: each rule that matched, what its YAML says, and the events it matched. */
import { formatTime } from '../analysis/index.js';
import { LEVELS, levelRank } from '../sigma/index.js';
import { esc, escClip, table } from './html.js';
import type { ReportEvidence, ReportMatch, ReportRule } from './types.js';
import { escClipWrap, escWrap } from './wrap.js';

/** Matched events listed per rule (the count says how many there were in all). */
const MAX_SAMPLE = 200;
/** Most severe first, unknown levels last. */
const severityOrder = (level: string | undefined) => {
  const i = levelRank(level);
  return i < 0 ? LEVELS.length : LEVELS.length - 1 - i;
};

function list(label: string, values: readonly string[] | undefined, separator = '\n'): string {
  if (values === undefined || values.length === 0) return '';
  return `<dt>${esc(label)}</dt><dd>${values.map((v) => escClip(v, 500)).join(separator)}</dd>`;
}

/** A value with the rule's matched text in `<mark>`; spans outside the text are ignored. */
function marked(value: string, spans: ReportEvidence['spans']): string {
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (!(start >= at && end > start && end <= value.length)) continue;
    out += `${escWrap(value.slice(at, start))}<mark>${escWrap(value.slice(start, end))}</mark>`;
    at = end;
  }
  return out + escWrap(value.slice(at));
}

/** Hayabusa's Details, one field a line: the fields the rule matched first and highlighted. */
function evidenceHtml(m: ReportMatch): string {
  const fields = m.evidence ?? [];
  return fields
    .slice(0, 24)
    .map(
      (f) =>
        `<span class="ev${f.matched ? ' hit' : ''}"><span class="k">${escClip(f.name, 80)}</span> ${marked(
          String(f.value).slice(0, 2000),
          Array.isArray(f.spans) ? f.spans.slice(0, 16) : [],
        )}</span>`,
    )
    .join('');
}

function ruleHtml(r: ReportRule): string {
  const level = String(r.level ?? '').toLowerCase();
  const levelClass = levelRank(level) >= 0 ? level : 'none';
  const facts = [
    ['Level', r.level],
    ['Status', r.status],
    ['Rule ID', r.id],
    ['Kind', r.kind],
    ['Author', r.author],
    ['Source', r.source],
    ['Matches', String(r.matches)],
  ]
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${escClip(v, 1000)}</dd>`)
    .join('');
  const sample = r.sample.slice(0, MAX_SAMPLE);
  const rows = sample.map((m) => [
    esc(formatTime(m.timestamp)),
    esc(m.recordId || ''),
    escClip(m.computer ?? '', 200),
    escClip(m.channel ?? '', 200),
    escClipWrap(m.file ?? '', 300),
    evidenceHtml(m),
  ]);
  const more =
    r.matches > sample.length ? `<p class="note">First ${sample.length} of ${r.matches} matches.</p>` : '';
  return (
    `<div class="rule"><h3><span class="badge l-${levelClass}">${esc(r.level ?? 'no level')}</span> ${escClip(r.title, 500)}</h3>` +
    (r.description ? `<p>${escClip(r.description, 4000)}</p>` : '') +
    `<dl class="meta">${facts}${list('Tags', r.tags, ', ')}${list('References', r.references)}${list('False positives', r.falsepositives)}</dl>` +
    (rows.length > 0
      ? table(['Time', 'Record', 'Computer', 'Channel', 'File', 'Evidence'], rows, 'matches')
      : '') +
    `${more}</div>`
  );
}

/** Rules from the most severe level down, then by match count. */
export function sigmaHtml(rules: readonly ReportRule[], ran: boolean): string {
  if (!ran) return '<p class="empty">Sigma rules were not run.</p>';
  if (rules.length === 0) return '<p class="empty">No Sigma rule matched.</p>';
  const sorted = [...rules].sort(
    (a, b) =>
      severityOrder(a.level) - severityOrder(b.level) ||
      b.matches - a.matches ||
      (a.title < b.title ? -1 : 1),
  );
  const total = rules.reduce((n, r) => n + r.matches, 0);
  return `<p class="note">${total} matches of ${rules.length} rules.</p>${sorted.map(ruleHtml).join('\n')}`;
}
