/**
 * Sealed segments deciphered on a small pool of threads, not on the thread that reads them: a
 * private job's files are authenticated whole, then read, so each goes twice through AES-GCM,
 * and on the job's thread (which no pool shares) that and its copies cost about 0.85 s a GB.
 * The ciphertext is read into a buffer that moves to the pool and the plaintext moves back.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { threadPool } from '../threads/index.js';
import type { DecipherTask } from './decipher-worker.js';

export { NOT_AUTHENTIC } from './decipher-worker.js';

const workerUrl = new URL(
  `./decipher-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

let pool: Piscina | undefined;

/**
 * Threads: two, or one on one core; a job reads one file at a time and a segment takes about a
 * millisecond. Idle threads go after a while and do not keep the process alive.
 */
function decipherPool(): Piscina {
  pool ??= threadPool({
    filename: workerUrl.href,
    minThreads: 0,
    maxThreads: Math.min(2, availableParallelism()),
    idleTimeout: 2_000,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  return pool;
}

/**
 * Deciphers one segment: its plaintext, or null with `keep: false` (the tag checked, the
 * plaintext wiped there). `sealed` moves to the pool (it is unusable here afterwards); the key
 * travels as a copy, wiped there. Rejects when the segment fails authentication (NOT_AUTHENTIC).
 */
export async function decipherSegment(task: DecipherTask): Promise<ArrayBuffer | null> {
  // A key of its own: a Buffer's view into a shared slab would send the whole slab. It is cloned
  // when piscina posts the task, which may wait for a thread: wiped once the task is done.
  const key = Uint8Array.from(task.key);
  try {
    return (await decipherPool().run(
      { ...task, key },
      { transferList: [task.sealed] },
    )) as ArrayBuffer | null;
  } finally {
    key.fill(0);
  }
}
