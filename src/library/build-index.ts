/**
 * `buildIndex`: EVTX files decoded one after another and streamed into an event index, with
 * no Engine and no data directory. The events go through the pipeline of the Engine's parse
 * job (src/jobs/winevtx.ts: the analyzer's record set judges duplicates, the Sigma pass matches
 * new events, correlation hits are written last) into the same builder (src/search), so a
 * search answers what the Engine answers for a job over the same files
 * (test/library-search.test.ts checks it). Memory stays bounded: records are decoded chunk by
 * chunk and staged in batches, duplicates are judged by a 12-byte-a-record table, and the index
 * is completed through a bounded page cache, in a worker thread.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  type Analyzer,
  correlationErrorInsight,
  createSigmaPass,
  RecordSet,
  sigmaRuleRef,
} from '../analysis/index.js';
import { cannotWrite, checkOptionKeys, invalidOption, isNoSpace, TaeError } from '../errors/index.js';
import { type ErrorInsight, errorInsight } from '../insights/index.js';
import { eventDescriber } from '../lookup/index.js';
import { checkSourceFile, type DecodePool } from '../parse/index.js';
import { type DecodeFilesResult, decodeFiles, lazyPool } from '../pipeline/index.js';
import { EventIndexBuilder, makeTempDir } from '../search/index.js';
import { type EvtxIndex, OpenIndex } from './evtx-index.js';
import { type IndexSigmaRules, sigmaRulesOf } from './sigma-rules.js';

/** What to index: the EVTX files, and how. */
export interface IndexSourceOptions {
  /** Paths of EVTX files (1 to 10,000), decoded in this order. */
  readonly files: readonly string[];
  /** Sigma rules matched against every new event (default none; see IndexSigmaRules). */
  readonly sigma?: IndexSigmaRules;
  /** The `job_name` of `browse_events: false` answers (default: the first file's name). */
  readonly name?: string;
  /** Decode threads per file, as `parseEvtx`'s `threads` (default 0: this thread). */
  readonly threads?: number;
  /** A decode pool to share, as `parseEvtx`'s `pool`. */
  readonly pool?: DecodePool;
  /** Cancels the build (`TaeError` `CANCELLED`). */
  readonly signal?: AbortSignal;
}

export interface BuildIndexOptions extends IndexSourceOptions {
  /**
   * Where to keep the index: a file that must not exist yet, left in place by `close()`
   * (owner-only, not encrypted). Default: a temporary file, encrypted under a key held in
   * memory, removed by `close()`.
   */
  readonly path?: string;
  /**
   * Where a temporary index's own directory is made (default the system's temporary
   * directory): a caller that must remove it whatever happens (a signal) names a directory
   * it owns and removes.
   */
  readonly tempDir?: string;
}

const SOURCE_OPTIONS: Record<keyof IndexSourceOptions, true> = {
  files: true,
  sigma: true,
  name: true,
  threads: true,
  pool: true,
  signal: true,
};
const BUILD_OPTIONS: Record<keyof BuildIndexOptions, true> = { ...SOURCE_OPTIONS, path: true, tempDir: true };
export const MAX_INDEX_FILES = 10_000;
const MAX_NAME = 256;

/**
 * Builds an event index from EVTX files; close it when done.
 *
 * @example
 * const index = await buildIndex({ files: ['Security.evtx'], sigma: 'community' });
 * try {
 *   const { insights } = await index.search({ search: '4625', browse_events: true });
 *   console.log(`${index.events} events, ${insights[0]?.IndexTable.data.length ?? 0} found`);
 * } finally {
 *   index.close();
 * }
 */
export async function buildIndex(options: BuildIndexOptions): Promise<EvtxIndex> {
  checkOptionKeys(options, BUILD_OPTIONS);
  return build(options);
}

/** The options of `search({ files, … })`: no `path`, the index being temporary. */
export function checkSourceOptions(options: unknown): asserts options is IndexSourceOptions {
  checkOptionKeys(options, SOURCE_OPTIONS);
}

function checkFiles(files: unknown): string[] {
  if (!Array.isArray(files) || files.length === 0 || files.length > MAX_INDEX_FILES)
    throw invalidOption('files', `an array of 1 to ${MAX_INDEX_FILES} file paths`, files);
  for (const f of files)
    if (typeof f !== 'string' || f === '') throw invalidOption('files', 'an array of file paths', f);
  return files as string[];
}

/** Each file's name in the index: its base name, or the path as given when two share one. */
export function namesOf(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.map((p) => {
    const name = seen.has(basename(p)) ? p : basename(p);
    seen.add(name);
    return name;
  });
}

/**
 * @param key for a `path` index: encrypt it under this 32-byte key (the CLI's index cache,
 * src/cli/search-cache.ts); the caller keeps the key, this copy is wiped
 */
export async function build(options: BuildIndexOptions, key?: Uint8Array): Promise<EvtxIndex> {
  const files = checkFiles(options.files);
  const { path, name = basename(files[0]!), signal } = options;
  if (path !== undefined && (typeof path !== 'string' || path === ''))
    throw invalidOption('path', 'a file path', path);
  if (path !== undefined && existsSync(path))
    throw new TaeError('INVALID_ARGUMENT', `options.path ${path} exists: an index is built into a new file`, {
      context: { option: 'path' },
    });
  if (typeof name !== 'string' || name === '' || name.length > MAX_NAME)
    throw invalidOption('name', `a string of 1 to ${MAX_NAME} characters`, name);
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalidOption('signal', 'an AbortSignal', signal);
  for (const f of files) await checkSourceFile(f);
  const sigma = await sigmaRulesOf(options.sigma);

  const within = options.tempDir ?? tmpdir();
  if (typeof within !== 'string' || within === '') throw invalidOption('tempDir', 'a directory path', within);
  const tempDir = path === undefined ? makeTempDir('search-index', within) : null;
  const target = {
    path: path ?? join(tempDir!, 'events.sqlite'),
    key: tempDir !== null ? randomBytes(32) : key === undefined ? null : Buffer.from(key),
  };
  try {
    const describe = eventDescriber();
    const builder = new EventIndexBuilder(target, { sigma: sigma !== undefined, describe });
    const pass = createSigmaPass({ analyzer: dedupOnly(), ...(sigma === undefined ? {} : { sigma }) });
    const errors: ErrorInsight[] = [];
    let firstFailure: TaeError | undefined;
    // `threads` or `pool` decode every file on threads, whatever its size (as parseEvtx does).
    const pool = options.pool;
    const threads = options.threads ?? 0;
    const own = pool === undefined && threads > 0 ? lazyPool(threads) : undefined;
    const decoding = {
      ...(pool !== undefined ? { pool: () => pool } : {}),
      ...(own !== undefined ? { pool: own.get } : {}),
      inlineBelowBytes: 0,
      ...(signal ? { signal } : {}),
      ...(sigma === undefined ? {} : { sigma }),
    };
    let parsed = 0;
    try {
      const names = namesOf(files);
      let decoded: DecodeFilesResult;
      try {
        decoded = await decodeFiles(
          files.map((path, i) => ({ name: names[i]!, open: async () => ({ source: path, size: 0 }) })),
          decoding,
          {
            event(e, { name }, matched) {
              const added = pass.add(e, name, matched);
              if (!added.fresh) builder.duplicate(e, name);
              else builder.add(e, name, added.rules.map(sigmaRuleRef));
            },
            fileDone: ({ name, parse }) => builder.fileDiagnostics(name, parse.diagnostics),
            ready: () => builder.ready(),
          },
        );
      } catch (e) {
        if (signal?.aborted) throw new TaeError('CANCELLED', 'index build cancelled', { cause: e });
        throw e;
      } finally {
        await own?.close();
      }
      parsed = decoded.parsed;
      for (const { file, error } of decoded.failures) {
        firstFailure ??= error;
        errors.push(errorInsight(`${file}: ${error.message}`));
      }
      // No file decoded: a job would fail; its Error insights become the message.
      if (parsed === 0)
        throw new TaeError(firstFailure!.code, errors.map((e) => e.Error.message).join('; '), {
          cause: firstFailure,
        });
      const { hits, diagnostics } = pass.finish();
      for (const h of hits) builder.correlation(sigmaRuleRef(h.correlation), h.firstTimestamp);
      errors.push(...diagnostics.map(correlationErrorInsight));
      await builder.finish(signal);
    } catch (e) {
      await builder.abort();
      throw e;
    }
    if (tempDir === null) chmodSync(target.path, 0o600);
    return new OpenIndex({ id: randomUUID(), name, path: target.path, tempDir, key: target.key, errors });
  } catch (e) {
    if (tempDir !== null) rmSync(tempDir, { recursive: true, force: true });
    // One code for a full disk, whichever layer of the build met it (SQLite, a file, a thread).
    throw isNoSpace(e) ? cannotWrite(`the index ${target.path}`, e) : e;
  } finally {
    target.key?.fill(0);
  }
}

/**
 * The part of the analyzer a build needs: which records are new (the analyzer's own record set,
 * with its default size). The analysis itself is rebuilt from the index when asked for, so the
 * per-event facts a job's analyzer gathers (about 1.2 KB an event) are not held while building.
 */
function dedupOnly(): Analyzer {
  const records = new RecordSet();
  return {
    add: (e) => records.add(e),
    addDigest: (d) => records.addRecord(d, d.hash),
    addSigmaMatch: () => {},
    addDiagnostics: () => {},
    addPayloadScan: () => {},
    finish: () => {
      throw new TaeError('INTERNAL', 'a build does not finish an analysis');
    },
  };
}
