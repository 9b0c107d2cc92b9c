/** Worker-thread pools that a late or stray worker message cannot take down with the process. */
export { type ThreadPoolOptions, threadPool } from './pool.js';
