/**
 * What a rule set learnt in a run (sigma's literal anchors and scanners), kept beside the parse
 * cache's entry: a file per entry and salt (`learnt-<hash>.bin`), written after the run, read by
 * the next. Earlier versions named these files `anchors-…`: eviction still counts them
 * (cache-files.ts), so they go as the cache fills, and none is read.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { debugLine } from '../errors/index.js';
import type { Anchor, AnchorClause, Anchors } from '../sigma/index.js';
import { Corrupt, RULE_CACHE_FORMAT, readEntry, write } from './cache-files.js';

/** A rule set's anchors (by sigma's `anchorKey`) and scanners (by key; checked where used). */
export interface Learnt {
  readonly anchors: ReadonlyMap<string, Anchors | null>;
  readonly scanners: ReadonlyMap<string, unknown>;
}

function anchorOf(v: unknown): Anchor {
  if (!Array.isArray(v) || v.length !== 2) throw new Corrupt('anchor');
  const [field, literal] = v as unknown[];
  if ((field !== null && typeof field !== 'string') || typeof literal !== 'string')
    throw new Corrupt('anchor');
  return { field, literal };
}

/** A clause of anchors; an older flat list of anchors (pairs of texts) is not one. */
function clauseOf(v: unknown): AnchorClause {
  if (!Array.isArray(v)) throw new Corrupt('anchors');
  return v.map(anchorOf);
}

function learntOf(raw: unknown, key: string, salt: string): Learnt {
  const e = raw as {
    format?: unknown;
    key?: unknown;
    salt?: unknown;
    anchors?: unknown;
    scanners?: unknown;
  } | null;
  if (
    e === null ||
    typeof e !== 'object' ||
    e.format !== RULE_CACHE_FORMAT ||
    e.key !== key ||
    e.salt !== salt
  )
    throw new Corrupt('head');
  if (!Array.isArray(e.anchors) || !Array.isArray(e.scanners)) throw new Corrupt('learnt');
  const anchors = new Map<string, Anchors | null>();
  for (const item of e.anchors as unknown[]) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string')
      throw new Corrupt('anchors');
    const list = item[1] as unknown;
    if (list !== null && !Array.isArray(list)) throw new Corrupt('anchors');
    anchors.set(item[0], list === null ? null : list.map(clauseOf));
  }
  const scanners = new Map<string, unknown>();
  for (const item of e.scanners as unknown[]) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string')
      throw new Corrupt('scanners');
    scanners.set(item[0], item[1]);
  }
  return { anchors, scanners };
}

/** Entries taken that were not read (a known one refused and built again counts as new). */
const added = (known: ReadonlyMap<string, unknown>, taken: ReadonlyMap<string, unknown>): number => {
  let n = 0;
  for (const [k, v] of taken) if (known.get(k) !== v) n++;
  return n;
};

/**
 * What rule sets learn is kept apart from the parse: it arrives at the end of a run, per salt.
 * Scanners are keyed by their literals, so any salt's are valid; they are checked where used.
 */
export function learntStore(dir: string, key: string, maxBytes: number) {
  const fileOf = (salt: string) =>
    join(dir, `learnt-${createHash('sha256').update(`${key}\0${salt}`).digest('hex')}.bin`);
  const read = new Map<string, Learnt>();
  const learnt = (salt: string): Learnt => {
    let known = read.get(salt);
    if (known === undefined) {
      known = readEntry(fileOf(salt), (raw) => learntOf(raw, key, salt)) ?? {
        anchors: new Map(),
        scanners: new Map(),
      };
      read.set(salt, known);
    }
    return known;
  };
  return {
    learnt,
    rememberLearnt(salt: string, taken: Learnt): void {
      const known = learnt(salt);
      const newAnchors = added(known.anchors, taken.anchors);
      const newScanners = added(known.scanners, taken.scanners);
      if (newAnchors + newScanners === 0) return;
      const merged: Learnt = {
        anchors: new Map([...known.anchors, ...taken.anchors]),
        scanners: new Map([...known.scanners, ...taken.scanners]),
      };
      const anchors = [...merged.anchors].map(([k, a]) => [
        k,
        a === null ? null : a.map((clause) => clause.map((x) => [x.field, x.literal])),
      ]);
      write(dir, fileOf(salt), key, { salt, anchors, scanners: [...merged.scanners] }, maxBytes);
      read.set(salt, merged);
      debugLine(
        `sigma rule cache: anchors of ${merged.anchors.size} variants (${newAnchors} new), ${merged.scanners.size} scanners (${newScanners} new)`,
      );
    },
  };
}
