/** Checks at the door: request bodies are hostile until these say otherwise. */
import { isUuid } from '../crypto/index.js';
import type { TaeError } from '../errors/index.js';

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface IdListErrors {
  readonly empty: () => TaeError;
  readonly tooMany: () => TaeError;
  readonly bad: () => TaeError;
}

/** A non-empty array of at most `max` UUID strings; returned lowercased, without repeats. */
export function idList(value: unknown, max: number, errors: IdListErrors): string[] {
  if (!Array.isArray(value) || value.length === 0) throw errors.empty();
  if (value.length > max) throw errors.tooMany();
  const ids: string[] = [];
  for (const v of value) {
    if (!isUuid(v)) throw errors.bad();
    const id = v.toLowerCase();
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
