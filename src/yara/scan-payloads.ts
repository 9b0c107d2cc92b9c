/**
 * `scanPayloads`: YARA-X over what events carried (script blocks, decoded commands…), one scan
 * per payload through the engine's workers, compiled-rules cache and timeouts, as file scans.
 * Payloads are typed structurally (text or bytes), so this rim needs nothing from src/payloads.
 */
import type { NativeVariables } from '../../native/yara-x.js';
import { invalidOption } from '../errors/index.js';
import type { CompiledRuleSet } from './cache.js';
import type { YaraDiagnostic } from './diagnostics.js';
import { type CompileRulesOptions, defaultYaraEngine, type ScanOutcome, type YaraEngine } from './engine.js';
import { inOrder } from './scan-files.js';

/** What a payload must offer to be scanned: its text (scanned as UTF-8) or its bytes. */
export type ScannablePayload =
  | { readonly text: string }
  | { readonly text?: undefined; readonly bytes: Uint8Array };

export interface ScanPayloadsOptions {
  /** Rules to compile (through the engine's cache): a text, sources, or full compile options. */
  readonly rules?: CompileRulesOptions['sources'] | CompileRulesOptions;
  /** Rules compiled already (`YaraEngine.compile`); exclusive with `rules`. */
  readonly compiled?: CompiledRuleSet;
  readonly engine?: YaraEngine;
  /** Per payload (default: the engine's scan timeout, 30 s). */
  readonly timeoutMs?: number;
  readonly variables?: NativeVariables;
  readonly signal?: AbortSignal;
}

export interface PayloadScanResult<P> {
  readonly payload: P;
  /** `matched` (with the rules that matched, maybe none), `timeout` or `failed`. */
  readonly outcome: ScanOutcome;
}

export type PayloadScan<P> =
  | {
      readonly kind: 'scanned';
      /** In the order of `payloads`. */
      readonly results: readonly PayloadScanResult<P>[];
      readonly warnings: readonly YaraDiagnostic[];
    }
  | {
      readonly kind: 'compile-failed';
      readonly errors: readonly YaraDiagnostic[];
      readonly warnings: readonly YaraDiagnostic[];
    };

const isCompileOptions = (r: ScanPayloadsOptions['rules']): r is CompileRulesOptions =>
  r !== null && typeof r === 'object' && !Array.isArray(r) && 'sources' in r;

async function ruleSet(
  engine: YaraEngine,
  options: ScanPayloadsOptions,
): Promise<CompiledRuleSet | { errors: readonly YaraDiagnostic[]; warnings: readonly YaraDiagnostic[] }> {
  const { rules, compiled, signal } = options;
  if ((rules === undefined) === (compiled === undefined))
    throw invalidOption('rules', 'given, or else compiled (exactly one of them)', rules ?? compiled);
  if (compiled !== undefined) return compiled;
  const base = isCompileOptions(rules) ? rules : { sources: rules! };
  const outcome = await engine.compile({ ...base, ...(signal ? { signal } : {}) });
  return outcome.kind === 'compiled' ? outcome.rules : { errors: outcome.errors, warnings: outcome.warnings };
}

const bytesOf = (p: ScannablePayload): Uint8Array =>
  p.text !== undefined ? Buffer.from(p.text, 'utf8') : p.bytes;

export async function scanPayloads<P extends ScannablePayload>(
  payloads: Iterable<P>,
  options: ScanPayloadsOptions,
): Promise<PayloadScan<P>> {
  const engine = options.engine ?? defaultYaraEngine();
  const rules = await ruleSet(engine, options);
  if (!('serialized' in rules)) return { kind: 'compile-failed', ...rules };
  const list = [...payloads];
  const outcomes = await inOrder(list, 2 * engine.options.threads, (p) =>
    engine.scan({
      rules,
      target: { bytes: bytesOf(p) },
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.variables ? { variables: options.variables } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  );
  return {
    kind: 'scanned',
    results: list.map((payload, i) => ({ payload, outcome: outcomes[i]! })),
    warnings: rules.warnings,
  };
}
