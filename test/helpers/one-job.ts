/** A scheduler over `store` running one winevtx job with the given runners (no-space tests). */
import { type JobRunners, type JobStatusEvent, Scheduler } from '../../src/jobs/index.js';
import type { Store } from '../../src/store/index.js';

export function oneJob(
  store: Store,
  runners: Record<string, unknown>,
  onStatus: (e: JobStatusEvent) => void,
) {
  const scheduler = new Scheduler({
    store,
    runners: runners as unknown as JobRunners,
    concurrency: 1,
    maxAttempts: 3,
    onStatus,
  });
  scheduler.start();
  const row = scheduler.submit({
    owner: null,
    priority: 0,
    ownerKey: null,
    input: { type: 'winevtx', file_ids: [], run_sigma_rules: false },
  });
  return { scheduler, row };
}
