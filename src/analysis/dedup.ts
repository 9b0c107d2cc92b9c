/**
 * Record-level de-duplication: a record seen again with the same channel, computer, record id
 * and content (a VSS copy, a backup, the same file uploaded twice) counts once. Records live in
 * an open-addressing table of 12 bytes a slot, not in a Set of strings, so a parse of millions
 * of records costs tens of megabytes; past `maxRecords` new records are passed through unchecked.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { PairMap } from './pair-map.js';

const SAMPLE_HEAD = 16;
const SAMPLE_TAIL = 8;

/**
 * FNV-1a over a string's length, head and tail. Records that share channel, computer, record id
 * and time to 100 ns yet differ only inside one value's middle are not a case worth a full scan.
 */
function mixString(h: number, s: string): number {
  h = Math.imul(h ^ s.length, 0x01000193);
  const head = Math.min(s.length, SAMPLE_HEAD);
  for (let i = 0; i < head; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, s.length - SAMPLE_TAIL); i < s.length; i++)
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** A 32-bit hash of what makes a record's content: time, ids, provider and every data value. */
export function contentHash(e: EvtxEvent): number {
  let h = 0x811c9dc5;
  h = mixString(h, e.timestampText);
  h = Math.imul(h ^ e.eventId, 0x01000193);
  h = mixString(h, e.provider);
  const data = e.data;
  const keys = Object.keys(data);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = data[k]!;
    h = Math.imul(h ^ k.length, 0x01000193);
    if (typeof v === 'string') h = mixString(h, v);
    else for (const x of v) h = mixString(h, x);
  }
  for (const v of e.unnamedData) h = mixString(h, v);
  return h >>> 0;
}

const MAX_STREAMS = 1 << 20;
const EMPTY = -1;

export class RecordSet {
  private keys = new Float64Array(1 << 12).fill(EMPTY);
  private hashes = new Uint32Array(1 << 12);
  private size = 0;
  private readonly streams = new Map<string, number>();
  /** The same streams found without joining the names (pair-map.ts). */
  private readonly byPair = new PairMap<number>();
  // Records come in runs from one channel of one computer: the last stream is remembered.
  private lastChannel = '';
  private lastComputer = '';
  private lastStream = -1;
  /** Records added after the table was full: counted as new without a check. */
  unchecked = 0;
  /** Records recognised as duplicates. */
  duplicates = 0;

  constructor(private readonly maxRecords = 4_000_000) {}

  /** Adds the record; false when the same record was added before. */
  add(e: EvtxEvent): boolean {
    return this.addRecord(e, contentHash(e));
  }

  /** Adds a record whose content hash is known (an event's digest); false when added before. */
  addRecord(e: Pick<EvtxEvent, 'channel' | 'computer' | 'recordId'>, hash: number): boolean {
    const stream =
      this.lastStream >= 0 && e.channel === this.lastChannel && e.computer === this.lastComputer
        ? this.lastStream
        : this.streamOf(e.channel, e.computer);
    const id = e.recordId >= 0 && e.recordId < 2 ** 32 ? e.recordId : Math.abs(e.recordId % 2 ** 32) || 0;
    const key = stream * 2 ** 32 + id;
    const mask = this.keys.length - 1;
    let slot = (Math.imul((id ^ Math.imul(stream, 0x9e3779b1) ^ hash) >>> 0, 0x85ebca6b) >>> 0) & mask;
    for (;;) {
      const k = this.keys[slot]!;
      if (k === EMPTY) break;
      if (k === key && this.hashes[slot] === hash) {
        this.duplicates++;
        return false;
      }
      slot = (slot + 1) & mask;
    }
    if (this.size >= this.maxRecords) {
      this.unchecked++;
      return true;
    }
    this.keys[slot] = key;
    this.hashes[slot] = hash;
    if (++this.size * 10 > this.keys.length * 7) this.grow();
    return true;
  }

  private streamOf(channel: string, computer: string): number {
    let stream = this.byPair.get(channel, computer);
    if (stream === undefined) {
      const name = `${channel}\u0000${computer}`;
      stream = this.streams.get(name);
      if (stream === undefined) {
        stream = this.streams.size < MAX_STREAMS ? this.streams.size : mixString(0, name) & (MAX_STREAMS - 1);
        if (this.streams.size < MAX_STREAMS) this.streams.set(name, stream);
      }
      if (this.streams.has(name)) this.byPair.set(channel, computer, stream);
    }
    this.lastChannel = channel;
    this.lastComputer = computer;
    this.lastStream = stream;
    return stream;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    this.keys = new Float64Array(oldKeys.length * 2).fill(EMPTY);
    this.hashes = new Uint32Array(oldKeys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i]!;
      if (key === EMPTY) continue;
      const hash = oldHashes[i]!;
      const id = key % 2 ** 32;
      const stream = Math.floor(key / 2 ** 32);
      let slot = (Math.imul((id ^ Math.imul(stream, 0x9e3779b1) ^ hash) >>> 0, 0x85ebca6b) >>> 0) & mask;
      while (this.keys[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.hashes[slot] = hash;
    }
  }
}
