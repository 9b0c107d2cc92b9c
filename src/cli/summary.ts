/** The `--summary` view: what a file holds at a glance. */
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import type { ParseStats } from '../parse/index.js';

export class Summary {
  files: { file: string; records: number; chunks: number; errors: number; warnings: number }[] = [];
  records = 0;
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  channels = new Map<string, number>();
  eventIds = new Map<string, number>();
  computers = new Set<string>();

  add(e: EvtxEvent): void {
    this.records++;
    if (e.timestamp < this.first) this.first = e.timestamp;
    if (e.timestamp > this.last) this.last = e.timestamp;
    this.channels.set(e.channel, (this.channels.get(e.channel) ?? 0) + 1);
    const key = `${e.channel} ${e.eventId}`;
    this.eventIds.set(key, (this.eventIds.get(key) ?? 0) + 1);
    if (e.computer) this.computers.add(e.computer);
  }

  addFile(file: string, stats: ParseStats, diagnostics: readonly Diagnostic[]): void {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    this.files.push({
      file,
      records: stats.records,
      chunks: stats.chunks,
      errors,
      warnings: diagnostics.length - errors,
    });
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const top = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '-');

export function renderSummary(s: Summary): string {
  const lines: string[] = [];
  for (const f of s.files) {
    lines.push(
      `${f.file}: ${plural(f.records, 'record')} in ${plural(f.chunks, 'chunk')}, ${plural(f.errors, 'error')}, ${plural(f.warnings, 'warning')}`,
    );
  }
  lines.push(`records: ${s.records}`);
  lines.push(`time range: ${iso(s.first)} .. ${iso(s.last)}`);
  lines.push(`computers: ${[...s.computers].sort().join(', ') || '-'}`);
  lines.push('channels:');
  for (const [k, v] of top(s.channels, 20)) lines.push(`  ${String(v).padStart(8)}  ${k}`);
  lines.push('top event ids:');
  for (const [k, v] of top(s.eventIds, 15)) lines.push(`  ${String(v).padStart(8)}  ${k}`);
  return `${lines.join('\n')}\n`;
}
