/**
 * Who is calling and with which key. A token is a UUID v4 issued by `Engine.createToken`; a
 * sent token must be well-formed and issued (else the endpoint's 401, or upload's 400 for a
 * malformed one). A token's encryption key is fixed by the first call that stores private
 * data with it; later calls must send the same key. The owner key derived from it exists only
 * in memory.
 */
import {
  isUuidV4,
  isValidEncKey,
  keyCheck,
  keyCheckMatches,
  OwnerKeyCache,
  tokenDigest,
} from '../crypto/index.js';
import type { TaeError } from '../errors/index.js';
import type { Store, TokenRow } from '../store/index.js';
import type { KeyProblem } from './error-table.js';
import { ANONYMOUS_PRIORITY, isSubscriptionLevel, SUBSCRIPTION_LEVELS } from './limits.js';

/** `owner` is the owner id of the caller's files and jobs: the token's digest, never the token. */
export type Caller =
  | { readonly kind: 'anonymous'; readonly owner: null; readonly priority: number }
  | { readonly kind: 'token'; readonly owner: string; readonly priority: number; readonly row: TokenRow };

export type OwnerKey =
  | { readonly ok: true; readonly key: Buffer }
  | { readonly ok: false; readonly problem: Exclude<KeyProblem, 'missing'> };

export const ANONYMOUS: Caller = { kind: 'anonymous', owner: null, priority: ANONYMOUS_PRIORITY };

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

export interface IdentifyErrors {
  /** The token is not a UUID v4 (default: same as unknown). */
  readonly malformed?: () => TaeError;
  readonly unknown: () => TaeError;
  /** No token was sent and the endpoint needs one; omitted: anonymous callers are allowed. */
  readonly missing?: () => TaeError;
}

export class Callers {
  private readonly keys = new OwnerKeyCache();

  constructor(private readonly store: Store) {}

  identify(token: string | undefined, errors: IdentifyErrors): Caller {
    if (!present(token)) {
      if (errors.missing !== undefined) throw errors.missing();
      return ANONYMOUS;
    }
    if (!isUuidV4(token)) throw (errors.malformed ?? errors.unknown)();
    const row = this.store.tokens.get(tokenDigest(token));
    if (row === null) throw errors.unknown();
    const priority = isSubscriptionLevel(row.level) ? SUBSCRIPTION_LEVELS[row.level] : ANONYMOUS_PRIORITY;
    return { kind: 'token', owner: row.id, priority, row };
  }

  hasKey = (encKey: string | undefined): encKey is string => present(encKey);

  /**
   * The owner key for this caller's `encKey`, or why there is none: `invalid` (not a key's
   * format) or `wrong` (well-formed, but not the key the token's private data was stored with).
   * With `bind`, a token without a key gets this one.
   */
  async ownerKey(caller: Caller, encKey: string, bind: boolean): Promise<OwnerKey> {
    if (caller.kind !== 'token' || !isValidEncKey(encKey)) return { ok: false, problem: 'invalid' };
    const key = await this.keys.derive(encKey, caller.row.keySalt);
    let check = this.store.tokens.get(caller.owner)?.keyCheck ?? null;
    if (check === null) {
      if (!bind || this.store.tokens.bindKey(caller.owner, keyCheck(key))) return { ok: true, key };
      check = this.store.tokens.get(caller.owner)?.keyCheck ?? null;
    }
    return check !== null && keyCheckMatches(key, check)
      ? { ok: true, key }
      : { ok: false, problem: 'wrong' };
  }
}
