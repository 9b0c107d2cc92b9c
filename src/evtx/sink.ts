/**
 * A growable UTF-8 byte buffer that renderers write into directly, so a chunk's text is
 * built once as bytes instead of as JS strings that are concatenated and then encoded.
 */

export class Sink {
  buf: Buffer;
  pos = 0;

  /** A size to allocate, or bytes to write into (reused, e.g. a buffer handed back for recycling). */
  constructor(initial: number | Uint8Array = 1 << 18) {
    this.buf =
      typeof initial === 'number'
        ? Buffer.allocUnsafeSlow(initial)
        : Buffer.from(initial.buffer, initial.byteOffset, initial.byteLength);
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    // Unpooled: the buffer behind a sink may be transferred to another thread whole.
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  bytes(src: Uint8Array): void {
    const n = src.length;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    // A native copy costs more than a loop for the short pieces between values.
    if (n > 48) buf.set(src, p);
    else for (let i = 0; i < n; i++) buf[p + i] = src[i]!;
    p += n;
    this.pos = p;
  }

  /** Text known to be ASCII (numbers, GUIDs, SIDs, times). */
  ascii(s: string): void {
    const n = s.length;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    for (let i = 0; i < n; i++) buf[p + i] = s.charCodeAt(i);
    this.pos = p + n;
  }

  /** Any text, encoded as UTF-8. */
  text(s: string): void {
    this.ensure(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  byte(c: number): void {
    this.ensure(1);
    this.buf[this.pos++] = c;
  }

  /** The bytes written from `start` as a string. */
  toString(start: number, end = this.pos): string {
    return this.buf.toString('utf8', start, end);
  }

  /** A copy of everything written (one that can be transferred), leaving the sink empty. */
  take(): Uint8Array {
    // Unpooled, so its ArrayBuffer is its own to transfer; no need to zero it first.
    const out = Buffer.allocUnsafeSlow(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }
}

const encoder = new TextEncoder();
export const utf8 = (s: string): Uint8Array => encoder.encode(s);
