/**
 * Values formatted straight from the chunk bytes into a sink: the same text as
 * `Value.text` (see values.ts), escaped for its context, without building JS strings.
 */
import { i32, u32 } from './bytes.js';
import { jsonString } from './render-json.js';
import type { Sink } from './sink.js';
import { secondsText, toMicrosecondText } from './time.js';
import { VALUE_TYPE as T } from './tree.js';
import { boolAt, type Value } from './values.js';
import { escapeXmlAttr, escapeXmlText, visibleEscape } from './xml-text.js';

/** How text is escaped: not at all, inside a JSON string, XML text, XML attribute value. */
export type Esc = 0 | 1 | 2 | 3;
export const ESC_NONE = 0;
export const ESC_JSON = 1;
export const ESC_XML_TEXT = 2;
export const ESC_XML_ATTR = 3;

/**
 * Per escape mode, the ASCII code units that need more than a copy (NUL ends a string). XML
 * adds the controls it forbids and the backslash (see xml-text.ts), so clean text costs no
 * more than the table lookup every code unit already had.
 */
const SPECIAL: Uint8Array[] = [0, 1, 2, 3].map((mode) => {
  const t = new Uint8Array(128);
  t[0] = 1;
  if (mode === ESC_JSON) {
    for (let c = 0; c < 0x20; c++) t[c] = 1;
    t[0x22] = 1;
    t[0x5c] = 1;
  } else if (mode !== ESC_NONE) {
    for (let c = 0; c < 0x20; c++) t[c] = c === 0x9 || c === 0xa || c === 0xd ? 0 : 1;
    t[0x26] = 1;
    t[0x3c] = 1;
    t[0x3e] = 1;
    t[0x5c] = 1;
    if (mode === ESC_XML_ATTR) {
      t[0x22] = 1;
      t[0x9] = 1;
      t[0xa] = 1;
      t[0xd] = 1;
    }
  }
  return t;
});

const HEX_UPPER = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70];
const HEX_LOWER = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/** JSON's short escapes; other control characters become `\u00XX` (upper case, as the crate writes). */
const JSON_SHORT: Readonly<Record<number, number>> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };
const XML_ENTITY: Readonly<Record<number, string>> = {
  38: '&amp;',
  60: '&lt;',
  62: '&gt;',
  34: '&quot;',
  9: '&#9;',
  10: '&#10;',
  13: '&#13;',
};

/** Writes xml-text.ts's `\u{X}` for a code unit XML forbids; returns the new position. */
function writeVisible(buf: Buffer, p: number, c: number): number {
  const e = visibleEscape(c);
  for (let k = 0; k < e.length; k++) buf[p++] = e.charCodeAt(k);
  return p;
}

/**
 * UTF-16LE at `o` (up to `units` code units or the first NUL) as UTF-8, escaped. Lone
 * surrogates become U+FFFD, as the UTF-16 decoder does elsewhere.
 */
export function writeUtf16(sink: Sink, b: Uint8Array, o: number, units: number, esc: Esc): void {
  sink.ensure(units * 8); // `\u{FFFE}` is the longest escape of one unit
  const buf = sink.buf;
  const special = SPECIAL[esc]!;
  let p = sink.pos;
  const end = o + units * 2;
  for (let i = o; i < end; i += 2) {
    const c = b[i]! | (b[i + 1]! << 8);
    if (c < 0x80) {
      if (special[c] === 0) {
        buf[p++] = c;
        continue;
      }
      if (c === 0) break;
      if (esc === ESC_JSON) {
        buf[p++] = 0x5c;
        const short = c === 0x22 || c === 0x5c ? c : JSON_SHORT[c];
        if (short !== undefined) buf[p++] = short;
        else {
          buf[p] = 0x75; // u00XX
          buf[p + 1] = 48;
          buf[p + 2] = 48;
          buf[p + 3] = HEX_UPPER[c >> 4]!;
          buf[p + 4] = HEX_UPPER[c & 15]!;
          p += 5;
        }
      } else if (c === 0x5c) {
        // Paths are full of backslashes: only one that the text follows with `u{` is escaped.
        const opens =
          i + 5 < end && b[i + 2] === 0x75 && b[i + 3] === 0 && b[i + 4] === 0x7b && b[i + 5] === 0;
        if (opens) p = writeVisible(buf, p, c);
        else buf[p++] = c;
      } else {
        const entity = XML_ENTITY[c];
        if (entity === undefined) p = writeVisible(buf, p, c);
        else for (let k = 0; k < entity.length; k++) buf[p++] = entity.charCodeAt(k);
      }
    } else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 63);
    } else if (c < 0xd800 || c > 0xdfff) {
      if (c >= 0xfffe && esc >= ESC_XML_TEXT) {
        p = writeVisible(buf, p, c);
        continue;
      }
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 63);
      buf[p++] = 0x80 | (c & 63);
    } else {
      const lo = i + 3 < end ? b[i + 2]! | (b[i + 3]! << 8) : 0;
      if (c < 0xdc00 && lo >= 0xdc00 && lo <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        buf[p++] = 0xf0 | (cp >> 18);
        buf[p++] = 0x80 | ((cp >> 12) & 63);
        buf[p++] = 0x80 | ((cp >> 6) & 63);
        buf[p++] = 0x80 | (cp & 63);
        i += 2;
      } else {
        buf[p++] = 0xef;
        buf[p++] = 0xbf;
        buf[p++] = 0xbd;
      }
    }
  }
  sink.pos = p;
}

/** Escapes text that is not in the chunk as UTF-16 (ANSI strings, arrays). */
function escapeString(s: string, esc: Esc): string {
  if (esc === ESC_JSON) return jsonString(s).slice(1, -1);
  if (esc === ESC_XML_TEXT) return escapeXmlText(s);
  return esc === ESC_XML_ATTR ? escapeXmlAttr(s) : s;
}

/** Writes `v`'s text; `micro` truncates timestamps to microseconds (the crate's JSON). */
export function writeValue(sink: Sink, v: Value, esc: Esc, micro: boolean): void {
  const b = v.bytes;
  const o = v.offset;
  switch (v.type) {
    case T.NULL:
      return;
    case T.STRING:
      writeUtf16(sink, b, o, v.size >>> 1, esc);
      return;
    case T.INT8:
      writeInt(sink, (b[o]! << 24) >> 24);
      return;
    case T.UINT8:
      writeInt(sink, b[o]!);
      return;
    case T.INT16:
      writeInt(sink, ((b[o]! | (b[o + 1]! << 8)) << 16) >> 16);
      return;
    case T.UINT16:
      writeInt(sink, b[o]! | (b[o + 1]! << 8));
      return;
    case T.INT32:
      writeInt(sink, i32(b, o));
      return;
    case T.UINT32:
      writeInt(sink, u32(b, o));
      return;
    case T.INT64: {
      const hi = i32(b, o + 4);
      if (hi >= -0x200000 && hi < 0x200000) writeInt(sink, hi * 0x100000000 + u32(b, o));
      else sink.ascii(v.text);
      return;
    }
    case T.UINT64: {
      const hi = u32(b, o + 4);
      if (hi < 0x200000) writeInt(sink, hi * 0x100000000 + u32(b, o));
      else sink.ascii(v.text);
      return;
    }
    case T.BOOL:
      sink.ascii(boolAt(b, o, v.size) ? 'true' : 'false');
      return;
    case T.GUID:
      writeGuid(sink, b, o);
      return;
    case T.FILETIME:
      writeFiletime(sink, b, o, micro);
      return;
    case T.SYSTEMTIME:
      sink.ascii(micro ? toMicrosecondText(v.text) : v.text);
      return;
    case T.HEX_INT32:
      writeHex(sink, 0, u32(b, o));
      return;
    case T.HEX_INT64:
      writeHex(sink, u32(b, o + 4), u32(b, o));
      return;
    case T.BINARY:
      writeHexBytes(sink, b, o, v.size);
      return;
    case T.REAL32:
    case T.REAL64:
    case T.SID:
      sink.ascii(v.text);
      return;
    default:
      sink.text(escapeString(micro ? microText(v) : v.text, esc));
  }
}

/** An array's text with its timestamps in microseconds, as the crate's JSON has them. */
function microText(v: Value): string {
  const base = v.type & 0x7f;
  if (v.items === null || (base !== T.FILETIME && base !== T.SYSTEMTIME)) return v.text;
  return v.items.map(toMicrosecondText).join(',');
}

function writeInt(sink: Sink, n: number): void {
  sink.ensure(21);
  const buf = sink.buf;
  let p = sink.pos;
  if (n < 0) {
    buf[p++] = 45;
    n = -n;
  }
  let len = 1;
  for (let t = n; t >= 10; t = Math.floor(t / 10)) len++;
  let q = p + len;
  for (let t = n; q > p; t = Math.floor(t / 10)) buf[--q] = 48 + (t % 10);
  sink.pos = p + len;
}

/** `0x` and lower-case hex without leading zeros of the 64-bit value hi:lo. */
function writeHex(sink: Sink, hi: number, lo: number): void {
  sink.ensure(18);
  const buf = sink.buf;
  let p = sink.pos;
  buf[p++] = 48;
  buf[p++] = 120;
  let started = false;
  for (let shift = 28; shift >= 0; shift -= 4) {
    const d = (hi >>> shift) & 15;
    if (d !== 0 || started) {
      buf[p++] = HEX_LOWER[d]!;
      started = true;
    }
  }
  for (let shift = 28; shift >= 0; shift -= 4) {
    const d = (lo >>> shift) & 15;
    if (d !== 0 || started || shift === 0) {
      buf[p++] = HEX_LOWER[d]!;
      started = true;
    }
  }
  sink.pos = p;
}

function writeHexBytes(sink: Sink, b: Uint8Array, o: number, n: number): void {
  sink.ensure(n * 2);
  const buf = sink.buf;
  let p = sink.pos;
  for (let i = 0; i < n; i++) {
    const x = b[o + i]!;
    buf[p++] = HEX_UPPER[x >> 4]!;
    buf[p++] = HEX_UPPER[x & 15]!;
  }
  sink.pos = p;
}

const GUID_ORDER = [3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1, 8, 9, -1, 10, 11, 12, 13, 14, 15];

function writeGuid(sink: Sink, b: Uint8Array, o: number): void {
  sink.ensure(36);
  const buf = sink.buf;
  let p = sink.pos;
  for (let k = 0; k < GUID_ORDER.length; k++) {
    const i = GUID_ORDER[k]!;
    if (i < 0) buf[p++] = 45;
    else {
      const x = b[o + i]!;
      buf[p++] = HEX_UPPER[x >> 4]!;
      buf[p++] = HEX_UPPER[x & 15]!;
    }
  }
  sink.pos = p;
}

const TWO_POW_32_MOD_1E7 = 4294967296 % 10000000;
const SECONDS_1601_TO_1970 = 11644473600;

/** Same arithmetic as `filetimeParts`; values were range-checked when decoded. */
function writeFiletime(sink: Sink, b: Uint8Array, o: number, micro: boolean): void {
  const lo = u32(b, o);
  const hi = u32(b, o + 4);
  const ticks = ((hi % 10000000) * TWO_POW_32_MOD_1E7 + (lo % 10000000)) % 10000000;
  const seconds = (hi * 4294967296 + (lo - ticks)) / 10000000 - SECONDS_1601_TO_1970;
  const base = secondsText(seconds) ?? '';
  sink.ensure(28);
  const buf = sink.buf;
  let p = sink.pos;
  for (let i = 0; i < base.length; i++) buf[p++] = base.charCodeAt(i);
  buf[p++] = 46;
  let digits = micro ? 6 : 7;
  let t = micro ? Math.floor(ticks / 10) : ticks;
  p += digits;
  for (let q = p - 1; digits > 0; digits--, q--) {
    buf[q] = 48 + (t % 10);
    t = Math.floor(t / 10);
  }
  buf[p++] = 90;
  sink.pos = p;
}
