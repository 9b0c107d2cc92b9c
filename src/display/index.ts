/**
 * The one sanitiser for text a person reads (terminal tables, summaries, progress, error
 * messages, the HTML report, Sigma evidence). Attacker-written characters that could drive a
 * terminal or hide and reorder text (C0 and C1 controls, DEL, bidi overrides and isolates,
 * zero-width and other invisible format characters, lone surrogates) are shown as visible
 * escapes: `\n`, `\r`, `\t`, `\xNN` below U+0100, `\u{NNNN}` above. A backslash is left as it
 * is: Windows paths are full of them, and the exact value is in the machine formats.
 *
 * Pure and dependency-free, so every layer that shows text can use it.
 */

const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The same characters, tab and newline aside: what a block of several lines may keep. */
const UNSAFE_IN_BLOCK =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Fast path: most text has none of them. */
const ANY_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u{${code.toString(16).toUpperCase()}}`;
}

/** One line of text: every unsafe character escaped, line breaks included. */
export function displayLine(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, visible) : text;
}

/**
 * Several lines of text: newlines (a CRLF becomes one) and tabs are kept, everything else
 * unsafe is escaped as in `displayLine`.
 */
export function displayBlock(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_BLOCK, visible);
}

/**
 * Non-ASCII characters of the unsafe set (C1 controls, DEL, bidi and invisible marks) in JSON
 * text, as `\uNNNN` escapes. JSON.stringify leaves them raw, and JSON printed to a terminal is
 * still read there; the escaped text parses to the same value. (Only strings can hold them.)
 */
const RAW_IN_JSON =
  /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

export function displayJson(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
