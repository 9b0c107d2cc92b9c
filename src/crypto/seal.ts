/**
 * Sealing small secrets and records with AES-256-GCM: per-file and per-job keys wrapped by an
 * owner's key, and the JSON of private job inputs and results. The layout is
 * `version (1) | nonce (12) | ciphertext | tag (16)`; the associated data names what the bytes
 * are (for example `job-result:<job id>`), so a sealed value moved to another row fails to open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TaeError } from '../errors/index.js';

const VERSION = 1;
const NONCE = 12;
const TAG = 16;
export const KEY_BYTES = 32;

/** A fresh random AES-256 key (a per-file or per-job data key). */
export const newDataKey = (): Buffer => randomBytes(KEY_BYTES);

export function seal(key: Uint8Array, plaintext: Uint8Array, aad: string): Buffer {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]);
}

/** Opens a sealed value; a wrong key, wrong label or any altered byte fails with FORBIDDEN. */
export function open(key: Uint8Array, sealed: Uint8Array, aad: string): Buffer {
  if (sealed.length < 1 + NONCE + TAG || sealed[0] !== VERSION) {
    throw new TaeError('FORBIDDEN', 'sealed value has an unknown layout', { context: { aad } });
  }
  const nonce = sealed.subarray(1, 1 + NONCE);
  const body = sealed.subarray(1 + NONCE, sealed.length - TAG);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch (e) {
    throw new TaeError('FORBIDDEN', 'sealed value does not open with this key', {
      context: { aad },
      cause: e,
    });
  }
}

export const sealJson = (key: Uint8Array, value: unknown, aad: string): Buffer =>
  seal(key, Buffer.from(JSON.stringify(value), 'utf8'), aad);

export const openJson = (key: Uint8Array, sealed: Uint8Array, aad: string): unknown =>
  JSON.parse(open(key, sealed, aad).toString('utf8'));

/** Associated-data labels: each sealed value is bound to what it is and to its row. */
export const AAD = Object.freeze({
  fileContent: (fileId: string) => `file:${fileId}`,
  fileKey: (fileId: string) => `file-key:${fileId}`,
  jobKey: (jobId: string) => `job-key:${jobId}`,
  jobInput: (jobId: string) => `job-input:${jobId}`,
  jobResult: (jobId: string) => `job-result:${jobId}`,
});
