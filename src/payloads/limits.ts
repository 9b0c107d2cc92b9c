/**
 * Every bound of the payload extractor, one place. Inputs are hostile: a log may hold a
 * gigabyte gzip bomb in 1 KB of base64, a base64 nested a thousand times, or a million script
 * blocks that never complete; each is cut at its bound with a diagnostic beside the good results.
 */
import { checkOptionKeys, invalidOption } from '../errors/index.js';

export interface PayloadLimits {
  /** Largest payload kept, in bytes (decoded bytes, or UTF-8 of text); more is cut. */
  readonly maxPayloadBytes: number;
  /** Decoding steps (base64, gzip, deflate, zlib) from a field's text to a payload. */
  readonly maxDepth: number;
  /** Payloads one event (or one script block) may yield, its nested decodes included. */
  readonly maxPayloadsPerEvent: number;
  /** Bytes those payloads may hold together (text counted 2 bytes a UTF-16 unit, as held). */
  readonly maxBytesPerEvent: number;
  /** Script blocks waiting for more parts; the oldest is emitted partial when one more arrives. */
  readonly maxPendingScriptBlocks: number;
  /** Text held by waiting script blocks, in bytes (2 per UTF-16 unit); the oldest is evicted past it. */
  readonly maxPendingScriptBlockBytes: number;
  /** Base64 shorter than this (characters) is not taken for a payload (words, GUID fragments). */
  readonly minBase64Chars: number;
  /** A quoted base64 literal (without FromBase64String around it) must be at least this long. */
  readonly minBase64LiteralChars: number;
  /** Diagnostics kept per extractor; later ones are counted in `droppedDiagnostics`. */
  readonly maxDiagnostics: number;
}

export const PAYLOAD_LIMITS: PayloadLimits = Object.freeze({
  maxPayloadBytes: 4 * 1024 * 1024,
  maxDepth: 8,
  maxPayloadsPerEvent: 64,
  maxBytesPerEvent: 32 * 1024 * 1024,
  maxPendingScriptBlocks: 1024,
  maxPendingScriptBlockBytes: 64 * 1024 * 1024,
  minBase64Chars: 8,
  minBase64LiteralChars: 200,
  maxDiagnostics: 1000,
});

const KNOWN = Object.fromEntries(Object.keys(PAYLOAD_LIMITS).map((k) => [k, true as const]));

export function resolveLimits(over: Partial<PayloadLimits> = {}): PayloadLimits {
  checkOptionKeys(over, KNOWN);
  const limits = { ...PAYLOAD_LIMITS, ...over };
  for (const [key, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value < 1)
      throw invalidOption(`limits.${key}`, 'a positive integer', value);
  return limits;
}
