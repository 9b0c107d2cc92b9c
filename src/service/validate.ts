/** Checks at the door: request bodies are hostile until these say otherwise. */
import { isUuid } from '../crypto/index.js';
import type { TaeError } from '../errors/index.js';

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface IdListErrors {
  readonly empty: () => TaeError;
  readonly tooMany: () => TaeError;
  readonly bad: () => TaeError;
}

/** A non-empty array of at most `max` UUID strings; returned lowercased, without repeats. */
export function idList(value: unknown, max: number, errors: IdListErrors): string[] {
  if (!Array.isArray(value) || value.length === 0) throw errors.empty();
  if (value.length > max) throw errors.tooMany();
  const ids: string[] = [];
  for (const v of value) {
    if (!isUuid(v)) throw errors.bad();
    const id = v.toLowerCase();
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The text of a Base64 rule (standard or URL-safe alphabet; whitespace ignored), or null when
 * it is not a string, not Base64, empty or not UTF-8. Too long: `tooLong`.
 */
export function decodeBase64Text(value: unknown, maxBytes: number, tooLong: () => TaeError): string | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(/\s+/g, '');
  if (compact.length > Math.ceil(maxBytes / 3) * 4) throw tooLong();
  if (compact.length === 0) return null;
  const url = !BASE64.test(compact);
  if (url && !BASE64URL.test(compact)) return null;
  const bytes = Buffer.from(compact, url ? 'base64url' : 'base64');
  if (bytes.length === 0) return null;
  if (bytes.length > maxBytes) throw tooLong();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
