/**
 * What every key of the rule cache starts with: the engine's version and the cache's format,
 * so that another release's files are never read.
 */
import { packageVersion } from '../../version/index.js';
import { RULE_CACHE_FORMAT } from './files.js';

let identity: string | undefined;

export function cacheIdentity(): string {
  identity ??= `tae ${packageVersion()} sigma-parse ${RULE_CACHE_FORMAT}\0`;
  return identity;
}
