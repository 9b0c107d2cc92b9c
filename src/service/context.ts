/** What every endpoint handler works with. */
import type { Scheduler } from '../jobs/index.js';
import type { Store } from '../store/index.js';
import type { Callers } from './callers.js';
import type { EngineLimits } from './limits.js';

export interface ServiceContext {
  readonly store: Store;
  readonly callers: Callers;
  readonly scheduler: Scheduler;
  readonly limits: EngineLimits;
}
