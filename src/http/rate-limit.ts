/**
 * A fixed-window request counter per caller. Callers are keyed by the token they send (an
 * unissued one is refused by the engine anyway), else by client address. The map is pruned
 * of past windows when it grows, so hostile keys cannot grow it without bound.
 */
import type { RateLimit } from './options.js';

const PRUNE_AT = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: RateLimit) {}

  /** Counts one request of `key`; false when it is over the limit. */
  take(key: string, now = Date.now()): boolean {
    let w = this.windows.get(key);
    if (w === undefined || now - w.start >= this.limit.windowMs) {
      if (this.windows.size >= PRUNE_AT) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count <= this.limit.requests;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.limit.windowMs) this.windows.delete(k);
    if (this.windows.size >= PRUNE_AT) this.windows.clear();
  }
}
