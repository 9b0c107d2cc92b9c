/**
 * Correlation rules (§1.10): parsed and validated here; their evaluation over a stream of
 * base-rule matches belongs to the correlation engine.
 */
import { referencedNames } from './condition/evaluate.js';
import { type Condition, parseCondition } from './condition/parse.js';
import { fail } from './diagnostics.js';
import { readMeta } from './metadata.js';
import {
  COMPARE_OPS,
  CORRELATION_TYPES,
  type CorrelationCondition,
  type CorrelationOp,
  type CorrelationType,
  type SigmaCorrelation,
} from './model.js';
import {
  isYamlList,
  isYamlMap,
  isYamlScalar,
  scalarText,
  type YamlMap,
  YamlNumber,
  type YamlValue,
} from './yaml.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  // pySigma's month and year: mean Gregorian lengths.
  M: 2_629_746_000,
  y: 31_556_952_000,
};

export function parseTimespan(text: string): number {
  const m = /^(\d+)([smhdwMy])$/.exec(text.trim());
  if (!m || Number(m[1]) === 0)
    fail(
      'correlation.invalid',
      `timespan '${text}' must be a positive number followed by s, m, h, d, w, M or y`,
    );
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

function names(v: YamlValue | undefined, key: string): string[] {
  if (v === undefined || v === null) return [];
  const list = isYamlList(v) ? v : [v];
  return list.map((e) => {
    if (!isYamlScalar(e) || e === null) fail('correlation.invalid', `'${key}' must list names`);
    return scalarText(e);
  });
}

function numeric(v: YamlValue | undefined, key: string): number {
  if (v instanceof YamlNumber) return v.value;
  if (typeof v === 'string' && /^[+-]?\d+(\.\d+)?$/.test(v)) return Number(v);
  fail('correlation.invalid', `condition '${key}' needs a number`);
}

function thresholds(v: YamlMap, type: CorrelationType): CorrelationCondition {
  const tests: { op: CorrelationOp; value: number }[] = [];
  let field: string | undefined;
  let percentile: number | undefined;
  for (const [k, value] of v) {
    if ((COMPARE_OPS as readonly string[]).includes(k))
      tests.push({ op: k as CorrelationOp, value: numeric(value, k) });
    else if (k === 'field') field = names(value, 'field').join(',');
    else if (k === 'percentile') percentile = numeric(value, k);
    else fail('correlation.invalid', `unknown correlation condition key '${k}'`);
  }
  if (tests.length === 0)
    fail('correlation.invalid', 'the correlation condition has no gt/gte/lt/lte/eq/neq');
  if (type.startsWith('value_') && field === undefined)
    fail('correlation.invalid', `a ${type} correlation needs condition.field`);
  return {
    tests,
    ...(field === undefined ? {} : { field }),
    ...(percentile === undefined ? {} : { percentile }),
  };
}

export function buildCorrelation(doc: YamlMap, source: string, document: number): SigmaCorrelation {
  const meta = readMeta(doc, source, document);
  const section = doc.get('correlation');
  if (!isYamlMap(section)) fail('correlation.invalid', "'correlation' must be a map");
  const typeText = section.get('type');
  if (typeof typeText !== 'string' || !(CORRELATION_TYPES as readonly string[]).includes(typeText))
    fail('correlation.invalid', `correlation type must be one of ${CORRELATION_TYPES.join(', ')}`);
  const type = typeText as CorrelationType;
  const rules = names(section.get('rules'), 'rules');
  if (rules.length === 0) fail('correlation.invalid', 'a correlation needs the rules it correlates');
  const timespanValue = section.get('timespan') ?? section.get('timeframe');
  if (typeof timespanValue !== 'string')
    fail('correlation.invalid', 'a correlation needs a timespan like 10m');
  const timespanMs = parseTimespan(timespanValue);

  const aliases = new Map<string, Map<string, string>>();
  const aliasSection = section.get('aliases');
  if (aliasSection !== undefined && aliasSection !== null) {
    if (!isYamlMap(aliasSection)) fail('correlation.invalid', "'aliases' must be a map");
    for (const [alias, mapping] of aliasSection) {
      if (!isYamlMap(mapping)) fail('correlation.invalid', `alias '${alias}' must map rule names to fields`);
      aliases.set(alias, new Map([...mapping].map(([rule, field]) => [rule, names(field, alias).join(',')])));
    }
  }

  const raw = section.get('condition');
  let condition: SigmaCorrelation['condition'];
  const temporal = type === 'temporal' || type === 'temporal_ordered';
  if (isYamlMap(raw)) condition = thresholds(raw, type);
  else if (typeof raw === 'string' && temporal) condition = temporalExpression(raw, rules);
  else if (raw !== undefined && raw !== null)
    fail('correlation.invalid', 'the correlation condition must be a map');
  else if (!temporal) fail('correlation.invalid', `a ${type} correlation needs a condition`);

  const generateValue = section.get('generate') ?? doc.get('generate') ?? false;
  if (typeof generateValue !== 'boolean') fail('correlation.invalid', "'generate' must be true or false");
  return {
    ...meta,
    kind: 'correlation',
    type,
    rules,
    groupBy: names(section.get('group-by'), 'group-by'),
    timespanText: timespanValue,
    timespanMs,
    aliases,
    ...(condition === undefined ? {} : { condition }),
    generate: generateValue,
  };
}

/** pySigma's extended temporal condition: a boolean expression over the referenced rules. */
function temporalExpression(
  expression: string,
  rules: readonly string[],
): { expression: string; tree: Condition } {
  if (rules.length > 31)
    fail('correlation.invalid', 'a boolean temporal condition can combine at most 31 rules');
  const tree = parseCondition(expression);
  for (const n of referencedNames(tree, rules))
    if (!rules.includes(n)) fail('condition.unknown_identifier', `'${n}' is not among the correlated rules`);
  return { expression, tree };
}
