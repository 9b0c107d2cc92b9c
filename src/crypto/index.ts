/**
 * Cryptography for private data: ids, the owner key derived from the caller's encryption key,
 * sealed small values (wrapped keys, private job inputs and results) and segment-sealed file
 * contents. AES-256-GCM and scrypt from node:crypto; no plaintext leaves memory here.
 */
export {
  deriveOwnerKey,
  ENC_KEY_FORMAT,
  isValidEncKey,
  KEY_SALT_BYTES,
  keyCheck,
  keyCheckMatches,
  newKeySalt,
  OwnerKeyCache,
  SCRYPT_PARAMS,
} from './owner-key.js';
export { AAD, KEY_BYTES, newDataKey, open, openJson, seal, sealJson } from './seal.js';
export {
  DEFAULT_SEGMENT_BYTES,
  openSealedStream,
  type ReadSealedAt,
  SEGMENT_HEADER_BYTES,
  SealedReader,
  SegmentSealer,
  sealedSize,
} from './segments.js';
export { isUuid, isUuidV4, newId, tokenDigest } from './uuid.js';
