/** Decoding of BinXML values (substitutions and inline value tokens) into typed text. */
import { hex64Text, hexUpper, i32, i64Text, u16, u32, u64Text, utf16, utf16UntilNul } from './bytes.js';
import { filetimeAt, filetimeInRange, filetimeMsAt, systemtimeAt } from './time.js';
import { VALUE_TYPE as T, type XmlValue } from './tree.js';

const ansiDecoder = new TextDecoder('windows-1252');

/** Sizes of the fixed-width types; arrays of them hold `size / width` items. */
const WIDTH: Readonly<Record<number, number>> = {
  [T.INT8]: 1,
  [T.UINT8]: 1,
  [T.INT16]: 2,
  [T.UINT16]: 2,
  [T.INT32]: 4,
  [T.UINT32]: 4,
  [T.INT64]: 8,
  [T.UINT64]: 8,
  [T.REAL32]: 4,
  [T.REAL64]: 8,
  [T.BOOL]: 4,
  [T.GUID]: 16,
  [T.FILETIME]: 8,
  [T.SYSTEMTIME]: 16,
  [T.HEX_INT32]: 4,
  [T.HEX_INT64]: 8,
};

export class ValueError extends Error {}

/**
 * A decoded value. Validation happens when it is read (so a bad value fails its record at
 * parse time) but its text is only formatted on first use: compiled renderers write most
 * values straight from the chunk bytes (see write-value.ts) and never ask for it.
 * A record makes one per substitution, so it is kept small: five own fields; `kind` and the
 * array fields live on the prototype (arrays are `ArrayValue`s).
 */
export class Value implements XmlValue {
  declare readonly kind: 'value';
  /** An array's items as text, null for a single value. */
  declare readonly items: readonly string[] | null;
  /** An array's items as values (compiled templates fill them one by one). */
  declare readonly parts: readonly Value[] | null;
  private formatted: string | null;

  constructor(
    readonly bytes: Uint8Array,
    readonly offset: number,
    readonly size: number,
    readonly type: number,
    text: string | null,
  ) {
    this.formatted = text;
  }

  /** True when the text is empty (NULL, empty or NUL-led strings, empty binary…). */
  get empty(): boolean {
    const f = this.formatted;
    return f === null ? isEmptyAt(this.bytes, this.offset, this.size, this.type) : f.length === 0;
  }

  get text(): string {
    this.formatted ??= textAt(this.bytes, this.offset, this.size, this.type);
    return this.formatted;
  }
}
Object.defineProperties(Value.prototype, {
  kind: { value: 'value' },
  items: { value: null, writable: true },
  parts: { value: null, writable: true },
});

/** An array value: its items, as text and as values. */
class ArrayValue extends Value {
  declare readonly items: readonly string[];
  declare readonly parts: readonly Value[];

  constructor(b: Uint8Array, o: number, size: number, type: number, items: string[], parts: Value[]) {
    super(b, o, size, type, items.join(','));
    Object.defineProperty(this, 'items', { value: items, enumerable: true });
    Object.defineProperty(this, 'parts', { value: parts, enumerable: true });
  }
}

function isEmptyAt(b: Uint8Array, o: number, size: number, type: number): boolean {
  switch (type) {
    case T.STRING:
      return size < 2 || (b[o] === 0 && b[o + 1] === 0);
    case T.ANSI_STRING:
      return size === 0 || b[o] === 0;
    case T.BINARY:
      return size === 0;
    default:
      return false;
  }
}

function textAt(b: Uint8Array, o: number, size: number, type: number): string {
  switch (type) {
    case T.STRING:
      return utf16UntilNul(b, o, size >>> 1);
    case T.ANSI_STRING:
      return ansiUntilNul(b, o, size);
    case T.BINARY:
      return hexUpper(b, o, size);
    case T.SID:
      return sidText(b, o, size);
    default:
      return fixedText(b, o, type, size);
  }
}

/**
 * The number a single integer value's text reads as, without making the text: what
 * `Number(text)` gives for the decimal types (a UInt64 above 2^53 rounds alike, both being the
 * nearest double); undefined for every other type (hex, floats, times, strings, arrays, NULL).
 */
export function integerOf(v: XmlValue): number | undefined {
  if (!(v instanceof Value) || v.items !== null) return undefined;
  const b = v.bytes;
  const o = v.offset;
  switch (v.type) {
    case T.INT8:
      return (b[o]! << 24) >> 24;
    case T.UINT8:
      return b[o]!;
    case T.INT16:
      return (u16(b, o) << 16) >> 16;
    case T.UINT16:
      return u16(b, o);
    case T.INT32:
      return i32(b, o);
    case T.UINT32:
      return u32(b, o);
    case T.UINT64:
      return u32(b, o + 4) * 4294967296 + u32(b, o);
    default:
      return undefined;
  }
}

/** A single FILETIME value's milliseconds since the Unix epoch (floored); undefined for other values. */
export function filetimeMsOf(v: XmlValue): number | undefined {
  if (!(v instanceof Value) || v.items !== null || v.type !== T.FILETIME) return undefined;
  return filetimeMsAt(v.bytes, v.offset) ?? undefined;
}

const NO_BYTES = new Uint8Array(0);
export const nullValue: XmlValue = new Value(NO_BYTES, 0, 0, T.NULL, '');

const lazy = (b: Uint8Array, o: number, size: number, type: number): Value =>
  new Value(b, o, size, type, null);

/** Decodes one value of `type` stored in `size` bytes at `o`. BinXML (0x21) is handled by the caller. */
export function decodeValue(b: Uint8Array, o: number, size: number, type: number): Value {
  if (type & T.ARRAY) return decodeArray(b, o, size, type & 0x7f);
  switch (type) {
    case T.NULL:
      return nullValue as Value;
    case T.STRING:
    case T.ANSI_STRING:
    case T.BINARY:
      return lazy(b, o, size, type);
    case T.SID:
      if (size < 8) throw new ValueError(`SID of ${size} bytes`);
      return lazy(b, o, size, type);
    case T.SIZE_T:
      if (size === 4) return lazy(b, o, size, T.HEX_INT32);
      if (size === 8) return lazy(b, o, size, T.HEX_INT64);
      throw new ValueError(`SizeT value of ${size} bytes`);
    case T.EVT_HANDLE:
    case T.EVT_XML:
      throw new ValueError(`unsupported value type 0x${type.toString(16)}`);
    default: {
      const width = WIDTH[type];
      if (width === undefined) throw new ValueError(`unknown value type 0x${type.toString(16)}`);
      if (size < width)
        throw new ValueError(`value of type 0x${type.toString(16)} needs ${width} bytes, has ${size}`);
      if (type === T.FILETIME && !filetimeInRange(b, o)) throw new ValueError('FILETIME out of range');
      // Rare, and validating it is most of the work of formatting it.
      if (type === T.SYSTEMTIME) return new Value(b, o, size, type, fixedText(b, o, type, size));
      return lazy(b, o, size, type);
    }
  }
}

/** Text of one fixed-width item; `size` matters only for booleans stored in fewer than 4 bytes. */
export function fixedText(b: Uint8Array, o: number, type: number, size = WIDTH[type] ?? 0): string {
  switch (type) {
    case T.INT8:
      return String((b[o]! << 24) >> 24);
    case T.UINT8:
      return String(b[o]!);
    case T.INT16:
      return String((u16(b, o) << 16) >> 16);
    case T.UINT16:
      return String(u16(b, o));
    case T.INT32:
      return String(i32(b, o));
    case T.UINT32:
      return String(u32(b, o));
    case T.INT64:
      return i64Text(b, o);
    case T.UINT64:
      return u64Text(b, o);
    case T.REAL32:
      return floatText(new DataView(b.buffer, b.byteOffset).getFloat32(o, true), true);
    case T.REAL64:
      return floatText(new DataView(b.buffer, b.byteOffset).getFloat64(o, true), false);
    case T.BOOL:
      return boolAt(b, o, size) ? 'true' : 'false';
    case T.GUID:
      return guidText(b, o);
    case T.FILETIME: {
      const t = filetimeAt(b, o);
      if (t === null) throw new ValueError('FILETIME out of range');
      return t.text;
    }
    case T.SYSTEMTIME: {
      const t = systemtimeAt(b, o);
      if (t === null) throw new ValueError('invalid SYSTEMTIME');
      return t.text;
    }
    case T.HEX_INT32:
      return `0x${u32(b, o).toString(16)}`;
    case T.HEX_INT64:
      return hex64Text(b, o);
    default:
      throw new ValueError(`unknown value type 0x${type.toString(16)}`);
  }
}

export function boolAt(b: Uint8Array, o: number, size: number): boolean {
  for (let i = 0; i < Math.min(size, 4); i++) if (b[o + i] !== 0) return true;
  return false;
}

function decodeArray(b: Uint8Array, o: number, size: number, itemType: number): Value {
  const items: string[] = [];
  const parts: Value[] = [];
  const item = (at: number, bytes: number, text: string) => {
    items.push(text);
    parts.push(new Value(b, at, bytes, itemType, text));
  };
  if (itemType === T.STRING) {
    let start = o;
    const end = o + (size & ~1);
    for (let p = o; p < end; p += 2) {
      if (b[p] === 0 && b[p + 1] === 0) {
        item(start, p - start, utf16(b, start, (p - start) >>> 1));
        start = p + 2;
      }
    }
    if (start < end) item(start, end - start, utf16(b, start, (end - start) >>> 1));
  } else {
    const width = WIDTH[itemType];
    if (width === undefined) throw new ValueError(`unknown array item type 0x${itemType.toString(16)}`);
    for (let p = o; p + width <= o + size; p += width) item(p, width, fixedText(b, p, itemType, width));
  }
  return new ArrayValue(b, o, size, itemType | T.ARRAY, items, parts);
}

function ansiUntilNul(b: Uint8Array, o: number, size: number): string {
  let n = 0;
  while (n < size && b[o + n] !== 0) n++;
  return ansiDecoder.decode(b.subarray(o, o + n));
}

const HEX_CODES = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));
const DASH = 0x2d;

/**
 * `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, the first three groups little-endian. Made from its 36
 * character codes at once: appending 20 pieces made a string for each (events carry several
 * GUIDs; this was the decoder's largest allocation).
 */
export function guidText(b: Uint8Array, o: number): string {
  const hi = (i: number): number => HEX_CODES[b[o + i]! >> 4]!;
  const lo = (i: number): number => HEX_CODES[b[o + i]! & 15]!;
  // biome-ignore format: the GUID's layout, a group per line
  return String.fromCharCode(
    hi(3), lo(3), hi(2), lo(2), hi(1), lo(1), hi(0), lo(0), DASH,
    hi(5), lo(5), hi(4), lo(4), DASH,
    hi(7), lo(7), hi(6), lo(6), DASH,
    hi(8), lo(8), hi(9), lo(9), DASH,
    hi(10), lo(10), hi(11), lo(11), hi(12), lo(12), hi(13), lo(13), hi(14), lo(14), hi(15), lo(15),
  );
}

export function sidText(b: Uint8Array, o: number, size: number): string {
  if (size < 8) throw new ValueError(`SID of ${size} bytes`);
  const count = b[o + 1]!;
  let authority = 0;
  for (let i = 2; i < 8; i++) authority = authority * 256 + b[o + i]!;
  let s = `S-${b[o]!}-${authority}`;
  for (let i = 0; i < count && 8 + 4 * i + 4 <= size; i++) s += `-${u32(b, o + 8 + 4 * i)}`;
  return s;
}

/** Shortest round-trip text, as the crate's formatter writes it: `3.0` not `3`, `1e+21`. */
export function floatText(v: number, single: boolean): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  let s = String(v);
  if (single) {
    for (let p = 1; p <= 9; p++) {
      const candidate = Number(v.toPrecision(p));
      if (Math.fround(candidate) === v) {
        s = String(candidate);
        break;
      }
    }
  }
  if (!s.includes('.') && !s.includes('e') && !s.includes('n')) s += '.0';
  return s;
}
