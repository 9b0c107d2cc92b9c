/** One YAML document to a typed, compiled detection rule, correlation or filter. */

import type { Predicate } from './condition/evaluate.js';
import { buildCorrelation } from './correlation.js';
import { compileDetection, type Detection, parseDetection } from './detection.js';
import { fail } from './diagnostics.js';
import { contextOf, type EvalContext } from './event.js';
import { readLogSource, readMeta } from './metadata.js';
import type { RuleMeta, SigmaDocument, SigmaFilter, SigmaRule } from './model.js';
import type { PlaceholderValues } from './modifiers/index.js';
import { isYamlList, isYamlMap, type YamlMap, type YamlValue } from './yaml.js';

export interface BuildOptions {
  readonly placeholders: PlaceholderValues;
  /** Compile the matchers on first use (the document is known to compile: load.ts `trusted`). */
  readonly deferred?: boolean;
  /**
   * Keep only what matching reads: the rule's title, ids, status, level and logsource, and as
   * its `raw` a document of just those (no descriptions, tags, references, nor the YAML of its
   * detection, which the parsed detection repeats). For rules that are only matched and named
   * by position, on the pool's workers: SigmaHQ's rules there held 19.4 MB of heap, 14.6 lean.
   */
  readonly lean?: boolean;
  /**
   * Keep the whole YAML document as the rule's or filter's `raw` (default true). Without it
   * `raw` holds only LEAN_KEYS: for rules nobody renders (the engine's community rules), whose
   * documents repeat their parsed detection (SigmaHQ's: 4 MB of the 16.7 MB its rules held).
   */
  readonly keepYaml?: boolean;
}

/** A document's keys a lean rule or filter keeps (see `BuildOptions.lean`). */
const LEAN_KEYS = ['title', 'id', 'name', 'status', 'level', 'logsource'];

function leanDocument(doc: YamlMap): YamlMap {
  const lean = new Map<string, YamlValue>();
  for (const key of LEAN_KEYS) if (doc.has(key)) lean.set(key, doc.get(key)!);
  return lean;
}

/** The keys every document type shares, as `lean` and `keepYaml` ask. */
function metaOf(doc: YamlMap, source: string, document: number, options: BuildOptions): RuleMeta {
  if (options.lean === true) return readMeta(leanDocument(doc), source, document);
  const meta = readMeta(doc, source, document);
  // Replaced in place: a rule's keys keep their order.
  return options.keepYaml === false ? { ...meta, raw: leanDocument(doc) } : meta;
}

/** Rules and filters built deferred: their logsource variants defer their matchers too. */
const deferredDocuments = new WeakSet<SigmaRule | SigmaFilter>();
export const isDeferred = (d: SigmaRule | SigmaFilter): boolean => deferredDocuments.has(d);

/** The detection's predicate now, or on its first call when deferred. */
function predicateOf(detection: Detection, options: BuildOptions): Predicate<EvalContext> {
  if (options.deferred !== true) return compileDetection(detection, options);
  let compiled: Predicate<EvalContext> | undefined;
  return (ctx) => {
    compiled ??= compileDetection(detection, options);
    return compiled(ctx);
  };
}

function remember<T extends SigmaRule | SigmaFilter>(built: T, options: BuildOptions): T {
  if (options.deferred === true) deferredDocuments.add(built);
  return built;
}

function buildRule(doc: YamlMap, source: string, document: number, options: BuildOptions): SigmaRule {
  const meta = metaOf(doc, source, document, options);
  const logsource = readLogSource(doc.get('logsource'));
  const section = doc.get('detection');
  if (!isYamlMap(section)) fail('detection.invalid', "'detection' must be a map");
  const detection = parseDetection(section, 'detection');
  const predicate = predicateOf(detection, options);
  const stats = { evaluations: 0, matches: 0, nanoseconds: 0 };
  return remember<SigmaRule>(
    {
      ...meta,
      kind: 'rule',
      logsource,
      detection,
      stats,
      matches(event) {
        stats.evaluations++;
        const hit = predicate(contextOf(event));
        if (hit) stats.matches++;
        return hit;
      },
    },
    options,
  );
}

/** Filters (§1.9) follow pySigma: `rules` is required, one condition, ANDed with the rule's. */
function buildFilter(doc: YamlMap, source: string, document: number, options: BuildOptions): SigmaFilter {
  const meta = metaOf(doc, source, document, options);
  const logsource = readLogSource(doc.get('logsource'));
  const section = doc.get('filter');
  if (!isYamlMap(section)) fail('filter.invalid', "'filter' must be a map");
  if (!section.has('rules'))
    fail('filter.invalid', "a filter needs 'rules' (a list of rule ids or names, or any)");
  const rulesValue = section.get('rules');
  let rules: readonly string[] | 'any';
  if (rulesValue === 'any' || rulesValue === null) rules = 'any';
  else if (typeof rulesValue === 'string') rules = [rulesValue];
  else if (isYamlList(rulesValue) && rulesValue.every((r) => typeof r === 'string'))
    rules = rulesValue.length === 0 ? 'any' : (rulesValue as string[]);
  else fail('filter.invalid', "'rules' must be a list of rule ids or names, or any");
  const condition = section.get('condition');
  if (isYamlList(condition) && condition.length !== 1)
    fail('filter.invalid', 'a filter has exactly one condition');
  const detection = parseDetection(section, 'filter', ['rules']);
  const predicate = predicateOf(detection, options);
  return remember<SigmaFilter>(
    {
      ...meta,
      kind: 'filter',
      logsource,
      rules,
      detection,
      matches: (event) => predicate(contextOf(event)),
    },
    options,
  );
}

export function buildDocument(
  doc: YamlMap,
  source: string,
  document: number,
  options: BuildOptions,
): SigmaDocument {
  if (doc.has('correlation')) return buildCorrelation(doc, source, document);
  if (doc.has('filter') && !doc.has('detection')) return buildFilter(doc, source, document, options);
  if (!doc.has('detection') && !doc.has('logsource'))
    fail('rule.unknown_type', 'the document has none of detection, correlation or filter');
  if (!doc.has('detection')) fail('rule.missing_field', "'detection' is required");
  return buildRule(doc, source, document, options);
}
