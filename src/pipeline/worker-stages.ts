/**
 * The engine's pool worker: the decode worker, then, for tasks that carry Sigma rules, the
 * rules matched against each decoded event where the event was made. Only the positions of the
 * matched rules go back with the records (most records match none: `null`). The rules are
 * loaded and compiled once per version in each worker. For tasks that ask for rows, each
 * event's index row is made here too, packed; for tasks that ask for digests, each event's
 * analysis digest, and then the event itself goes back only when it matched a rule (as it does
 * for tasks that ask for only the matched events, with a count of the others). A failure
 * here never loses records: the chunk goes back unmatched (or without rows, or with its events)
 * and the main thread does that work.
 */
import { workerData } from 'node:worker_threads';
import { Digester, digestColumns, type EventDigest } from '../analysis/index.js';
import type { DecodedChunk, EvtxEvent } from '../evtx/index.js';
import { type Descriptions, describerOf } from '../messages/index.js';
import { decodeWorker, mapSpan, type SpanResult, type SpanTask } from '../parse/index.js';
import { type PackedRows, RowPacker } from '../rows/index.js';
import { type LoadedPortable, loadPortable, sigmaEventFromEvtx } from '../sigma/index.js';
import type { PipelineStage, PipelineWorkerData, RowsStage, StagedChunk } from './stage.js';

let rules: { readonly version: string; readonly loaded: LoadedPortable | null } | undefined;

function rulesOf(stage: PipelineStage): LoadedPortable | null {
  const portable = stage.sigma!;
  if (rules?.version !== portable.version) {
    rules = undefined; // the old set is garbage before the new one is built
    let loaded: LoadedPortable | null = null;
    try {
      loaded = loadPortable(portable);
    } catch {
      loaded = null;
    }
    rules = { version: portable.version, loaded };
  }
  return rules.loaded;
}

function matchChunk(chunk: DecodedChunk, loaded: LoadedPortable): StagedChunk {
  const sigma: (number[] | null)[] = [];
  for (const r of chunk.records) {
    let hit: number[] | null = null;
    if (r.event !== undefined)
      for (const m of loaded.ruleSet.match(sigmaEventFromEvtx(r.event))) {
        const at = loaded.position.get(m.rule);
        if (at === undefined) continue;
        if (hit === null) hit = [at];
        else hit.push(at);
      }
    sigma.push(hit);
  }
  return { ...chunk, sigma };
}

/**
 * One packer per kind of message. The messages come from the texts the pool gave this worker
 * (pipelinePool): without them, a task that asks for messages gets no rows, and the rows are
 * made where they are staged.
 */
const packers = new Map<boolean, RowPacker>();

/** The Windows message texts the pool gave this worker (pipelinePool), if any. */
const descriptions = (): Descriptions | undefined => (workerData as PipelineWorkerData | null)?.descriptions;

/** One describer of those texts for the rows and the digests (it indexes them all once). */
let describe: ReturnType<typeof describerOf> | null | undefined;

function builtinDescribe(): ReturnType<typeof describerOf> | null {
  if (describe !== undefined) return describe;
  const texts = descriptions();
  describe = texts === undefined ? null : describerOf(texts);
  return describe;
}

/** Made with the built-in messages, as the job's analyzer renders them (pipelineStage checks it). */
let digester: Digester | null | undefined;

function digesterOf(): Digester | null {
  if (digester !== undefined) return digester;
  const d = builtinDescribe();
  digester = d === null ? null : new Digester(d);
  return digester;
}

/**
 * The chunk with each event's digest instead of its records: only the events that matched a
 * rule go on (a correlation reads their fields). Unchanged when a digest cannot be made.
 */
function digestChunk(chunk: StagedChunk, eventRules: Uint8Array | undefined): StagedChunk {
  const d = digesterOf();
  if (d === null) return chunk;
  const digests: (EventDigest | null)[] = [];
  const matchedEvents: EvtxEvent[] = [];
  const matchedAt: number[] = [];
  try {
    for (let i = 0; i < chunk.records.length; i++) {
      const e = chunk.records[i]!.event;
      if (e === undefined) {
        digests.push(null);
        continue;
      }
      digests.push(d.digest(e));
      const hit = chunk.sigma?.[i];
      if (hit == null) continue;
      if (eventRules !== undefined && !hit.some((r) => eventRules[r] === 1)) continue;
      matchedEvents.push(e);
      matchedAt.push(i);
    }
  } catch {
    return chunk;
  }
  // A placeholder per record cost about 2 µs an event to copy across (0.6 sent, 1.3 received).
  return {
    ...chunk,
    records: [],
    digests: digestColumns(digests),
    matchedEvents,
    ...(eventRules === undefined ? {} : { matchedAt: Int32Array.from(matchedAt) }),
  };
}

/** The rules whose matched events go on, as flags by position (PipelineStage `eventRules`). */
function eventRulesOf(stage: PipelineStage): Uint8Array | undefined {
  const positions = stage.eventRules;
  if (positions === undefined) return undefined;
  const flags = new Uint8Array(positions.length === 0 ? 0 : Math.max(...positions) + 1);
  for (const p of positions) flags[p] = 1;
  return flags;
}

/** The chunk with only its matched events (`onlyMatched`): the others are only counted. */
function matchedOf(chunk: StagedChunk): StagedChunk {
  const matchedEvents: EvtxEvent[] = [];
  let events = 0;
  for (let i = 0; i < chunk.records.length; i++) {
    const e = chunk.records[i]!.event;
    if (e === undefined) continue;
    events++;
    if (chunk.sigma![i] != null) matchedEvents.push(e);
  }
  return { ...chunk, records: [], matchedEvents, events };
}

function packChunk(chunk: DecodedChunk, rows: RowsStage): PackedRows | undefined {
  let packer = packers.get(rows.messages);
  if (packer === undefined) {
    const d = rows.messages ? builtinDescribe() : undefined;
    if (d === null) return undefined;
    packer = new RowPacker(d);
    packers.set(rows.messages, packer);
  }
  try {
    for (const r of chunk.records) if (r.event !== undefined) packer.add(r.event);
    return packer.take();
  } catch {
    packer.take(); // the rows of a chunk travel whole or not at all
    return undefined;
  }
}

export default function pipelineWorker(task: SpanTask): SpanResult {
  const stage = task.stage as PipelineStage | undefined;
  if (stage === undefined || task.batchText === true) return decodeWorker(task);
  const loaded = stage.sigma === undefined ? null : rulesOf(stage);
  const rows = stage.rows;
  if (loaded === null && rows === undefined && stage.digest !== true) return decodeWorker(task);
  const eventRules = eventRulesOf(stage);
  // Each chunk is staged as soon as it is decoded: with digests, only its records' digests and
  // matched events outlive it, so a span of many chunks holds one chunk's records at a time.
  const chunks = mapSpan(task, (c) => {
    let staged: StagedChunk = c;
    if (loaded !== null) {
      try {
        staged = matchChunk(c, loaded);
      } catch {}
    }
    const packed = rows === undefined ? undefined : packChunk(c, rows);
    if (packed !== undefined) staged = { ...staged, rows: packed };
    // Without its row, an event must go on whole: the index makes the row from it.
    const digest =
      stage.digest === true &&
      (rows === undefined || packed !== undefined) &&
      (stage.sigma === undefined || staged.sigma !== undefined);
    if (digest) return digestChunk(staged, eventRules);
    return stage.onlyMatched === true && staged.sigma !== undefined ? matchedOf(staged) : staged;
  });
  // Copied back, with the input buffer for the next span. Moved (transferred), a result kept
  // everything it held past the worker's young collections, as moved records did (see
  // decodeWorker): on the 1 GB private job each worker promoted 240–250 MB to its old generation
  // and made 15–17 full collections; copied, 30–32 MB and 2–3, for a copy of about 2.3 KB an
  // event (its share of the input and its row), and the job took about 8 % less CPU.
  return { chunks, bytes: task.bytes };
}
