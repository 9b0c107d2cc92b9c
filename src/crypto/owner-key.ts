/**
 * The caller's encryption key (`X-Service-Api-Enc-Key`) and the owner key derived from it.
 *
 * Format (our choice; the spec leaves it open): 16 to 512 printable ASCII characters
 * (0x20–0x7E) not starting or ending with a space, so that any passphrase, hex or base64
 * secret travels unchanged in a header.
 * The owner key is scrypt(encKey, salt, N=2^15, r=8, p=1) → 32 bytes, with a random 16-byte
 * salt per token. It never leaves memory: the store keeps only the salt and a key check
 * (HMAC-SHA256 of a fixed label under the owner key), which tells a wrong key from the right
 * one before any data is touched. Derivations are cached per (salt, key) because scrypt is
 * deliberately slow (~0.1 s here).
 */
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export const ENC_KEY_FORMAT = '16 to 512 printable ASCII characters, no leading or trailing space';
const ENC_KEY = /^[\x21-\x7e][\x20-\x7e]{14,510}[\x21-\x7e]$/;
export const KEY_SALT_BYTES = 16;
export const SCRYPT_PARAMS = Object.freeze({ N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
const CHECK_LABEL = 'tae/owner-key-check/v1';

export const isValidEncKey = (s: unknown): s is string => typeof s === 'string' && ENC_KEY.test(s);

export const newKeySalt = (): Buffer => randomBytes(KEY_SALT_BYTES);

export function deriveOwnerKey(encKey: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(encKey, salt, 32, SCRYPT_PARAMS, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export const keyCheck = (ownerKey: Uint8Array): Buffer =>
  createHmac('sha256', ownerKey).update(CHECK_LABEL).digest();

export function keyCheckMatches(ownerKey: Uint8Array, stored: Uint8Array): boolean {
  const check = keyCheck(ownerKey);
  return stored.length === check.length && timingSafeEqual(check, stored);
}

/** A bounded cache of derivations (oldest evicted first); concurrent misses share one scrypt. */
export class OwnerKeyCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  constructor(private readonly capacity = 256) {}

  derive(encKey: string, salt: Uint8Array): Promise<Buffer> {
    const id = createHash('sha256').update(salt).update('\0').update(encKey).digest('base64');
    const hit = this.entries.get(id);
    if (hit !== undefined) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit;
    }
    const pending = deriveOwnerKey(encKey, salt);
    pending.catch(() => this.entries.delete(id));
    this.entries.set(id, pending);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return pending;
  }

  clear(): void {
    this.entries.clear();
  }
}
