/**
 * Pool worker: compiles rule sets and scans buffers or files. Each worker keeps the native
 * rules of the last few rule-set hashes, so a rule set is deserialized once per worker.
 * Every scan runs with a timeout: a native scan ignores piscina's abort, so the timeout is
 * what stops a rule that would run forever.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { loadYaraX, type NativeRuleMatch, type NativeRules, type YaraXModule } from '../../native/yara-x.js';
import { isTaeError } from '../errors/index.js';
import { toDiagnostic, type YaraDiagnostic } from './diagnostics.js';
import type {
  CompileTask,
  CompileTaskResult,
  ScanBatchTask,
  ScanBatchTaskResult,
  ScanItemResult,
  ScanTarget,
  ScanTask,
  ScanTaskResult,
  YaraRuleMatch,
  YaraTask,
} from './protocol.js';

/** Rule sets kept per worker; each holds compiled matchers (a large pack is tens of MB). */
const KEPT_RULE_SETS = 8;
const kept = new Map<string, NativeRules>();

function keep(hash: string, rules: NativeRules): NativeRules {
  kept.delete(hash);
  kept.set(hash, rules);
  while (kept.size > KEPT_RULE_SETS) kept.delete(kept.keys().next().value!);
  return rules;
}

function compileSources(y: YaraXModule, task: CompileTask, sources: CompileTask['sources']): NativeRules {
  const [only] = sources;
  if (sources.length === 1 && only !== undefined && only.namespace === undefined) {
    return y.compile(only.source, task.options);
  }
  // compile('') fixes the options; addRuleSources then builds every source in one pass.
  const rules = y.compile('', task.options);
  rules.addRuleSources(
    sources.map((s) => ({ source: s.source, ...(s.namespace ? { namespace: s.namespace } : {}) })),
  );
  return rules;
}

function compiled(
  task: CompileTask,
  rules: NativeRules,
  skipped: readonly YaraDiagnostic[],
): CompileTaskResult {
  keep(task.hash, rules);
  const bytes = rules.serialize();
  const serialized = new Uint8Array(new SharedArrayBuffer(bytes.length));
  serialized.set(bytes);
  const warnings = rules.getWarnings().map((w) => toDiagnostic('warning', w));
  return { kind: 'compiled', serialized, warnings, skipped };
}

function compile(task: CompileTask): CompileTaskResult {
  const y = loadYaraX();
  try {
    return compiled(task, compileSources(y, task, task.sources), []);
  } catch (thrown) {
    // The binary throws only the first error: validate each source for all of them.
    const errors: YaraDiagnostic[] = [];
    const warnings: YaraDiagnostic[] = [];
    const valid = task.sources.filter((s) => {
      const options = { ...task.options, ...(s.namespace ? { namespace: s.namespace } : {}) };
      const r = y.validate(s.source, options);
      for (const e of r.errors) errors.push(toDiagnostic('error', e, s.origin));
      for (const w of r.warnings) warnings.push(toDiagnostic('warning', w, s.origin));
      return r.errors.length === 0;
    });
    // Sources valid alone but not together (a duplicate rule across sources): the thrown report.
    if (errors.length === 0) errors.push(toDiagnostic('error', thrown as Error));
    if (task.invalidSources === 'skip' && valid.length > 0 && valid.length < task.sources.length) {
      try {
        return compiled(task, compileSources(y, task, valid), errors);
      } catch (again) {
        errors.push(toDiagnostic('error', again as Error));
      }
    }
    return { kind: 'compile-failed', errors, warnings };
  }
}

function summarise(m: NativeRuleMatch): YaraRuleMatch {
  const patterns = new Map<string, { identifier: string; count: number; firstOffset: number }>();
  for (const hit of m.matches) {
    const p = patterns.get(hit.identifier);
    if (p === undefined)
      patterns.set(hit.identifier, { identifier: hit.identifier, count: 1, firstOffset: hit.offset });
    else p.count++;
  }
  return {
    rule: m.ruleIdentifier,
    namespace: m.namespace,
    tags: m.tags,
    meta: m.meta,
    patterns: [...patterns.values()],
  };
}

/** Reads a whole file into memory (never mmap: a file truncated under a mapping kills the process). */
function readTarget(target: ScanTarget): Uint8Array {
  if (target.kind === 'bytes') return target.bytes;
  const fd = openSync(target.path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > target.maxBytes)
      throw new Error(`file is ${size} bytes, over the ${target.maxBytes}-byte budget`);
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = readSync(fd, bytes, filled, size - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

function scan(task: ScanTask): ScanTaskResult {
  const y = loadYaraX();
  const rules = keep(task.hash, kept.get(task.hash) ?? y.deserialize(task.rules));
  let data: Uint8Array;
  try {
    data = readTarget(task.target);
  } catch (e) {
    return { kind: 'failed', message: `cannot read the file: ${(e as Error).message}` };
  }
  rules.setTimeout(task.timeoutMs);
  rules.setMaxMatchesPerPattern(task.maxMatchesPerPattern);
  return scanOne(rules, data, task.variables);
}

function scanOne(rules: NativeRules, data: Uint8Array, variables: ScanTask['variables']): ScanItemResult {
  try {
    const matches = rules.scan(data, variables).map(summarise);
    return { kind: 'matched', matches, bytes: data.length };
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === 'Cancelled' || /timed out/i.test(err.message)) return { kind: 'timeout' };
    return { kind: 'failed', message: err.message };
  }
}

/** Each buffer scanned in turn, each under the timeout (a native scan ignores piscina's abort). */
function scanBatch(task: ScanBatchTask): ScanBatchTaskResult {
  const y = loadYaraX();
  const rules = keep(task.hash, kept.get(task.hash) ?? y.deserialize(task.rules));
  rules.setTimeout(task.timeoutMs);
  rules.setMaxMatchesPerPattern(task.maxMatchesPerPattern);
  return { kind: 'scanned', results: task.targets.map((t) => scanOne(rules, t, task.variables)) };
}

export default function runYaraTask(
  task: YaraTask,
): CompileTaskResult | ScanTaskResult | ScanBatchTaskResult {
  try {
    switch (task.kind) {
      case 'compile':
        return compile(task);
      case 'scan':
        return scan(task);
      case 'scan-batch':
        return scanBatch(task);
      default:
        return task satisfies never;
    }
  } catch (e) {
    if (isTaeError(e) && e.code === 'NATIVE_UNAVAILABLE') return { kind: 'unavailable', message: e.message };
    return { kind: 'failed', message: (e as Error).message };
  }
}
