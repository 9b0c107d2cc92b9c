// A pool worker for test/thread-pool.test.ts: keeps its thread busy for the given milliseconds.
export default function busy(ms) {
  const until = Date.now() + ms;
  while (Date.now() < until);
  return 'done';
}
