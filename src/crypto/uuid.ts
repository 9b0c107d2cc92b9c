/** Identifiers: every file, job and token id is a random UUID v4 in lowercase canonical form. */
import { createHash, randomUUID } from 'node:crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();

/** True for a canonical UUID of version 4 (RFC 9562 variant), in either case. */
export const isUuidV4 = (s: unknown): s is string => typeof s === 'string' && UUID_V4.test(s);

/** True for any canonical UUID; ids from outside are lowercased before lookup. */
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_ANY.test(s);

/**
 * How a token is stored: its SHA-256 (hex) over the lowercased text. The database never holds
 * a usable bearer token; a token is random (122 bits), so no salt or slow hash is needed.
 */
export const tokenDigest = (token: string): string =>
  createHash('sha256').update(token.toLowerCase(), 'utf8').digest('hex');
