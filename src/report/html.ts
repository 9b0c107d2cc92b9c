/**
 * HTML text building. Every piece of data (event text, rule text, file names) goes through
 * `esc`, which also drops characters HTML cannot carry, so no input can open a tag, an
 * attribute or a comment.
 */
import { clip } from '../analysis/index.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** C0 controls other than tab and newline, lone surrogates and non-characters: not valid in HTML text. */
const INVALID =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for element content and double- or single-quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(INVALID, '\ufffd')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text cut to `max` characters (with an ellipsis), escaped. */
export function escClip(value: unknown, max: number): string {
  return esc(clip(String(value ?? ''), max));
}

/** Lowercase, `-`-joined ASCII id fragment for anchors and class names. */
export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'section'
  );
}

/** One table: a header row and body rows of already-escaped cells. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], cls = ''): string {
  const head = `<thead><tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>`;
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<div class="scroll"><table${cls ? ` class="${cls}"` : ''}>${head}<tbody>\n${body}\n</tbody></table></div>`;
}
