/**
 * How a job's input and result are stored: plain JSON for a public job; for a private one,
 * JSON sealed under the job's own data key, which is itself sealed under the owner key.
 */
import { AAD, open, openJson, sealJson } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import type { Insight } from '../insights/index.js';
import type { JobInput } from './types.js';

interface Sealable {
  readonly id: string;
  readonly wrappedKey: Buffer | null;
}

function jobKey(row: Sealable, ownerKey: Buffer | null): Buffer | null {
  if (row.wrappedKey === null) return null;
  if (ownerKey === null) throw new TaeError('FORBIDDEN', `job ${row.id} is private: its owner key is needed`);
  return open(ownerKey, row.wrappedKey, AAD.jobKey(row.id));
}

const toJson = (v: unknown): Buffer => Buffer.from(JSON.stringify(v), 'utf8');
const fromJson = (b: Buffer): unknown => JSON.parse(b.toString('utf8'));

/** `jobKeyPlain` is the fresh data key of a private job being created (null for public). */
export const encodeInput = (jobId: string, input: JobInput, jobKeyPlain: Buffer | null): Buffer =>
  jobKeyPlain === null ? toJson(input) : sealJson(jobKeyPlain, input, AAD.jobInput(jobId));

export function decodeInput(row: Sealable & { readonly input: Buffer }, ownerKey: Buffer | null): JobInput {
  const key = jobKey(row, ownerKey);
  return (key === null ? fromJson(row.input) : openJson(key, row.input, AAD.jobInput(row.id))) as JobInput;
}

export function encodeResult(row: Sealable, insights: readonly Insight[], ownerKey: Buffer | null): Buffer {
  const key = jobKey(row, ownerKey);
  return key === null ? toJson(insights) : sealJson(key, insights, AAD.jobResult(row.id));
}

export function decodeResult(row: Sealable, body: Buffer, ownerKey: Buffer | null): Insight[] {
  const key = jobKey(row, ownerKey);
  return (key === null ? fromJson(body) : openJson(key, body, AAD.jobResult(row.id))) as Insight[];
}
