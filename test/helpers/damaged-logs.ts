/**
 * Damaged and odd EVTX inputs, generated from our own writer: a file cut inside its first
 * chunk, a valid header followed by seeded random bytes, a header whose chunks are gone and
 * the header of an empty log.
 */
import { buildFileHeader, FILE_HEADER_SIZE } from '../../fixtures/evtx-writer/index.js';
import { prng } from '../../fixtures/prng.js';
import { smallLog } from './small-log.js';

/** The small log cut 1,000 bytes into its only chunk: its records are lost. */
export const truncatedLog = (): Uint8Array => smallLog().slice(0, FILE_HEADER_SIZE + 1000);

/** The small log's header followed by `chunks` × 64 KiB of seeded random bytes. */
export function headerAndNoise(chunks: number, seed = 13): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(FILE_HEADER_SIZE + chunks * 65536);
  out.set(smallLog().subarray(0, FILE_HEADER_SIZE));
  for (let i = FILE_HEADER_SIZE; i < out.length; i++) out[i] = Math.floor(next() * 256);
  return out;
}

/** The small log's header alone: it counts one chunk and seven records, none of them here. */
export const headerOnlyLog = (): Uint8Array => smallLog().slice(0, FILE_HEADER_SIZE);

/** The header of a log that never held a record (no chunks, next record id 1). */
export const emptyLogHeader = (): Uint8Array =>
  buildFileHeader({ chunkCount: 0, recordCount: 0, nextRecordId: 1n });
