/**
 * Which events a variant looks at, as data (for the rule index) and as a detection node (for
 * brute-force checks and the rendered rule): Hayabusa's injected `{Channel, EventID}` selection.
 */
import type { DetectionItem, DetectionNode } from '../detection.js';
import { toSigmaText } from '../wildcard.js';
import { YamlNumber } from '../yaml.js';
import { type ChannelRef, FORWARDED_CHANNEL, type ProviderRef } from './table.js';

export interface EventSelector {
  /** `'any'`: every Windows event (a rule with only `product: windows`). */
  readonly channels: readonly ChannelRef[] | 'any';
  readonly eventIds: readonly number[] | 'any';
  /** Extra conditions: each field must equal one of its values. */
  readonly where: Readonly<Record<string, readonly string[]>>;
  /** Provider fallback for `ForwardedEvents` (empty when off or when the row names none). */
  readonly providers: readonly ProviderRef[];
}

const ids = (eventIds: readonly number[]): DetectionItem => ({
  field: 'EventID',
  modifiers: [],
  values: eventIds.map((n) => new YamlNumber(String(n), n)),
});

const text = (field: string, modifiers: string[], values: readonly string[]): DetectionItem => ({
  field,
  modifiers,
  values: values.map((v) => toSigmaText([v])),
});

function whereItems(where: EventSelector['where']): DetectionItem[] {
  return Object.entries(where).map(([field, values]) => text(field, [], values));
}

/** The selector as one search identifier, or `undefined` when it admits every event. */
export function selectorNode(s: EventSelector): DetectionNode | undefined {
  const rest = [...(s.eventIds === 'any' ? [] : [ids(s.eventIds)]), ...whereItems(s.where)];
  if (s.channels === 'any') return rest.length === 0 ? undefined : { kind: 'all', items: rest };
  const alternatives: DetectionNode[] = [];
  const exact = s.channels.filter((c) => !c.prefix).map((c) => c.name);
  const prefixed = s.channels.filter((c) => c.prefix).map((c) => c.name);
  if (exact.length > 0) alternatives.push({ kind: 'all', items: [text('Channel', [], exact), ...rest] });
  if (prefixed.length > 0)
    alternatives.push({ kind: 'all', items: [text('Channel', ['startswith'], prefixed), ...rest] });
  for (const p of s.providers) {
    const narrowed =
      p.eventIds === undefined
        ? s.eventIds
        : s.eventIds === 'any'
          ? p.eventIds
          : p.eventIds.filter((n) => (s.eventIds as readonly number[]).includes(n));
    if (narrowed !== 'any' && narrowed.length === 0) continue;
    alternatives.push({
      kind: 'all',
      items: [
        text('Channel', [], [FORWARDED_CHANNEL]),
        text('Provider_Name', [], [p.name]),
        ...(narrowed === 'any' ? [] : [ids(narrowed)]),
        ...whereItems(s.where),
      ],
    });
  }
  return alternatives.length === 1 ? alternatives[0]! : { kind: 'any', nodes: alternatives };
}

/** The `where` conditions alone: what is left to test once the index has matched channel and id. */
export function whereNode(s: EventSelector): DetectionNode | undefined {
  const items = whereItems(s.where);
  return items.length === 0 ? undefined : { kind: 'all', items };
}
