/**
 * Index rows packed where they are made (a decode worker), so that a job's events need not
 * cross threads to be staged: a chunk's rows travel as two typed arrays, copied by the thread
 * boundary in one piece each, and the writer binds their texts as byte ranges without making a
 * string of any. Per row: ts, record id, chars (NaN for null), then the start and end of each
 * text in `bytes` (start -1 for null). A row is packed without its file, Sigma rules and rule
 * titles, which only the job's thread knows: the writer adds them (search/packed.ts).
 */

import type { EvtxEvent } from '../evtx/index.js';
import type { DescribeEvent } from '../messages/index.js';
import { indexRow } from './row.js';

/** The rows of one chunk, in the order of its events. */
export interface PackedRows {
  readonly count: number;
  readonly nums: Float64Array;
  readonly bytes: Uint8Array;
}

/** One row of a packed chunk. */
export interface RowRef {
  readonly packed: PackedRows;
  readonly at: number;
}

/** The packed texts, by their IndexRow position (event id … body). */
export const TEXTS = [2, 4, 5, 6, 7, 8, 10, 11, 12, 14] as const;
/** Numbers per row before the text offsets; a row's slots in `nums`. */
export const NUMS = 3;
export const STRIDE = NUMS + 2 * TEXTS.length;
const NONE: readonly never[] = [];

export class RowPacker {
  private nums = new Float64Array(STRIDE * 64);
  private bytes = Buffer.allocUnsafe(256 * 1024);
  private at = 0;
  private count = 0;

  constructor(private readonly describe?: DescribeEvent) {}

  add(e: EvtxEvent): void {
    const row = indexRow(e, 0, NONE, NONE, this.describe);
    if ((this.count + 1) * STRIDE > this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    const base = this.count++ * STRIDE;
    this.nums[base] = row[0] ?? Number.NaN;
    this.nums[base + 1] = row[3];
    this.nums[base + 2] = row[13] ?? Number.NaN;
    for (let k = 0; k < TEXTS.length; k++) {
      const text = row[TEXTS[k]!] as string | null;
      if (text === null) {
        this.nums[base + NUMS + 2 * k] = -1;
        continue;
      }
      this.ensure(text.length * 3);
      this.nums[base + NUMS + 2 * k] = this.at;
      this.at += this.bytes.write(text, this.at, 'utf8');
      this.nums[base + NUMS + 2 * k + 1] = this.at;
    }
  }

  /** The rows added since the last call, in arrays of their own (the packer's are reused). */
  take(): PackedRows {
    const packed = {
      count: this.count,
      nums: this.nums.slice(0, this.count * STRIDE),
      bytes: Uint8Array.prototype.slice.call(this.bytes, 0, this.at),
    };
    this.count = 0;
    this.at = 0;
    return packed;
  }

  private ensure(room: number): void {
    if (this.at + room <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + room));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }
}
