/**
 * How `tae payloads` shows a payload: a JSON line (content as `text`, or `base64` for bytes),
 * or a text block whose attacker-written parts have control characters escaped (a payload must
 * not drive the analyst's terminal). File names under `-o DIR` are generated from the index and
 * kind only, never from anything an event carried.
 */
import { displayBlock, displayLine } from '../display/index.js';
import type { DistinctPayload, PayloadKind } from '../payloads/index.js';
import type { YaraRuleMatch } from '../yara/index.js';

export interface ShownPayload {
  readonly index: number;
  readonly payload: DistinctPayload;
  readonly matches: readonly YaraRuleMatch[] | null;
  /** The file written under `-o DIR` (content is then not printed). */
  readonly file: string | null;
}

export const payloadFileName = (index: number, kind: PayloadKind, binary: boolean): string =>
  `${String(index).padStart(4, '0')}-${kind}.${binary ? 'bin' : 'txt'}`;

const size = (p: DistinctPayload) => (p.text !== undefined ? Buffer.byteLength(p.text) : p.bytes.length);

export function jsonLine(s: ShownPayload): string {
  const p = s.payload;
  const content =
    s.file !== null
      ? { file: s.file }
      : p.text !== undefined
        ? { text: p.text }
        : { base64: Buffer.from(p.bytes).toString('base64') };
  return `${JSON.stringify({
    index: s.index,
    kind: p.kind,
    computer: p.computer,
    label: p.label ?? null,
    field: p.provenance.field,
    within: p.provenance.within,
    layers: p.provenance.layers,
    depth: p.provenance.depth,
    partial: p.partial,
    truncated: p.truncated,
    ...(p.parts ? { parts: p.parts } : {}),
    bytes: size(p),
    sha256: p.sha256,
    occurrences: p.occurrences,
    records: p.records,
    ...(s.matches !== null
      ? { matches: s.matches.map((m) => ({ rule: m.rule, namespace: m.namespace, tags: m.tags })) }
      : {}),
    ...content,
  })}\n`;
}

function recordsText(p: DistinctPayload): string {
  const byFile = new Map<string, string[]>();
  for (const r of p.records) {
    const key = `${r.file ?? ''}\u0000${r.channel}`;
    byFile.set(key, [...(byFile.get(key) ?? []), String(r.recordId)]);
  }
  const more = p.occurrences > p.records.length ? ` (+${p.occurrences - p.records.length} more)` : '';
  return `${[...byFile].map(([k, ids]) => `${k.replace('\u0000', ' ').trim()}#${ids.join(',')}`).join(' ')}${more}`;
}

export function textBlock(s: ShownPayload): string {
  const p = s.payload;
  const flags = [p.partial ? 'partial' : '', p.truncated ? 'truncated' : ''].filter(Boolean).join(', ');
  const lines = [
    `== payload ${s.index}: ${p.kind}${flags ? ` (${flags})` : ''} on ${displayLine(p.computer)}`,
    `   records: ${displayLine(recordsText(p))}`,
    `   from: ${p.provenance.field}${p.provenance.within ? ` in ${p.provenance.within}` : ''}${p.provenance.layers.length ? ` via ${p.provenance.layers.join(' > ')}` : ''}${p.parts ? `, parts ${p.parts.present}/${p.parts.total}` : ''}`,
  ];
  if (p.label) lines.push(`   label: ${displayLine(p.label)}`);
  lines.push(`   ${size(p)} bytes, sha256 ${p.sha256}`);
  if (s.matches !== null)
    lines.push(`   yara: ${s.matches.length === 0 ? 'no match' : s.matches.map((m) => m.rule).join(', ')}`);
  if (s.file !== null) lines.push(`   written to ${s.file}`);
  else if (p.text !== undefined) lines.push(displayBlock(p.text).replace(/\n?$/, ''));
  else lines.push(`(binary; the first bytes: ${Buffer.from(p.bytes.subarray(0, 64)).toString('hex')})`);
  return `${lines.join('\n')}\n\n`;
}
