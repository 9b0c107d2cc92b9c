/**
 * V8's `--trace-gc-nvp` lines, summed per thread: each line starts `[pid:isolate:thread]`, and
 * thread 0 is the process's main thread (a job's thread); the others are its worker threads
 * in the order they started (decode workers, index writer, completion threads).
 */

export interface ThreadGc {
  readonly thread: number;
  scavenges: number;
  markCompacts: number;
  /** Pause time on the thread itself (ms). */
  pauseMs: number;
  /** Bytes its young collections moved to the old generation (MB). */
  promotedMB: number;
  /** Marking done for its full collections on V8's helper threads (ms). */
  backgroundMarkMs: number;
}

/** Not anchored: a line the process wrote itself may precede one on the same line. */
const LINE = /\[\d+:0x[0-9a-f]+:(\d+)\]\s+\d+ ms: (.*)$/;

/** A `key=value` field of an nvp line, or 0. */
function field(rest: string, key: string): number {
  const at = rest.indexOf(` ${key}=`);
  if (at < 0) return 0;
  const value = Number.parseFloat(rest.slice(at + key.length + 2));
  return Number.isFinite(value) ? value : 0;
}

/** The GC figures of each thread that collected, the busiest collector first. */
export function gcByThread(stdout: string): ThreadGc[] {
  const by = new Map<number, ThreadGc>();
  for (const line of stdout.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    const thread = Number(m[1]);
    const body = ` ${m[2]!}`;
    let t = by.get(thread);
    if (t === undefined) {
      t = { thread, scavenges: 0, markCompacts: 0, pauseMs: 0, promotedMB: 0, backgroundMarkMs: 0 };
      by.set(thread, t);
    }
    t.pauseMs += field(body, 'pause');
    t.backgroundMarkMs += field(body, 'background.mark');
    if (body.includes(' gc=s ')) {
      t.scavenges++;
      t.promotedMB += field(body, 'promoted') / 1e6;
    } else if (body.includes(' gc=mc')) t.markCompacts++;
  }
  return [...by.values()]
    .map((t) => ({
      ...t,
      pauseMs: Math.round(t.pauseMs),
      promotedMB: Math.round(t.promotedMB),
      backgroundMarkMs: Math.round(t.backgroundMarkMs),
    }))
    .sort((a, b) => b.pauseMs + b.backgroundMarkMs - (a.pauseMs + a.backgroundMarkMs));
}
