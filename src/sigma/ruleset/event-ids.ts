/**
 * The event ids a detection can match at all, read off its structure: `service: security`
 * rules name their ids in the detection (`EventID: 4624`), and indexing them by id instead of
 * by channel alone spares most evaluations. Sound by construction: the result is never
 * narrower than the truth (anything unclear is `'any'`).
 */
import { selectNames } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { YamlNumber, type YamlScalar } from '../yaml.js';

export type IdSet = ReadonlySet<number> | 'any';

/** Texts the event id must equal: a value matches an event id only if the id reads as this number. */
const DIGITS = /^\d{1,15}$/;

function valueId(v: YamlScalar): number | undefined {
  const text = v instanceof YamlNumber ? v.text : typeof v === 'string' ? v : undefined;
  return text !== undefined && DIGITS.test(text) ? Number(text) : undefined;
}

export function intersect(a: IdSet, b: IdSet): IdSet {
  if (a === 'any') return b;
  if (b === 'any') return a;
  return new Set([...a].filter((x) => b.has(x)));
}

function union(a: IdSet, b: IdSet): IdSet {
  if (a === 'any' || b === 'any') return 'any';
  return new Set([...a, ...b]);
}

/** Only plain `EventID: n` / `EventID: [n, m]` items constrain; any modifier leaves it open. */
function itemIds(item: DetectionItem): IdSet {
  if (item.field !== 'EventID' || item.modifiers.length > 0) return 'any';
  const ids = new Set<number>();
  for (const v of item.values) {
    const id = valueId(v);
    if (id === undefined) return 'any';
    ids.add(id);
  }
  return ids;
}

function nodeIds(node: DetectionNode): IdSet {
  if (node.kind === 'all') return node.items.map(itemIds).reduce(intersect, 'any' as IdSet);
  return node.nodes.map(nodeIds).reduce(union, new Set<number>() as IdSet);
}

export function requiredEventIds(detection: Detection): IdSet {
  const names = [...detection.identifiers.keys()];
  const memo = new Map<string, IdSet>();
  const ofName = (name: string): IdSet => {
    let ids = memo.get(name);
    if (ids === undefined) {
      const node = detection.identifiers.get(name);
      ids = node === undefined ? 'any' : nodeIds(node);
      memo.set(name, ids);
    }
    return ids;
  };
  const walk = (c: Condition): IdSet => {
    switch (c.kind) {
      case 'identifier':
        return ofName(c.name);
      case 'not':
        return 'any';
      case 'and':
        return c.args.map(walk).reduce(intersect, 'any' as IdSet);
      case 'or':
        return c.args.map(walk).reduce(union, new Set<number>() as IdSet);
      case 'selector': {
        const sets = selectNames(c.pattern, names).map(ofName);
        return c.quantifier === 'all'
          ? sets.reduce(intersect, 'any' as IdSet)
          : sets.reduce(union, new Set<number>() as IdSet);
      }
    }
  };
  return walk(detection.condition);
}
