/**
 * `scanFiles`: the work of a Yara file job. Files are read by the workers themselves (never
 * loaded on the main thread), at most two per thread in flight, and the total is checked
 * against the spec's 250 MB limit before any scan starts. A file that cannot be read or
 * times out becomes an Error insight beside the results of the others.
 */
import { stat } from 'node:fs/promises';
import type { NativeVariables } from '../../native/yara-x.js';
import { invalidOption, TaeError } from '../errors/index.js';
import type { CompiledRuleSet } from './cache.js';
import { diagnosticsText, type YaraDiagnostic } from './diagnostics.js';
import { defaultYaraEngine, type ScanOutcome, type YaraEngine } from './engine.js';
import {
  errorInsight,
  FILE_COLUMNS,
  FILE_TABLE_TITLE,
  matchRow,
  metadataInsight,
  tableInsight,
  timeoutMessage,
  type YaraInsight,
} from './insights.js';
import { type CommunityRules, resolveCommunity } from './run-yara.js';

/** 250 MB as 250 MiB: the spec's "Max File analysis size limit exceeded (250MB)". */
export const MAX_FILE_ANALYSIS_BYTES = 250 * 1024 * 1024;
export const MAX_FILES = 100;

export type YaraFileInput =
  | { readonly name: string; readonly path: string }
  | { readonly name: string; readonly bytes: Uint8Array };

export type YaraRuleChoice =
  /** A custom rule's text (already base64-decoded). */
  | { readonly kind: 'custom'; readonly source: string }
  | { readonly kind: 'community'; readonly rules: CommunityRules };

export interface ScanFilesOptions {
  readonly files: readonly YaraFileInput[];
  readonly rules: YaraRuleChoice;
  readonly engine?: YaraEngine;
  readonly timeoutMs?: number;
  /** Scan-time variables, fixed or per file (signature-base's `filename`, …). */
  readonly variables?: NativeVariables | ((file: YaraFileInput) => NativeVariables);
  readonly signal?: AbortSignal;
}

export interface YaraFileScan {
  readonly insights: readonly YaraInsight[];
  /** Compiler errors of a custom rule; when present nothing was scanned. */
  readonly compileErrors: readonly YaraDiagnostic[];
  readonly stats: { files: number; bytes: number; matches: number; failedFiles: number };
}

const badRequest = (message: string) =>
  new TaeError('INVALID_ARGUMENT', message, { status: 400, bodyFormat: 'json' });

function checkFiles(files: unknown): asserts files is readonly YaraFileInput[] {
  if (!Array.isArray(files) || files.length === 0) throw badRequest('No file IDs provided');
  if (files.length > MAX_FILES) throw badRequest('Too many file IDs provided');
  for (const f of files as Partial<{ name: unknown; path: unknown; bytes: unknown }>[]) {
    const ok =
      f !== null &&
      typeof f === 'object' &&
      typeof f.name === 'string' &&
      (typeof f.path === 'string') !== f.bytes instanceof Uint8Array;
    if (!ok) throw invalidOption('files', 'an array of { name, path } or { name, bytes: Uint8Array }', f);
  }
}

/** Sizes up front: the limit is enforced before any work; an unstat-able file counts 0 and fails later. */
async function sizes(files: readonly YaraFileInput[]): Promise<number[]> {
  return Promise.all(
    files.map((f) =>
      'bytes' in f
        ? f.bytes.length
        : stat(f.path).then(
            (s) => s.size,
            () => 0,
          ),
    ),
  );
}

export async function scanFiles(options: ScanFilesOptions): Promise<YaraFileScan> {
  const { files, rules: choice, signal } = options;
  checkFiles(files);
  const sized = await sizes(files);
  const total = sized.reduce((a, b) => a + b, 0);
  if (total > MAX_FILE_ANALYSIS_BYTES) throw badRequest('Max File analysis size limit exceeded (250MB)');
  const engine = options.engine ?? defaultYaraEngine();
  let rules: CompiledRuleSet;
  let tail: YaraInsight[] = [];
  if (choice?.kind === 'custom' && typeof choice.source === 'string') {
    const outcome = await engine.compile({ sources: choice.source, ...(signal ? { signal } : {}) });
    if (outcome.kind === 'failed') {
      const insights = [
        errorInsight(diagnosticsText(outcome.errors)),
        metadataInsight(diagnosticsText(outcome.warnings), choice.source),
      ];
      return {
        insights,
        compileErrors: outcome.errors,
        stats: { files: 0, bytes: 0, matches: 0, failedFiles: 0 },
      };
    }
    rules = outcome.rules;
    tail = [metadataInsight(diagnosticsText(rules.warnings), choice.source)];
  } else if (choice?.kind === 'community') {
    rules = await resolveCommunity(choice.rules);
  } else {
    throw invalidOption('rules', "{ kind: 'custom', source } or { kind: 'community', rules }", choice);
  }
  const scan = (f: YaraFileInput, i: number): Promise<ScanOutcome> => {
    const variables = typeof options.variables === 'function' ? options.variables(f) : options.variables;
    const maxBytes = MAX_FILE_ANALYSIS_BYTES - (total - sized[i]!); // what the limit leaves this file
    return engine.scan({
      rules,
      target: 'bytes' in f ? { bytes: f.bytes } : { path: f.path, maxBytes },
      ...(variables ? { variables } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(signal ? { signal } : {}),
    });
  };
  const outcomes = await inOrder(files, 2 * engine.options.threads, scan);
  const { insights, stats } = collect(files, outcomes);
  return { insights: [...insights, ...tail], compileErrors: [], stats };
}

/** The table (file order, then rule order) followed by one Error insight per failed file. */
function collect(files: readonly YaraFileInput[], outcomes: readonly ScanOutcome[]) {
  const rows: string[][] = [[...FILE_COLUMNS]];
  const errors: YaraInsight[] = [];
  const stats = { files: files.length, bytes: 0, matches: 0, failedFiles: 0 };
  for (const [i, o] of outcomes.entries()) {
    const name = files[i]!.name;
    switch (o.kind) {
      case 'matched':
        stats.bytes += o.bytes;
        stats.matches += o.matches.length;
        for (const m of o.matches) rows.push(matchRow('file', name, m));
        break;
      case 'timeout':
        stats.failedFiles++;
        errors.push(errorInsight(`${name}: ${timeoutMessage(o.timeoutMs)}`));
        break;
      case 'failed':
        stats.failedFiles++;
        errors.push(errorInsight(`${name}: ${o.message}`));
        break;
      default:
        o satisfies never;
    }
  }
  return { insights: [tableInsight(FILE_TABLE_TITLE, rows), ...errors], stats };
}

/** Runs `work` over `items` with at most `limit` in flight, results in input order. */
export async function inOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (t: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
