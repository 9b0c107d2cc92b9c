/**
 * A YAML map cannot repeat a key, but a translated map can AND two items on one key (a split
 * `User|contains|all`, or two rule fields renamed onto one). Before rendering, such
 * identifiers become fresh `_`-prefixed identifiers whose maps have unique keys, combined
 * in the condition, so the rendered rule means the same.
 */
import { selectNames } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { and, conditionText, or } from './condition-text.js';

export function uniqueKeys(detection: Detection, keyOf: (item: DetectionItem) => string): Detection {
  const hasDuplicate = (node: DetectionNode): boolean =>
    node.kind === 'all'
      ? new Set(node.items.map(keyOf)).size !== node.items.length
      : node.nodes.some(hasDuplicate);
  const names = [...detection.identifiers.keys()];
  const affected = new Set(names.filter((n) => hasDuplicate(detection.identifiers.get(n)!)));
  if (affected.size === 0) return detection;

  const taken = new Set(names);
  const identifiers = new Map<string, DetectionNode>();
  const fresh = (base: string, node: DetectionNode): Condition => {
    let i = 1;
    let name = `_${base}_part${i}`;
    while (taken.has(name)) name = `_${base}_part${++i}`;
    taken.add(name);
    identifiers.set(name, node);
    return { kind: 'identifier', name };
  };
  const toCondition = (node: DetectionNode, base: string): Condition => {
    if (node.kind === 'any') return or(node.nodes.map((n) => toCondition(n, base)));
    // Greedy partition: each item joins the first group that lacks its key.
    const groups: { keys: Set<string>; items: DetectionItem[] }[] = [];
    for (const item of node.items) {
      const k = keyOf(item);
      let group = groups.find((g) => !g.keys.has(k));
      if (group === undefined) {
        group = { keys: new Set(), items: [] };
        groups.push(group);
      }
      group.keys.add(k);
      group.items.push(item);
    }
    return and(groups.map((g) => fresh(base, { kind: 'all', items: g.items })));
  };

  const replacement = new Map<string, Condition>();
  for (const n of names) {
    const node = detection.identifiers.get(n)!;
    if (affected.has(n)) replacement.set(n, toCondition(node, n));
    else identifiers.set(n, node);
  }
  const ref = (name: string): Condition => replacement.get(name) ?? { kind: 'identifier', name };
  const rewrite = (c: Condition): Condition => {
    switch (c.kind) {
      case 'identifier':
        return ref(c.name);
      case 'not':
        return { kind: 'not', arg: rewrite(c.arg) };
      case 'and':
      case 'or':
        return { kind: c.kind, args: c.args.map(rewrite) };
      case 'selector': {
        const selected = selectNames(c.pattern, names);
        if (!selected.some((n) => affected.has(n))) return c;
        const parts = selected.map(ref);
        return c.quantifier === 'all' ? and(parts) : or(parts);
      }
    }
  };
  const condition = rewrite(detection.condition);
  return { identifiers, conditions: [conditionText(condition)], condition };
}
