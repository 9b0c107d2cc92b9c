/**
 * One candidate decoded: base64 (standard or URL-safe, whitespace ignored), then any compressed
 * stream it holds (gzip and zlib by their magic, raw deflate when the text around it names a
 * DeflateStream), read as UTF-16LE or UTF-8 text, or kept as bytes. Sizes are capped before any
 * allocation: base64 is cut to what decodes to the cap, inflation stops at it.
 */
import { base64ByteLength, cleanBase64, decodeBase64 } from '../base64/index.js';
import type { Candidate } from './finders.js';
import { compressionOf, inflate } from './inflate.js';
import type { PayloadLimits } from './limits.js';
import { readBytes } from './text.js';
import type { DecodeLayer, PayloadContent, PayloadDiagnosticCode } from './types.js';

export interface Decoded {
  readonly content: PayloadContent;
  readonly layers: readonly DecodeLayer[];
  /** Decoding steps taken (layers other than utf16le). */
  readonly steps: number;
  readonly truncated: boolean;
}

export type Report = (code: PayloadDiagnosticCode, message: string) => void;

const DEFLATE_HINT = /DeflateStream/i;

/** Base64 that `cleanBase64` refuses only for a stray trailing character (a quote's neighbour). */
function clean(base64: string): string | null {
  const c = cleanBase64(base64);
  if (c !== null) return c;
  const trimmed = base64.replace(/\s+/g, '').replace(/=+$/, '');
  return cleanBase64(trimmed.length % 4 === 1 ? trimmed.slice(0, -1) : trimmed);
}

/**
 * Decodes `candidate` found in `around` at `depth` (steps already taken to reach that text).
 * Null when it is not base64, or when an encoded command does not decode to text.
 */
export function decodeCandidate(
  candidate: Candidate,
  around: string,
  depth: number,
  limits: PayloadLimits,
  report: Report,
): Decoded | null {
  let b64 = clean(candidate.base64);
  if (b64 === null) return null;
  const max = limits.maxPayloadBytes;
  let truncated = false;
  if (base64ByteLength(b64) > max) {
    b64 = b64.slice(0, Math.floor(max / 3) * 4);
    truncated = true;
    report(
      'payload.too_large',
      `base64 of ${base64ByteLength(candidate.base64.replace(/\s+/g, ''))} bytes cut to ${max}`,
    );
  }
  let bytes: Uint8Array = decodeBase64(b64);
  const layers: DecodeLayer[] = ['base64'];
  let steps = 1;
  for (;;) {
    const magic = compressionOf(bytes);
    const kind = magic ?? (steps === 1 && DEFLATE_HINT.test(around) ? 'deflate' : null);
    if (kind === null) break;
    if (depth + steps >= limits.maxDepth) {
      report(
        'payload.too_deep',
        `a ${kind} stream at depth ${depth + steps} was left compressed (limit ${limits.maxDepth})`,
      );
      break;
    }
    const r = inflate(kind, bytes, max);
    if (r.kind === 'failed') {
      if (kind === 'gzip') report('payload.inflate_failed', `gzip stream does not inflate: ${r.message}`);
      break;
    }
    if (r.truncated) {
      truncated = true;
      report('payload.too_large', `${kind} stream inflates past ${max} bytes: cut at the bound`);
    }
    bytes = r.bytes;
    layers.push(kind);
    steps++;
  }
  const reading = readBytes(bytes, truncated);
  switch (reading.kind) {
    case 'binary':
      if (candidate.mustBeText || bytes.length === 0) return null;
      return { content: { bytes }, layers, steps, truncated };
    case 'utf16le':
      return { content: { text: reading.text }, layers: [...layers, 'utf16le'], steps, truncated };
    case 'utf8':
      return { content: { text: reading.text }, layers, steps, truncated };
    default:
      return reading satisfies never;
  }
}
