/**
 * Base64 as clients send it, one reading for every endpoint: the standard or the URL-safe
 * alphabet, whitespace (line breaks) ignored, padding optional but only where it belongs.
 */

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/** The base64 text without whitespace, or null when `text` is not a string of base64. */
export function cleanBase64(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const clean = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (!STANDARD.test(clean) && !URL_SAFE.test(clean)) return null;
  if (clean.endsWith('=') ? clean.length % 4 !== 0 : clean.length % 4 === 1) return null;
  return clean;
}

/** Exact decoded length of clean base64 text, computed without decoding it. */
export function base64ByteLength(clean: string): number {
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor(((clean.length - pad) * 3) / 4);
}

/** Decodes clean base64 text of either alphabet (Node's decoder reads both). */
export const decodeBase64 = (clean: string): Buffer => Buffer.from(clean, 'base64');

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a Base64 `rule` field (both data endpoints, both file jobs, `runSigma`,
 * `runYara`), or null for the spec's "operation is run_rule without a usable rule" (422
 * `Rule is required`): not Base64, bytes that are not well-formed UTF-8, or blank text.
 * Strict because a lenient decoder turns bad bytes into U+FFFD: the rule run would be another
 * rule than the one sent, or a parser complaint answered as a result. Past `limit.maxBytes`
 * decoded, `limit.tooLarge()` is thrown before anything is decoded.
 */
export function decodeRuleText(
  value: unknown,
  limit?: { readonly maxBytes: number; readonly tooLarge: () => Error },
): string | null {
  const clean = cleanBase64(value);
  if (clean === null || clean === '') return null;
  if (limit !== undefined && base64ByteLength(clean) > limit.maxBytes) throw limit.tooLarge();
  let text: string;
  try {
    text = STRICT_UTF8.decode(decodeBase64(clean));
  } catch {
    return null;
  }
  return text.trim() === '' ? null : text;
}
