/**
 * Bytes as text: UTF-16LE (what PowerShell's -EncodedCommand carries, and .NET's Unicode
 * encoding), UTF-8, or not text at all (a PE, shellcode), which stays bytes.
 */

export type BytesReading =
  | { readonly kind: 'utf16le'; readonly text: string }
  | { readonly kind: 'utf8'; readonly text: string }
  | { readonly kind: 'binary' };

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const SAMPLE = 4096;

/** UTF-16LE when it starts with a BOM, or when most odd bytes of a sample are zero (Latin text). */
function looksUtf16le(b: Uint8Array): boolean {
  if (b.length < 2 || b.length % 2 !== 0) return false;
  if (b[0] === 0xff && b[1] === 0xfe) return true;
  const n = Math.min(b.length, SAMPLE);
  let zeros = 0;
  for (let i = 1; i < n; i += 2) if (b[i] === 0) zeros++;
  return zeros >= (n / 2) * 0.9;
}

/** Tab, LF, FF, CR, and ESC (scripts colour their output with escape sequences). */
const TEXT_CONTROLS = new Set([9, 10, 12, 13, 0x1b]);

/** Text is mostly printable: other control characters are rare. */
function printable(text: string): boolean {
  const n = Math.min(text.length, SAMPLE);
  if (n === 0) return false;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && !TEXT_CONTROLS.has(c)) || c === 0xfffd || c === 0x7f) bad++;
  }
  return bad <= n * 0.02;
}

/** `cut`: the bytes were cut at a bound, so they may end inside a character (half a UTF-16 unit). */
export function readBytes(bytes: Uint8Array, cut = false): BytesReading {
  const even = cut && bytes.length % 2 === 1 ? bytes.subarray(0, bytes.length - 1) : bytes;
  if (looksUtf16le(even)) {
    let text = Buffer.from(even.buffer, even.byteOffset, even.byteLength).toString('utf16le');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (printable(text)) return { kind: 'utf16le', text };
  }
  // A stream cut at a bound may end inside a character: up to 3 bytes may be dropped.
  for (let drop = 0; drop <= Math.min(3, bytes.length - 1); drop++) {
    try {
      let text = UTF8.decode(bytes.subarray(0, bytes.length - drop));
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return printable(text) ? { kind: 'utf8', text } : { kind: 'binary' };
    } catch {
      // not UTF-8 (yet): try without the last byte
    }
  }
  return { kind: 'binary' };
}

/** Cuts text to at most `maxBytes` of UTF-8 (at a character boundary); whether it was cut. */
export function clipText(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return { text, cut: false };
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > maxBytes) end = Math.floor(end * 0.9);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // never split a surrogate pair
  return { text: text.slice(0, end), cut: true };
}
