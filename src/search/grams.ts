/**
 * The trigram postings of an event index (format 3): per block of rows, each trigram (three code
 * points) of the rows' folded text, with the rows that hold it, as ascending row numbers coded
 * as varint deltas from the block's base. A trigram holding the separator between two values is
 * not kept: no search may hold the separator (search/request.ts), so no query reads it, and it
 * was 29 % of a part's grams and 15 % of its postings on the 1 GB bench job. Pure: blocks.ts
 * stores them, and event-index.ts reads them through postings.ts (apart, so a block builder's
 * thread loads only the building side).
 *
 * Built here instead of by FTS5's trigram tokenizer, which spent about 60 ns a character (32 µs
 * of CPU per event of the 1 GB job, the largest part of its index completion): this builder
 * spends about a quarter of that, and the postings are the same bytes FTS5's `detail=none`
 * doclists held. A builder's memory is bounded: once its arena holds `flushBytes` (or its grams
 * number `maxGrams`), the caller drains them as one part and the next part starts afresh, so a
 * gram's rows are the concatenation of its parts, in part order.
 */

/**
 * Three ASCII code points as one key (7 bits each): slots without a Map lookup, through a page
 * of 128 slots per pair of leading points (a few thousand pairs occur, not 16,384).
 */
const PAIRS = 1 << 14;
const asciiGram = (k: number) => String.fromCharCode(k >> 14, (k >> 7) & 127, k & 127);

/** Arena bytes (postings, chunk headers and room) a builder fills before the caller drains it. */
export const GRAM_FLUSH_BYTES = 4 << 20;
/** Pending grams before the caller should drain them. */
export const GRAM_MAX_PENDING = 200_000;

/**
 * A gram's postings live in a chain of chunks of one arena (each chunk twice the last, up to
 * LAST_CHUNK bytes), headed by the next chunk's offset and the bytes the chunk holds: no
 * allocation per gram or per row, and the arena is reused by the next part.
 */
const HEADER = 8;
const FIRST_CHUNK = 32;
const LAST_CHUNK = 1024;

/** A slot's words in `state`. */
const STRIDE = 8;
const KEY = 0;
const LAST = 1;
const HEAD = 2;
const TAIL = 3;
const POS = 4;
const END = 5;
const BYTES = 6;

/** The separator between values (rows/text.ts): no needle holds it, so no gram across it is kept. */
const SEPARATOR_CODE = 0x1f;

export class GramBuilder {
  /** Per pair of leading ASCII points: its page in `asciiSlot`, or -1. */
  private readonly pairPage = new Int32Array(PAIRS).fill(-1);
  private asciiSlot = new Int32Array(128 * 256).fill(-1);
  private pages = 0;
  private readonly otherSlot = new Map<string, number>();
  private otherGram: (string | undefined)[] = [];
  private arena: Uint8Array;
  private words: Int32Array;
  private top = 0;
  /** One gram's postings made contiguous while `drain` hands it out. */
  private scratch = new Uint8Array(4096);
  /**
   * Per slot, STRIDE words side by side (32 bytes, so `post` touches one run of memory, not
   * seven arrays): its ASCII key or -1, last row, first and last chunk, write position and
   * end, bytes of postings.
   */
  private state = new Int32Array(1024 * STRIDE);
  private slots = 0;

  /** `base`: one less than the smallest row number the block holds. */
  constructor(
    private base: number,
    private readonly flushBytes = GRAM_FLUSH_BYTES,
    private readonly maxGrams = GRAM_MAX_PENDING,
  ) {
    // Room for the row that crosses `flushBytes`; a longer one grows the arena.
    this.arena = new Uint8Array(Math.max(1 << 16, flushBytes + (flushBytes >> 2)));
    this.words = new Int32Array(this.arena.buffer);
  }

  /** The caller should `drain` the postings before adding more. */
  get full(): boolean {
    return this.top >= this.flushBytes || this.slots >= this.maxGrams;
  }

  /** Adds row `n` (greater than every row added before) and its folded text. */
  add(n: number, text: string): void {
    const len = text.length;
    // Code points, as a query's needle is split (text.ts `trigrams`): a pair is one point.
    let a = -1;
    let b = -1;
    for (let i = 0; i < len; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c === SEPARATOR_CODE) {
        a = -1;
        b = -1;
        continue;
      }
      if (a >= 0) {
        if ((a | b | c) < 128) {
          const pair = (a << 7) | b;
          let page = this.pairPage[pair]!;
          if (page < 0) this.pairPage[pair] = page = this.newPage();
          const at = (page << 7) | c;
          let s = this.asciiSlot[at]!;
          if (s < 0) this.asciiSlot[at] = s = this.newSlot((pair << 7) | c, undefined);
          this.post(s, n);
        } else {
          const g = String.fromCodePoint(a, b, c);
          let s = this.otherSlot.get(g);
          if (s === undefined) {
            s = this.newSlot(-1, g);
            this.otherSlot.set(g, s);
          }
          this.post(s, n);
        }
      }
      a = b;
      b = c;
    }
  }

  /**
   * Hands each pending gram and its postings to `visit`, by gram in code-unit order (the
   * postings are valid only during the call), then starts the next part afresh.
   */
  drain(visit: (gram: string, postings: Uint8Array) => void): void {
    const grams: string[] = new Array(this.slots);
    const state = this.state;
    for (let s = 0; s < this.slots; s++) {
      const k = state[s * STRIDE + KEY]!;
      grams[s] = k >= 0 ? asciiGram(k) : this.otherGram[s]!;
    }
    const order = Array.from({ length: this.slots }, (_, s) => s).sort((x, y) =>
      grams[x]! < grams[y]! ? -1 : grams[x]! > grams[y]! ? 1 : 0,
    );
    for (const s of order) {
      const w = s * STRIDE;
      const size = state[w + BYTES]!;
      if (this.scratch.length < size) this.scratch = new Uint8Array(Math.max(size, this.scratch.length * 2));
      let at = 0;
      const t = state[w + TAIL]!;
      for (let c = state[w + HEAD]!; c !== t; c = this.words[c >> 2]!) {
        const used = this.words[(c >> 2) + 1]!;
        this.scratch.set(this.arena.subarray(c + HEADER, c + HEADER + used), at);
        at += used;
      }
      this.scratch.set(this.arena.subarray(t + HEADER, state[w + POS]!), at);
      visit(grams[s]!, this.scratch.subarray(0, size));
    }
    this.clear();
  }

  /** Drops what is pending and starts a block whose rows are above `base` (buffers kept). */
  restart(base: number): void {
    this.clear();
    this.base = base;
  }

  private clear(): void {
    this.pairPage.fill(-1);
    this.asciiSlot.fill(-1, 0, this.pages << 7);
    this.pages = 0;
    this.otherSlot.clear();
    this.otherGram = [];
    this.slots = 0;
    this.top = 0;
  }

  private newPage(): number {
    if ((this.pages + 1) << 7 > this.asciiSlot.length) {
      const grown = new Int32Array(this.asciiSlot.length * 2).fill(-1);
      grown.set(this.asciiSlot);
      this.asciiSlot = grown;
    }
    return this.pages++;
  }

  /** A chunk of `size` bytes (a multiple of 4), ending its chain. */
  private chunk(size: number): number {
    if (this.top + size > this.arena.length) {
      const grown = new Uint8Array(this.arena.length * 2);
      grown.set(this.arena.subarray(0, this.top));
      this.arena = grown;
      this.words = new Int32Array(grown.buffer);
    }
    const c = this.top;
    this.top += size;
    this.words[c >> 2] = -1;
    return c;
  }

  private newSlot(key: number, gram: string | undefined): number {
    const s = this.slots++;
    if ((s + 1) * STRIDE > this.state.length) {
      const grown = new Int32Array(this.state.length * 2);
      grown.set(this.state);
      this.state = grown;
    }
    const c = this.chunk(FIRST_CHUNK);
    if (gram !== undefined) this.otherGram[s] = gram;
    const w = s * STRIDE;
    const state = this.state;
    state[w + KEY] = key;
    state[w + LAST] = this.base;
    state[w + HEAD] = c;
    state[w + TAIL] = c;
    state[w + POS] = c + HEADER;
    state[w + END] = c + FIRST_CHUNK;
    state[w + BYTES] = 0;
    return s;
  }

  /** Appends row `n` to slot `s` once per row: the delta from its last row, as a varint. */
  private post(s: number, n: number): void {
    const state = this.state;
    const w = s * STRIDE;
    let d = n - state[w + LAST]!;
    if (d === 0) return;
    state[w + LAST] = n;
    let at = state[w + POS]!;
    if (at + 5 > state[w + END]!) {
      const t = state[w + TAIL]!;
      const size = Math.min(LAST_CHUNK, (state[w + END]! - t) * 2);
      const c = this.chunk(size);
      this.words[t >> 2] = c;
      this.words[(t >> 2) + 1] = at - t - HEADER;
      state[w + TAIL] = c;
      state[w + END] = c + size;
      at = c + HEADER;
    }
    const start = at;
    const arena = this.arena;
    while (d >= 0x80) {
      arena[at++] = (d & 0x7f) | 0x80;
      d >>>= 7;
    }
    arena[at++] = d;
    state[w + POS] = at;
    state[w + BYTES]! += at - start;
  }
}
