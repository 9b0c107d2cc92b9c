/**
 * Chart insights as inline SVG: a bar per label for short series, a column chart for long ones
 * (events per hour over weeks). Sizes are presentation attributes, not `style`, so the page's
 * CSP needs no inline-style allowance; every label and value also sits in a `<title>` tooltip.
 */
import { esc, escClip } from './html.js';

const WIDTH = 760;
const LABEL_WIDTH = 300;
const ROW = 18;
const MAX_BARS = 30;
const COLUMN_HEIGHT = 160;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function bars(data: readonly (readonly [string, number])[], max: number): string {
  const plot = WIDTH - LABEL_WIDTH - 70;
  const rows = data.map(([label, value], i) => {
    const y = i * ROW;
    const w = max > 0 ? Math.max(1, Math.round((Math.max(0, value) / max) * plot)) : 1;
    return (
      `<g class="bar"><title>${esc(label)}: ${esc(fmt(value))}</title>` +
      `<text x="${LABEL_WIDTH - 6}" y="${y + 13}" text-anchor="end">${escClip(label, 44)}</text>` +
      `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${w}" height="${ROW - 6}"/>` +
      `<text x="${LABEL_WIDTH + w + 4}" y="${y + 13}">${esc(fmt(value))}</text></g>`
    );
  });
  const h = data.length * ROW;
  return `<svg class="chart" role="img" width="${WIDTH}" height="${h}" viewBox="0 0 ${WIDTH} ${h}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}</svg>`;
}

function columns(data: readonly (readonly [string, number])[], max: number): string {
  const step = WIDTH / data.length;
  const cols = data.map(([label, value], i) => {
    const h = max > 0 ? Math.max(1, Math.round((Math.max(0, value) / max) * COLUMN_HEIGHT)) : 1;
    const x = (i * step).toFixed(2);
    return `<rect x="${x}" y="${COLUMN_HEIGHT - h}" width="${Math.max(1, step - 1).toFixed(2)}" height="${h}"><title>${esc(label)}: ${esc(fmt(value))}</title></rect>`;
  });
  const first = data[0]?.[0] ?? '';
  const last = data[data.length - 1]?.[0] ?? '';
  const h = COLUMN_HEIGHT + 18;
  return (
    `<svg class="chart" role="img" width="${WIDTH}" height="${h}" viewBox="0 0 ${WIDTH} ${h}" xmlns="http://www.w3.org/2000/svg">` +
    `<g class="bar">${cols.join('')}</g>` +
    `<text x="0" y="${h - 4}">${escClip(first, 40)}</text>` +
    `<text x="${WIDTH}" y="${h - 4}" text-anchor="end">${escClip(last, 40)}</text>` +
    `<text x="${WIDTH}" y="12" text-anchor="end">max ${esc(fmt(max))}</text></svg>`
  );
}

/** The chart of `[label, value]` pairs; non-numeric values count as 0. */
export function chartSvg(data: readonly (readonly [unknown, unknown])[]): string {
  const clean = data.map(([l, v]) => [String(l), Number.isFinite(Number(v)) ? Number(v) : 0] as const);
  if (clean.length === 0) return '<p class="empty">No data.</p>';
  const max = clean.reduce((m, [, v]) => Math.max(m, v), 0);
  return clean.length <= MAX_BARS ? bars(clean, max) : columns(clean, max);
}
