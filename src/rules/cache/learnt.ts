/**
 * What a rule set learnt in a run (sigma's literal anchors and scanners), kept beside the parse
 * cache's entry, per entry and salt: `learnt-<hash>.bin` holds the anchors (every variant is
 * given its anchors as the rule set is made), `scanners-<hash>.bin` the scanners, read only when
 * a plan first asks for one (9.8 of SigmaHQ's 11 MB on the hayabusa samples: 40 ms of CPU a warm
 * load spent before any event). Written after the run, read by the next. Both are kept as the
 * rule set gives them: their shape is sigma's to change (a bump of RULE_CACHE_FORMAT then
 * retires the old files). Only what no rule set can give is refused: anything but plain data
 * (scanners are checked where used). Earlier versions named the anchors' files `anchors-…`:
 * eviction still counts them (files.ts), so they go as the cache fills.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { debugLine } from '../../errors/index.js';
import type { Anchors } from '../../sigma/index.js';
import { Corrupt, RULE_CACHE_FORMAT, readEntry, write } from './files.js';
import { LazyMap } from './lazy-map.js';

/** A rule set's anchors (by sigma's `anchorKey`) and scanners (by key; checked where used). */
export interface Learnt {
  readonly anchors: ReadonlyMap<string, Anchors | null>;
  readonly scanners: ReadonlyMap<string, unknown>;
}

const MAX_DEPTH = 32;

/**
 * Strings, numbers, booleans and null in arrays and plain objects: what an anchor is made of.
 * Loops, not every/Object.values: a warm load checks some 16,000 anchors.
 */
function plain(v: unknown, depth: number): boolean {
  const type = typeof v;
  if (v === null || type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!plain(v[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) if (!plain((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

function pairs(v: unknown, what: string): [string, unknown][] {
  if (!Array.isArray(v)) throw new Corrupt(what);
  for (const item of v)
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string') throw new Corrupt(what);
  return v as [string, unknown][];
}

function headOf(raw: unknown, key: string, salt: string): Record<string, unknown> {
  const e = raw as { format?: unknown; key?: unknown; salt?: unknown } | null;
  if (
    e === null ||
    typeof e !== 'object' ||
    e.format !== RULE_CACHE_FORMAT ||
    e.key !== key ||
    e.salt !== salt
  )
    throw new Corrupt('head');
  return e as Record<string, unknown>;
}

function anchorsOf(raw: unknown, key: string, salt: string): Map<string, Anchors | null> {
  const anchors = pairs(headOf(raw, key, salt).anchors, 'anchors');
  // An anchor set is a list (or null: none can be read off), whatever its members are.
  for (const [, a] of anchors)
    if (a !== null && !(Array.isArray(a) && plain(a, 0))) throw new Corrupt('anchors');
  return new Map(anchors as [string, Anchors | null][]);
}

const scannersOf = (raw: unknown, key: string, salt: string): Map<string, unknown> =>
  new Map(pairs(headOf(raw, key, salt).scanners, 'scanners'));

/** Entries taken that were not read (a known one refused and built again counts as new). */
const added = (known: ReadonlyMap<string, unknown>, taken: ReadonlyMap<string, unknown>): number => {
  let n = 0;
  for (const [k, v] of taken) if (known.get(k) !== v) n++;
  return n;
};

const NONE: Learnt = { anchors: new Map(), scanners: new Map() };

/**
 * What rule sets learn is kept apart from the parse: it arrives at the end of a run, per salt.
 * Scanners are keyed by their literals, so any salt's are valid; they are checked where used.
 */
export function learntStore(dir: string | false, key: string, maxBytes: number) {
  const fileOf = (kind: 'learnt' | 'scanners', salt: string) =>
    join(dir || '', `${kind}-${createHash('sha256').update(`${key}\0${salt}`).digest('hex')}.bin`);
  const read = new Map<string, Learnt>();
  const learnt = (salt: string): Learnt => {
    if (dir === false) return NONE;
    let known = read.get(salt);
    if (known === undefined) {
      known = {
        anchors: readEntry(fileOf('learnt', salt), (raw) => anchorsOf(raw, key, salt)) ?? new Map(),
        scanners: new LazyMap(
          () => readEntry(fileOf('scanners', salt), (raw) => scannersOf(raw, key, salt)) ?? new Map(),
        ),
      };
      read.set(salt, known);
    }
    return known;
  };
  return {
    learnt,
    rememberLearnt(salt: string, taken: Learnt): void {
      if (dir === false) return;
      const known = learnt(salt);
      const newAnchors = added(known.anchors, taken.anchors);
      const newScanners = added(known.scanners, taken.scanners);
      if (newAnchors + newScanners === 0) return;
      const merged: Learnt = {
        anchors: newAnchors === 0 ? known.anchors : new Map([...known.anchors, ...taken.anchors]),
        scanners: newScanners === 0 ? known.scanners : new Map([...known.scanners, ...taken.scanners]),
      };
      if (newAnchors > 0)
        write(dir, fileOf('learnt', salt), key, { salt, anchors: [...merged.anchors] }, maxBytes);
      if (newScanners > 0)
        write(dir, fileOf('scanners', salt), key, { salt, scanners: [...merged.scanners] }, maxBytes);
      read.set(salt, merged);
      debugLine(
        `sigma rule cache: anchors of ${merged.anchors.size} variants (${newAnchors} new), ${merged.scanners.size} scanners (${newScanners} new)`,
      );
    },
  };
}
