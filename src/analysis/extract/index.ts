/** Every extractor, merged into one lookup by provider and event id. */
import { AUTH_EXTRACTORS } from './auth.js';
import { NETWORK_EXTRACTORS } from './network.js';
import { NOTABLE_EXTRACTORS } from './notable.js';
import { PERSISTENCE_EXTRACTORS } from './persistence.js';
import { PROCESS_EXTRACTORS } from './process.js';
import { buildRegistry, type Extractor } from './registry.js';
import { WATCH_LIST_EXTRACTORS } from './watch-list.js';

export { LOLBINS, UNUSUAL_PATH } from './names.js';
export { COMMAND_LINE_INDICATORS, matchIndicators, POWERSHELL_INDICATORS } from './patterns.js';
export type { Extractor } from './registry.js';

/** Provider (lower case) → event id → extractors. */
export const EXTRACTORS: ReadonlyMap<string, ReadonlyMap<number, readonly Extractor[]>> = buildRegistry([
  PROCESS_EXTRACTORS,
  AUTH_EXTRACTORS,
  NETWORK_EXTRACTORS,
  PERSISTENCE_EXTRACTORS,
  NOTABLE_EXTRACTORS,
  WATCH_LIST_EXTRACTORS,
]);
