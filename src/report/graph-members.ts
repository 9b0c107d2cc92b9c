/**
 * What each summary node of the process graph stands for, embedded in the page as a JSON data
 * block for the expand script (graph-expand.ts) and the graph search (graph-nav.ts). A data block is not run, so the CSP needs no
 * allowance for it; the only way out of it is a `</script` in the text, and `scriptJson` escapes
 * every `<` (and `>`, `&`, the JavaScript line separators and what HTML cannot carry) as a JSON
 * `\u` escape, which `JSON.parse` reads back unchanged.
 */
import { clip } from '../analysis/index.js';
import { displayBlock } from '../display/index.js';

/** Ids kept over all summaries: the analyzer caps a graph at 25,000 processes. */
export const MAX_MEMBERS = 100_000;
/** An original node id is about 30 characters (`cmd.exe:7312@r57`); longer ones are cut. */
const MAX_ID = 300;
const SUMMARY_KEY = /^summary_\d{1,9}$/;

/** `summary_N` → its member ids, from a graph insight's metadata; anything else is ignored. */
export function summaryMembers(metadata: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (metadata === null || typeof metadata !== 'object') return out;
  let left = MAX_MEMBERS;
  for (const [key, value] of Object.entries(metadata)) {
    if (!SUMMARY_KEY.test(key) || !Array.isArray(value) || left <= 0) continue;
    const ids = value.slice(0, left).map((id) => clip(String(id), MAX_ID));
    left -= ids.length;
    out[key] = ids;
  }
  return out;
}

const UNSAFE_IN_SCRIPT = /[<>&\u007f\u2028\u2029\ufffe\uffff]/g;

/** JSON text that can sit inside `<script type="application/json">` whatever the strings hold. */
export function scriptJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    UNSAFE_IN_SCRIPT,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A summary's ids by image: `[image, "7312@r57", …]`, or `[null, id]` for an id without `:`. */
export type MemberGroup = [string | null, ...string[]];

/**
 * Ids grouped by the image before their last `:`, in first-seen order: each image is written
 * once, which halves the block for a summary of one image (`svchost.exe:2012@r1` → `2012@r1`).
 */
export function groupByImage(ids: readonly string[]): MemberGroup[] {
  const groups = new Map<string | null, MemberGroup>();
  for (const id of ids) {
    const colon = id.lastIndexOf(':');
    const image = colon < 0 ? null : id.slice(0, colon);
    const group = groups.get(image) ?? [image];
    if (group.length === 1) groups.set(image, group);
    group.push(colon < 0 ? id : id.slice(colon + 1));
  }
  return [...groups.values()];
}

/** The data block the expand script reads, or nothing when the graph has no summary. */
export function summaryDataBlock(metadata: unknown): string {
  const members = Object.entries(summaryMembers(metadata));
  if (members.length === 0) return '';
  // Shown with textContent: the same sanitiser as every other text of the page (esc).
  const data = Object.fromEntries(members.map(([key, ids]) => [key, groupByImage(ids.map(displayBlock))]));
  return `<script type="application/json" id="pg-summary-data">${scriptJson(data)}</script>`;
}
