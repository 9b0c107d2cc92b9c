/**
 * One process creation is often logged twice, by Sysmon (1) and by Security (4688). The second
 * record of a pair is a twin: counted once by the tables and the timeline. Pairs are found by
 * host, pid and image within 2 s, whichever record arrives first. Entries per key stay sorted by
 * time, so a pid reused thousands of times costs a binary search, not a scan.
 */
import type { ProcessStart } from './facts.js';
import { basename } from './text.js';

const WINDOW_MS = 2000;
/** Bounds on hostile repetition (one pid and image thousands of times in one second). */
const MAX_SCAN = 32;
const MAX_PER_KEY = 1024;

interface Seen {
  time: number;
  paired: boolean;
}

/** Per key, each source's creations sorted by time: a twin is looked for only among the other's. */
interface BySource {
  sysmon: Seen[];
  security: Seen[];
}

export class TwinIndex {
  private readonly seen = new Map<string, BySource>();
  private size = 0;

  constructor(private readonly maxEntries = 100_000) {}

  /** True when `s` is the second record of a process creation already seen. */
  isTwin(s: ProcessStart): boolean {
    if (s.pid === null || !Number.isFinite(s.time)) return false;
    const key = `${s.pid}\u0000${s.computer}\u0000${basename(s.image).toLowerCase()}`;
    let lists = this.seen.get(key);
    if (lists !== undefined) {
      const other = s.source === 'sysmon' ? lists.security : lists.sysmon;
      const at = insertionPoint(other, s.time);
      const stop = Math.max(0, at - MAX_SCAN);
      for (let i = at - 1; i >= stop && s.time - other[i]!.time <= WINDOW_MS; i--)
        if (pair(other[i]!)) return true;
      const end = Math.min(other.length, at + MAX_SCAN);
      for (let i = at; i < end && other[i]!.time - s.time <= WINDOW_MS; i++) if (pair(other[i]!)) return true;
    }
    if (this.size >= this.maxEntries) return false;
    if (lists === undefined) {
      lists = { sysmon: [], security: [] };
      this.seen.set(key, lists);
    }
    const own = s.source === 'sysmon' ? lists.sysmon : lists.security;
    if (own.length >= MAX_PER_KEY) return false;
    this.size++;
    own.splice(insertionPoint(own, s.time), 0, { time: s.time, paired: false });
    return false;
  }
}

function pair(x: Seen): boolean {
  if (x.paired) return false;
  x.paired = true;
  return true;
}

/** The first index whose time is greater than `time` (events mostly arrive in order: O(1)). */
function insertionPoint(list: readonly Seen[], time: number): number {
  if (list.length === 0 || list[list.length - 1]!.time <= time) return list.length;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
