/**
 * What one `performance.now()` read adds to a timed region, measured once per rule set, so
 * that sampled evaluation times of a few tens of nanoseconds are not mostly timer.
 */
export function timerOverheadMs(): number {
  const reads = 2000;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < reads; i++) performance.now();
    best = Math.min(best, (performance.now() - t0) / reads);
  }
  return best;
}
