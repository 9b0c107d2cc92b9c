/**
 * One derived variant of a rule: the rule as one concrete log source sees it (Hayabusa's
 * `sysmon`/`builtin` split). Built from a resolved source row and the rule's detection
 * (filters already merged); recompiled with the core's `compileDetection`.
 */

import { isDeferred } from '../compile.js';
import type { Predicate } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import { compileDetection, type Detection, type DetectionNode } from '../detection.js';
import type { DiagnosticCode } from '../diagnostics.js';
import { contextOf, type EvalContext, type SigmaEvent } from '../event.js';
import type { SigmaFilter, SigmaRule } from '../model.js';
import type { PlaceholderValues } from '../modifiers/index.js';
import { and } from './condition-text.js';
import { FIELD_MAPS, type FieldMapName } from './fields.js';
import { detectionValue, type Emit, renderDocument } from './render.js';
import { type EventSelector, selectorNode, whereNode } from './selector.js';
import { translateDetection } from './translate.js';

export interface RuleVariant {
  readonly rule: SigmaRule;
  /** Stable within a rule: `sysmon`, `security`, `powershell`, `windows` (product only)… */
  readonly name: string;
  /** The `service:` the rendered rule names; `undefined` for the all-Windows variant. */
  readonly service: string | undefined;
  readonly selector: EventSelector;
  /** The detection in this source's field names, filters merged. */
  readonly detection: Detection;
  readonly filters: readonly SigmaFilter[];
  /** Fields this source never has that the rule uses (read pessimistically: see translate.ts). */
  readonly unavailableFields: readonly string[];
  /**
   * `where` and the detection: what remains once channel and event id are known to fit.
   * Compiled on first read for a deferred rule (compile.ts `isDeferred`).
   */
  readonly test: Predicate<EvalContext>;
  /** Whether the event is one this variant looks at (channel, ids, `where`, provider fallback). */
  accepts(event: SigmaEvent): boolean;
  /** `accepts` and the detection: the variant on its own, without an index. */
  matches(event: SigmaEvent): boolean;
  /** The rule rewritten for this source, loadable by `loadRules` with the same verdicts. */
  renderYaml(): string[];
}

/** A variant that was not built, and why (the rule's other variants may still exist). */
export interface DroppedVariant {
  readonly rule: SigmaRule;
  readonly name: string;
  readonly code: DiagnosticCode;
  readonly message: string;
}

export interface VariantSource {
  readonly name: string;
  readonly service: string | undefined;
  readonly selector: EventSelector;
  readonly fields: FieldMapName | undefined;
}

const always: Predicate<EvalContext> = () => true;

interface Compiled {
  readonly accepts: Predicate<EvalContext>;
  readonly test: Predicate<EvalContext>;
}

function compileNode(node: DetectionNode | undefined): Predicate<EvalContext> {
  if (node === undefined) return always;
  const condition: Condition = { kind: 'identifier', name: 'source' };
  return compileDetection(
    { identifiers: new Map([['source', node]]), conditions: ['source'], condition },
    { placeholders: {} },
  );
}

function uniqueName(base: string, taken: ReadonlyMap<string, unknown>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

function render(rule: SigmaRule, source: VariantSource, detection: Detection): string[] {
  const node = selectorNode(source.selector);
  let shown = detection;
  if (node !== undefined) {
    const name = uniqueName('_logsource', detection.identifiers);
    const condition = and([{ kind: 'identifier', name }, detection.condition]);
    shown = { identifiers: new Map([[name, node], ...detection.identifiers]), conditions: [], condition };
  }
  const logsource: Emit =
    source.service === undefined
      ? (rule.raw.get('logsource') ?? new Map())
      : new Map([
          ['product', 'windows'],
          ['service', source.service],
        ]);
  return renderDocument(
    rule.raw,
    new Map<string, Emit>([
      ['logsource', logsource],
      ['detection', detectionValue(shown)],
    ]),
  );
}

/** Throws `RuleError` when recompiling fails (the caller reports it against the rule). */
export function buildVariant(
  rule: SigmaRule,
  source: VariantSource,
  merged: Detection,
  filters: readonly SigmaFilter[],
  placeholders: PlaceholderValues,
): RuleVariant | DroppedVariant {
  const map = source.fields === undefined ? undefined : FIELD_MAPS[source.fields];
  const translated = translateDetection(merged, map);
  if (translated.kind === 'constant') {
    const fields = translated.folded.join(', ');
    const events = `${map?.source ?? source.name} events`;
    // Would it also be dead if the fields simply failed every test? Then selections need them.
    const absent = translateDetection(merged, map, 'absent');
    const message = translated.value
      ? `the ${source.name} variant would match every event once ${fields} (never in ${events}) are left out`
      : absent.kind === 'constant' && !absent.value
        ? `the ${source.name} variant can never match: its selections need ${fields}, which ${events} never have`
        : `the ${source.name} variant is left out: an exclusion depends on ${fields}, which ${events} never have, so it could not rule out false positives`;
    return { rule, name: source.name, code: 'logsource.fields_unavailable', message };
  }
  // A deferred rule (a cache vouches that it compiles) is compiled when an event first reaches
  // it; merged filters were not part of that promise, so a filtered rule is compiled now.
  const now = !isDeferred(rule) || filters.length > 0;
  return new Variant(rule, source, translated.detection, filters, translated.folded, placeholders, now);
}

/**
 * A class, not an object literal with a getter and closures: V8 kept each such literal in
 * dictionary mode (about 830 bytes of properties) with five closures, 3,494 times for SigmaHQ.
 */
class Variant implements RuleVariant {
  readonly name: string;
  readonly service: string | undefined;
  readonly selector: EventSelector;
  private compiled: Compiled | undefined;

  constructor(
    readonly rule: SigmaRule,
    private readonly source: VariantSource,
    readonly detection: Detection,
    readonly filters: readonly SigmaFilter[],
    readonly unavailableFields: readonly string[],
    private readonly placeholders: PlaceholderValues,
    now: boolean,
  ) {
    this.name = source.name;
    this.service = source.service;
    this.selector = source.selector;
    if (now) this.compiled = this.compile();
  }

  get test(): Predicate<EvalContext> {
    return this.now().test;
  }

  accepts(event: SigmaEvent): boolean {
    return this.now().accepts(contextOf(event));
  }

  matches(event: SigmaEvent): boolean {
    const ctx = contextOf(event);
    const c = this.now();
    return c.accepts(ctx) && c.test(ctx);
  }

  renderYaml(): string[] {
    return render(this.rule, this.source, this.detection);
  }

  private now(): Compiled {
    this.compiled ??= this.compile();
    return this.compiled;
  }

  private compile(): Compiled {
    const predicate = compileDetection(this.detection, { placeholders: this.placeholders });
    const where = compileNode(whereNode(this.selector));
    return {
      accepts: compileNode(selectorNode(this.selector)),
      test: where === always ? predicate : (ctx) => where(ctx) && predicate(ctx),
    };
  }
}
