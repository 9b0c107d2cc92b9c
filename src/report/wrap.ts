/**
 * Long values (paths, command lines, URLs, hash lists) in table cells: `<wbr>` after the
 * separators inside long tokens lets the browser wrap them there instead of mid-name, and long
 * separator-free runs (a hash, base64) get one every 20 characters, so no cell widens the page. `<wbr>` is not text: copying a cell gives the value unchanged.
 */
import { clip } from '../analysis/index.js';
import { esc } from './html.js';

/** Tokens shorter than this fit a cell anyway; leaving them alone keeps the markup small. */
const LONG_TOKEN = 16;
/** A break opportunity after a run of separators that is followed by more of the token. */
const AFTER_SEPARATOR = /(?<=[\\/,;&|=?.:_)\]}-])(?=[^\\/,;&|=?.:_)\]}\s-])/;
/** Runs without separators (hashes, base64) get a break opportunity every this many characters. */
const RUN = 20;

/** A piece between separators, escaped, cut by `<wbr>` every RUN characters if it is longer. */
function escRun(piece: string): string {
  if (piece.length <= LONG_TOKEN) return esc(piece);
  const chars = Array.from(piece); // by code point: a cut must not split a surrogate pair
  const chunks: string[] = [];
  for (let at = 0; at < chars.length; at += RUN) chunks.push(esc(chars.slice(at, at + RUN).join('')));
  return chunks.join('<wbr>');
}

/** Escapes `value` like `esc`, with a `<wbr>` after the separators inside long tokens. */
export function escWrap(value: unknown): string {
  return String(value ?? '')
    .split(/(\s+)/)
    .map((token) =>
      token.length < LONG_TOKEN ? esc(token) : token.split(AFTER_SEPARATOR).map(escRun).join('<wbr>'),
    )
    .join('');
}

/** Text cut to `max` characters (with an ellipsis), escaped with break opportunities. */
export function escClipWrap(value: unknown, max: number): string {
  return escWrap(clip(String(value ?? ''), max));
}

/**
 * Appended to the page's stylesheet. `break-word`, not `anywhere`: it does not shrink a column's
 * minimum width, so the table gives short words (a header, a time, `services.exe`) room to stay
 * whole and long values wrap at their `<wbr>`s; it still breaks what would overflow regardless.
 */
export const WRAP_STYLE = `
td, dl.meta dd, dl.meta dt, header h1, header p, .rule h3, .rule p { overflow-wrap: break-word; word-break: normal; }
th { overflow-wrap: normal; word-break: normal; }
dl.meta { grid-template-columns: minmax(0, max-content) minmax(0, 1fr); }
@media (max-width: 1100px) {
  header, main { padding-left: 12px; padding-right: 12px; }
  td, th button.sort { padding-left: 5px; }
  td { padding-right: 5px; }
  .matches td:last-child { min-width: 18em; }
}
`;
