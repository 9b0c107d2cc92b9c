/**
 * Encoding modifiers: UTF-16 variants produce bytes, base64 turns bytes (or UTF-8 text) into
 * case-sensitive literals, since base64 text is case-sensitive.
 */
import { fail } from '../diagnostics.js';
import { asString, type SigmaType } from '../values.js';
import { hasWildcard, plainText } from '../wildcard.js';
import { expectKind, type Modifier, type ModifierContext } from './types.js';

function textOf(v: SigmaType, ctx: ModifierContext): string {
  const s = asString(v) ?? expectKind(v, ['string'], ctx);
  if (hasWildcard(s.parts))
    fail(
      'value.wildcard',
      `modifier '${ctx.name}' cannot encode a value with wildcards ('${plainText(s.parts)}')`,
    );
  return plainText(s.parts);
}

function bytesOf(v: SigmaType, ctx: ModifierContext): Uint8Array {
  if (v.kind === 'bytes') return v.bytes;
  return new TextEncoder().encode(textOf(v, ctx));
}

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const offset = bom ? 2 : 0;
  const out = new Uint8Array(offset + text.length * 2);
  if (bom) out.set(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[offset + 2 * i + (bigEndian ? 1 : 0)] = c & 0xff;
    out[offset + 2 * i + (bigEndian ? 0 : 1)] = c >> 8;
  }
  return out;
}

const base64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};
const literal = (text: string): SigmaType => ({ kind: 'string', parts: [text], cased: true });

export const utf16le: Modifier = {
  kind: 'value',
  apply: (v, ctx) => ({ kind: 'bytes', bytes: utf16(textOf(v, ctx), false, false) }),
};
export const utf16be: Modifier = {
  kind: 'value',
  apply: (v, ctx) => ({ kind: 'bytes', bytes: utf16(textOf(v, ctx), true, false) }),
};
/** `utf16` is UTF-16 with a byte-order mark, little-endian as Windows writes it. */
export const utf16bom: Modifier = {
  kind: 'value',
  apply: (v, ctx) => ({ kind: 'bytes', bytes: utf16(textOf(v, ctx), false, true) }),
};

export const base64Modifier: Modifier = {
  kind: 'value',
  apply: (v, ctx) => literal(base64(bytesOf(v, ctx))),
};

const START = [0, 2, 3] as const;
const END = [undefined, -3, -2] as const;

/**
 * The three ways a value can appear inside a longer base64 text, depending on its byte offset
 * modulo 3: the characters shared by every encoding of the surrounding data are kept.
 */
export function base64OffsetVariants(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    const shifted = new Uint8Array(i + bytes.length);
    shifted.fill(0x20, 0, i);
    shifted.set(bytes, i);
    const encoded = base64(shifted);
    out.push(encoded.slice(START[i], END[(bytes.length + i) % 3]));
  }
  return out;
}

export const base64offset: Modifier = {
  kind: 'value',
  apply: (v, ctx) => ({ kind: 'expansion', values: base64OffsetVariants(bytesOf(v, ctx)).map(literal) }),
};
