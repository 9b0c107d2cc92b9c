/**
 * A decipher thread's task (decipher.ts): one sealed segment through AES-256-GCM. Its plaintext
 * goes back moved, never copied, or, when only its tag is checked, is wiped here; the key's copy
 * this thread was given is wiped after each task.
 */
import { createDecipheriv } from 'node:crypto';
import { Piscina } from 'piscina';

export interface DecipherTask {
  readonly key: Uint8Array;
  readonly iv: Uint8Array;
  readonly aad: Uint8Array;
  /** The segment's ciphertext then its 16-byte tag, at the start of this (moved) buffer. */
  readonly sealed: ArrayBuffer;
  /** Ciphertext bytes (the tag follows). */
  readonly length: number;
  /** Send the plaintext back; otherwise only its tag is checked. */
  readonly keep: boolean;
}

/** What a failed tag says: the thread that asked makes its own error of it. */
export const NOT_AUTHENTIC = 'segment fails authentication';

export default function decipher(task: DecipherTask): ArrayBuffer | null | object {
  const { key, iv, aad, length, keep } = task;
  try {
    const sealed = new Uint8Array(task.sealed, 0, length + 16);
    const d = createDecipheriv('aes-256-gcm', key, iv);
    d.setAAD(aad);
    d.setAuthTag(sealed.subarray(length));
    const plain = d.update(sealed.subarray(0, length));
    try {
      d.final();
    } catch {
      plain.fill(0);
      throw new Error(NOT_AUTHENTIC);
    }
    if (!keep) {
      free(plain);
      return null;
    }
    // A buffer of its own moves; a pooled slice (a short last segment) is copied into one first.
    const own = plain.byteOffset === 0 && plain.buffer.byteLength === plain.length;
    const out = own ? (plain.buffer as ArrayBuffer) : Uint8Array.prototype.slice.call(plain).buffer;
    if (!own) plain.fill(0);
    return Piscina.move(out);
  } finally {
    key.fill(0);
    // Freed now, not at a collection this thread seldom makes (it allocates little else): held,
    // they raised the RSS of reading a 96 MiB file by 142 MiB.
    task.sealed.transfer(0);
  }
}

/** Wipes and frees a buffer of its own (a pooled slice is only wiped). */
function free(b: Buffer): void {
  b.fill(0);
  if (b.byteOffset === 0 && b.buffer.byteLength === b.length) (b.buffer as ArrayBuffer).transfer(0);
}
