/**
 * Issuing tokens (the spec does not show how; this is ours). An open engine issues them with
 * `engine.createToken`. `issueToken(dataDir)` works on a data directory whether or not another
 * process's engine (a running `tae serve`) holds it: with the directory free it opens the store
 * alone; while a live engine holds the lock, it adds the one token row beside it
 * (store `insertTokenBeside`), the only write allowed without the lock. Tokens are random UUID
 * v4s; only their SHA-256 is stored.
 */
import { newId, newKeySalt, tokenDigest } from '../crypto/index.js';
import { invalidOption, isTaeError } from '../errors/index.js';
import { insertTokenBeside, type NewTokenRow, Store } from '../store/index.js';
import { isSubscriptionLevel, type SubscriptionLevel } from './limits.js';
import type { IssuedToken } from './types.js';

export interface TokenOptions {
  readonly level?: SubscriptionLevel;
}

/** A fresh token and the row that stores its digest; the level is checked at the door. */
export function newToken(options: TokenOptions = {}): { issued: IssuedToken; row: NewTokenRow } {
  const level = options.level ?? 'free';
  if (!isSubscriptionLevel(level)) throw invalidOption('level', '"free", "standard" or "premium"', level);
  const token = newId();
  return {
    issued: { token, level },
    row: { id: tokenDigest(token), level, createdAt: Date.now(), keySalt: newKeySalt() },
  };
}

/**
 * Issues a token on the engine database in `dataDir` (created if missing), beside a running
 * engine if one holds it; `beside` says which happened.
 */
export async function issueToken(
  dataDir: string,
  options: TokenOptions = {},
): Promise<IssuedToken & { readonly beside: boolean }> {
  if (typeof dataDir !== 'string' || dataDir === '')
    throw invalidOption('dataDir', 'a directory path', dataDir);
  const { issued, row } = newToken(options);
  let store: Store;
  try {
    store = await Store.open({ dataDir });
  } catch (e) {
    if (!isTaeError(e) || e.code !== 'LOCKED') throw e;
    insertTokenBeside(dataDir, row, e);
    return { ...issued, beside: true };
  }
  try {
    store.tokens.insert(row);
  } finally {
    store.close();
  }
  return { ...issued, beside: false };
}
