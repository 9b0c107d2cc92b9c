/**
 * Which variants can match an event, from the event's (Channel, EventID) and, in
 * `ForwardedEvents`, its Provider_Name: buckets by lower-case channel, by channel prefix, by
 * provider, and one for all-Windows variants, each split by event id. The merged list for a
 * (channel, id) pair is computed once and cached (as whatever `prepare` makes of it: the rule
 * set's evaluation plan), so a typical event costs two map lookups.
 */

import type { SigmaEvent, SigmaValue } from '../event.js';
import { EvtxSigmaEvent } from '../evtx-event.js';
import { type EventSelector, FORWARDED_CHANNEL } from '../logsource/index.js';
import { type IdSet, intersect } from './event-ids.js';

export interface Indexed {
  /** Position in the rule set: candidate lists come out in this order. */
  readonly ordinal: number;
}

interface Bucket<T> {
  readonly byId: Map<number, T[]>;
  readonly any: T[];
}

const bucket = <T>(): Bucket<T> => ({ byId: new Map(), any: [] });

function bucketIn<T>(map: Map<string, Bucket<T>>, key: string): Bucket<T> {
  let b = map.get(key);
  if (b === undefined) {
    b = bucket();
    map.set(key, b);
  }
  return b;
}

/** Cached lists are bounded: hostile input with endless distinct channels must not grow memory. */
const MAX_CACHED_LISTS = 20_000;
const FORWARDED = FORWARDED_CHANNEL.toLowerCase();
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** A field with several values: the index cannot pick one bucket, so every variant is a candidate. */
const MANY = Symbol('many');

function single(v: SigmaValue | undefined): string | undefined | typeof MANY {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    if (v.length > 1) return MANY;
    return v[0] === null ? undefined : String(v[0]);
  }
  return String(v);
}

/** As the matchers read a number: decimal text only (an id the rules cannot match is NaN). */
function idOf(v: SigmaValue | undefined): number | typeof MANY {
  const s = single(v);
  if (s === MANY) return MANY;
  return s !== undefined && DECIMAL.test(s) ? Number(s) : Number.NaN;
}

interface ChannelCache<P> {
  readonly lower: string | undefined;
  readonly byId: Map<number, P>;
  readonly byProvider: Map<string, Map<number, P>>;
}

export class RuleIndex<T extends Indexed, P> {
  private readonly all = bucket<T>();
  private readonly exact = new Map<string, Bucket<T>>();
  private readonly prefixes: { readonly prefix: string; readonly bucket: Bucket<T> }[] = [];
  private readonly providers = new Map<string, Bucket<T>>();
  private readonly everything: T[] = [];
  private readonly cache = new Map<string, ChannelCache<P>>();
  private cached = 0;
  private everythingPlan: P | undefined;

  constructor(private readonly prepare: (list: readonly T[]) => P) {}

  /** `required`: the ids the detection itself demands (see `requiredEventIds`). */
  add(entry: T, selector: EventSelector, required: IdSet): void {
    this.everything.push(entry);
    const ids = intersect(selector.eventIds === 'any' ? 'any' : new Set(selector.eventIds), required);
    if (ids !== 'any' && ids.size === 0) return; // can never match
    const put = (b: Bucket<T>, which: IdSet) => {
      if (which === 'any') b.any.push(entry);
      else
        for (const id of which) {
          const list = b.byId.get(id);
          if (list === undefined) b.byId.set(id, [entry]);
          else list.push(entry);
        }
    };
    if (selector.channels === 'any') {
      put(this.all, ids);
      return;
    }
    for (const c of selector.channels) {
      const name = c.name.toLowerCase();
      if (c.prefix) {
        let p = this.prefixes.find((x) => x.prefix === name);
        if (p === undefined) {
          p = { prefix: name, bucket: bucket() };
          this.prefixes.push(p);
        }
        put(p.bucket, ids);
      } else put(bucketIn(this.exact, name), ids);
    }
    for (const p of selector.providers) {
      const which = p.eventIds === undefined ? ids : intersect(ids, new Set(p.eventIds));
      if (which !== 'any' && which.size === 0) continue;
      put(bucketIn(this.providers, p.name.toLowerCase()), which);
    }
  }

  candidates(event: SigmaEvent): P {
    let channel: string | undefined | typeof MANY;
    let id: number | typeof MANY;
    if (event instanceof EvtxSigmaEvent) {
      const e = event.evtx;
      channel = e.channel;
      id = e.eventId < 0 ? Number.NaN : e.eventId;
    } else {
      channel = single(event.get('Channel'));
      id = idOf(event.get('EventID'));
    }
    if (channel === MANY || id === MANY) return this.planForEverything();
    const raw = channel ?? '';
    let c = this.cache.get(raw);
    if (c === undefined) {
      c = { lower: raw === '' ? undefined : raw.toLowerCase(), byId: new Map(), byProvider: new Map() };
      if (this.cached < MAX_CACHED_LISTS) this.cache.set(raw, c);
    }
    let byId = c.byId;
    let provider: string | undefined;
    if (c.lower === FORWARDED) {
      const p = event instanceof EvtxSigmaEvent ? event.evtx.provider : single(event.get('Provider_Name'));
      if (p === MANY) return this.planForEverything();
      provider = p ?? '';
      let m = c.byProvider.get(provider);
      if (m === undefined) {
        m = new Map();
        if (this.cached < MAX_CACHED_LISTS) c.byProvider.set(provider, m);
      }
      byId = m;
    }
    let plan = byId.get(id);
    if (plan === undefined) {
      plan = this.prepare(this.resolve(c.lower, id, provider?.toLowerCase()));
      if (this.cached < MAX_CACHED_LISTS) {
        byId.set(id, plan);
        this.cached++;
      }
    }
    return plan;
  }

  private planForEverything(): P {
    this.everythingPlan ??= this.prepare(this.everything);
    return this.everythingPlan;
  }

  private resolve(channel: string | undefined, id: number, provider: string | undefined): readonly T[] {
    const found = new Set<T>();
    const pick = (b: Bucket<T> | undefined) => {
      if (b === undefined) return;
      for (const e of b.any) found.add(e);
      for (const e of b.byId.get(id) ?? []) found.add(e);
    };
    pick(this.all);
    if (channel !== undefined) {
      pick(this.exact.get(channel));
      for (const p of this.prefixes) if (channel.startsWith(p.prefix)) pick(p.bucket);
      if (channel === FORWARDED && provider !== undefined) pick(this.providers.get(provider));
    }
    return [...found].sort((a, b) => a.ordinal - b.ordinal);
  }
}
