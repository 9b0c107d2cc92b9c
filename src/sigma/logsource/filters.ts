/**
 * Meta filters (§1.9) with pySigma's semantics: a filter applies to the rules it names (by id
 * or name, or `any`) whose logsource it covers, and its condition is ANDed with the rule's.
 * Merging happens before the logsource mapping, so a filter's fields are renamed with the
 * rule's in every variant.
 */
import type { Detection } from '../detection.js';
import type { LogSource, SigmaFilter, SigmaRule } from '../model.js';
import { and, conditionText, mapNames } from './condition-text.js';

const KEYS = ['product', 'category', 'service'] as const;

/** Every logsource field the filter names must equal the rule's (case-insensitively). */
export function filterCovers(filter: LogSource, rule: LogSource): boolean {
  for (const k of KEYS) {
    const f = filter[k];
    if (f !== undefined && f.toLowerCase() !== rule[k]?.toLowerCase()) return false;
  }
  for (const [k, v] of Object.entries(filter.extra))
    if (!Object.hasOwn(rule.extra, k) || rule.extra[k]?.toLowerCase() !== v.toLowerCase()) return false;
  return true;
}

export function filterNames(filter: SigmaFilter, rule: SigmaRule): boolean {
  if (filter.rules === 'any') return true;
  return filter.rules.some((r) => r === rule.id || (rule.name !== undefined && r === rule.name));
}

export const filterApplies = (filter: SigmaFilter, rule: SigmaRule): boolean =>
  filterNames(filter, rule) && filterCovers(filter.logsource, rule.logsource);

/**
 * The rule's detection with each filter's identifiers added under a `_filt_<i>_` prefix (so
 * the rule's `them` and patterns never pick them up) and `(<rule>) and (<filter>)` as condition.
 */
export function mergeFilters(detection: Detection, filters: readonly SigmaFilter[]): Detection {
  if (filters.length === 0) return detection;
  const identifiers = new Map(detection.identifiers);
  const parts = [detection.condition];
  filters.forEach((filter, i) => {
    let prefix = `_filt_${i}_`;
    while ([...identifiers.keys()].some((n) => n.startsWith(prefix))) prefix = `_${prefix}`;
    for (const [name, node] of filter.detection.identifiers) identifiers.set(prefix + name, node);
    parts.push(
      mapNames(
        filter.detection.condition,
        (n) => prefix + n,
        (p) => prefix + (p ?? '*'),
      ),
    );
  });
  const condition = and(parts);
  return { identifiers, conditions: [conditionText(condition)], condition };
}
