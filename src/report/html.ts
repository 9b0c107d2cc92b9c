/**
 * HTML text building. Every piece of data (event text, rule text, file names) goes through
 * `esc`: first the one sanitiser for text a person reads (src/display: controls, bidi
 * overrides and invisible marks shown as escapes), then entities, so no input can open a tag,
 * an attribute or a comment, nor hide or reorder what the page shows.
 */
import { clip } from '../analysis/index.js';
import { displayBlock } from '../display/index.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Non-characters, which HTML text cannot carry and the sanitiser leaves alone. */
const NONCHARACTER = /[\ufffe\uffff]/g;

/** Escapes text for element content and double- or single-quoted attribute values. */
export function esc(value: unknown): string {
  return displayBlock(String(value ?? ''))
    .replace(NONCHARACTER, '\ufffd')
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
