/**
 * Process ancestry from creation events. Sysmon 1 and 4688 records of one process are merged
 * (same host, pid and image within 2 s); a parent is found by ProcessGuid, else by pid among the
 * processes that started earlier and had not exited, the latest first (PID reuse), and must match
 * the image the child names as its parent. A parent never seen starting is inferred from what its
 * children say about it.
 */
import type { ProcessEnd, ProcessStart } from '../../facts.js';
import { basename } from '../../text.js';

export interface Instance {
  /** Position in start order; a parent always has a smaller index than its children. */
  idx: number;
  computer: string;
  pid: number | null;
  guid: string;
  image: string;
  commandLine: string;
  user: string;
  /** Unix ms; NaN when unknown (inferred parents). */
  start: number;
  end: number;
  recordId: number;
  refs: string[];
  inferred: boolean;
  flagged: boolean;
  parent: Instance | null;
  children: Instance[];
}

/** Sysmon and Security stamp one process creation within this many ms of each other. */
const TWIN_WINDOW_MS = 2000;

const imageKey = (image: string): string => basename(image).toLowerCase();

/** Drawn in red: a command line with an indicator of Medium importance or more. */
const isFlagged = (s: ProcessStart): boolean =>
  s.indicators.some((i) => i.importance !== 'Informational' && i.importance !== 'Low');

function instanceOf(s: ProcessStart): Instance {
  return {
    idx: 0,
    computer: s.computer,
    pid: s.pid,
    guid: s.guid,
    image: s.image,
    commandLine: s.commandLine,
    user: s.user,
    start: s.time,
    end: Number.POSITIVE_INFINITY,
    recordId: s.recordId,
    refs: [s.ref],
    inferred: false,
    flagged: isFlagged(s),
    parent: null,
    children: [],
  };
}

/** One instance per process: a 4688 record joins the Sysmon record of the same creation. */
function mergeTwins(starts: readonly ProcessStart[]): { instance: Instance; start: ProcessStart }[] {
  const out: { instance: Instance; start: ProcessStart }[] = [];
  const sysmonByKey = new Map<string, { instance: Instance; start: ProcessStart; paired: boolean }[]>();
  const key = (s: ProcessStart) => `${s.computer}\u0000${s.pid}\u0000${imageKey(s.image)}`;
  for (const s of starts) {
    if (s.source !== 'sysmon' || s.pid === null) continue;
    const entry = { instance: instanceOf(s), start: s, paired: false };
    out.push(entry);
    const list = sysmonByKey.get(key(s));
    if (list === undefined) sysmonByKey.set(key(s), [entry]);
    else list.push(entry);
  }
  for (const list of sysmonByKey.values()) list.sort((a, b) => a.start.time - b.start.time);
  for (const s of starts) {
    if (s.source === 'sysmon' && s.pid !== null) continue;
    let best: { instance: Instance; start: ProcessStart; paired: boolean } | undefined;
    const list = s.pid === null ? [] : (sysmonByKey.get(key(s)) ?? []);
    // Only the few records nearest in time can be the twin (bounded for hostile repetition).
    const at = firstAtOrAfter(list, s.time - TWIN_WINDOW_MS, (c) => c.start.time);
    for (let i = at; i < Math.min(list.length, at + 64); i++) {
      const c = list[i]!;
      const d = Math.abs(c.start.time - s.time);
      if (c.start.time - s.time > TWIN_WINDOW_MS) break;
      if (!c.paired && d <= TWIN_WINDOW_MS && (best === undefined || d < Math.abs(best.start.time - s.time)))
        best = c;
    }
    if (best === undefined) {
      out.push({ instance: instanceOf(s), start: s });
      continue;
    }
    best.paired = true;
    const i = best.instance;
    i.refs.push(s.ref);
    if (i.commandLine === '') i.commandLine = s.commandLine;
    if (i.user === '') i.user = s.user;
    i.flagged ||= isFlagged(s);
  }
  return out;
}

const byStart = (a: Instance, b: Instance): number =>
  (a.computer < b.computer ? -1 : a.computer > b.computer ? 1 : 0) ||
  (Number.isNaN(a.start) ? 1 : 0) - (Number.isNaN(b.start) ? 1 : 0) ||
  a.start - b.start ||
  a.recordId - b.recordId ||
  (a.pid ?? -1) - (b.pid ?? -1);

/** Every process instance, real ones in start order and then the inferred parents, linked. */
export function resolveAncestry(starts: readonly ProcessStart[], ends: readonly ProcessEnd[]): Instance[] {
  const merged = mergeTwins(starts);
  merged.sort((a, b) => byStart(a.instance, b.instance));
  const instances = merged.map((m, idx) => Object.assign(m.instance, { idx }));
  const byGuid = new Map<string, Instance>();
  const byPid = new Map<string, Instance[]>();
  for (const i of instances) {
    if (i.guid !== '' && !byGuid.has(`${i.computer}\u0000${i.guid}`))
      byGuid.set(`${i.computer}\u0000${i.guid}`, i);
    if (i.pid === null) continue;
    const k = `${i.computer}\u0000${i.pid}`;
    const list = byPid.get(k);
    if (list === undefined) byPid.set(k, [i]);
    else list.push(i);
  }
  for (const e of ends) markEnd(e, byGuid, byPid);
  const inferred = new Map<string, Instance>();
  for (const m of merged) {
    const child = m.instance;
    const s = m.start;
    const parent = findParent(child, s, byGuid, byPid) ?? inferParent(child, s, inferred, instances);
    if (parent === null) continue;
    child.parent = parent;
    parent.children.push(child);
  }
  return instances;
}

function markEnd(e: ProcessEnd, byGuid: Map<string, Instance>, byPid: Map<string, Instance[]>): void {
  if (!Number.isFinite(e.time)) return;
  const viaGuid = e.guid === '' ? undefined : byGuid.get(`${e.computer}\u0000${e.guid}`);
  if (viaGuid !== undefined) {
    viaGuid.end = Math.min(viaGuid.end, e.time);
    return;
  }
  if (e.pid === null) return;
  const list = byPid.get(`${e.computer}\u0000${e.pid}`) ?? [];
  // The latest process with this pid that had started by then (unknown starts sort last).
  const p = list[firstAtOrAfter(list, e.time + 1e-3, (x) => x.start) - 1];
  if (p === undefined) return;
  if (e.image === '' || imageKey(e.image) === imageKey(p.image)) p.end = Math.min(p.end, e.time);
}

function findParent(
  child: Instance,
  s: ProcessStart,
  byGuid: Map<string, Instance>,
  byPid: Map<string, Instance[]>,
): Instance | null {
  if (s.parentGuid !== '') {
    const p = byGuid.get(`${child.computer}\u0000${s.parentGuid}`);
    if (p !== undefined && p.idx < child.idx) return p;
  }
  if (s.parentPid === null) return null;
  const list = byPid.get(`${child.computer}\u0000${s.parentPid}`) ?? [];
  // The latest earlier process with this pid is the parent, unless it had exited or is not the
  // program the child names as its parent (then the real parent was never logged).
  const p = list[firstAtOrAfter(list, child.idx, (x) => x.idx) - 1];
  if (p === undefined || p.end < child.start) return null;
  if (s.parentImage !== '' && p.image !== '' && imageKey(s.parentImage) !== imageKey(p.image)) return null;
  if (s.parentGuid !== '' && p.guid !== '' && p.guid !== s.parentGuid) return null;
  return p;
}

/** The first index whose key is at least `value` in a list sorted by that key (binary search). */
function firstAtOrAfter<T>(list: readonly T[], value: number, keyOf: (x: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(list[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A parent known only from its children: one node per host and parent guid (or pid and image). */
function inferParent(
  child: Instance,
  s: ProcessStart,
  inferred: Map<string, Instance>,
  all: Instance[],
): Instance | null {
  if (s.parentPid === null && s.parentGuid === '' && s.parentImage === '') return null;
  const key = `${child.computer}\u0000${s.parentGuid || `${s.parentPid}\u0000${imageKey(s.parentImage)}`}`;
  let p = inferred.get(key);
  if (p === undefined) {
    p = {
      idx: all.length,
      computer: child.computer,
      pid: s.parentPid,
      guid: s.parentGuid,
      image: s.parentImage,
      commandLine: '',
      user: '',
      start: Number.NaN,
      end: Number.POSITIVE_INFINITY,
      recordId: 0,
      refs: [],
      inferred: true,
      flagged: false,
      parent: null,
      children: [],
    };
    inferred.set(key, p);
    all.push(p);
  }
  return p;
}
