/**
 * Long values (paths, command lines, URLs, hash lists) in table cells: `<wbr>` after the
 * separators inside long tokens lets the browser wrap them there instead of mid-name, and the
 * stylesheet's `overflow-wrap: anywhere` breaks what still does not fit (a bare hash) so no
 * cell widens the page. `<wbr>` is not text: copying a cell gives the value unchanged.
 */
import { clip } from '../analysis/index.js';
import { esc } from './html.js';

/** Tokens shorter than this fit a cell anyway; leaving them alone keeps the markup small. */
const LONG_TOKEN = 24;
/** A break opportunity after a run of separators that is followed by more of the token. */
const AFTER_SEPARATOR = /(?<=[\\/,;&|=?.:_)\]}-])(?=[^\\/,;&|=?.:_)\]}\s-])/;

/** Escapes `value` like `esc`, with a `<wbr>` after the separators inside long tokens. */
export function escWrap(value: unknown): string {
  return String(value ?? '')
    .split(/(\s+)/)
    .map((token) =>
      token.length < LONG_TOKEN ? esc(token) : token.split(AFTER_SEPARATOR).map(esc).join('<wbr>'),
    )
    .join('');
}

/** Text cut to `max` characters (with an ellipsis), escaped with break opportunities. */
export function escClipWrap(value: unknown, max: number): string {
  return escWrap(clip(String(value ?? ''), max));
}

/**
 * Appended to the page's stylesheet: cells, definitions and the title wrap long tokens (at the
 * `<wbr>`s first) rather than growing; the timeline's time columns stay on one line.
 */
export const WRAP_STYLE = `
td, th, dl.meta dd, dl.meta dt, header h1, header p, .rule h3, .rule p { overflow-wrap: anywhere; word-break: normal; }
dl.meta { grid-template-columns: minmax(0, max-content) minmax(0, 1fr); }
`;
