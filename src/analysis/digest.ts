/**
 * An event's digest: what the analyzer keeps of it. The record's place and kind (the counters'
 * fields), its content hash (de-duplication) and its facts, extracted and with their messages
 * rendered. Made where the event is decoded (a pool worker), it travels instead of the event,
 * about half its bytes, and the analyzer applies it in file order; the analyzer makes one itself
 * for an event decoded on its own thread, so both paths share every step.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { type DescribeEvent, renderMessage } from '../messages/index.js';
import { contentHash } from './dedup.js';
import { EXTRACTORS, type Extractor } from './extract/index.js';
import type { Fact } from './facts.js';
import type { EventHead } from './types.js';

export interface EventDigest extends EventHead {
  /** contentHash of the event. */
  readonly hash: number;
  /** What the extractors found, in their order; null for none. */
  readonly facts: Fact[] | null;
  /** Extractors that could not read the event. */
  readonly failures: number;
}

const NO_FACTS = { facts: null, failures: 0 } as const;

/** Makes digests; one per thread, as it remembers each provider's extractors. */
export class Digester {
  /** Provider as written → its extractors by event id (providers are few; the map stays small). */
  private readonly providers = new Map<string, ReadonlyMap<number, readonly Extractor[]> | null>();

  constructor(private readonly describe?: DescribeEvent) {}

  digest(e: EvtxEvent): EventDigest {
    const { facts, failures } = this.extract(e);
    return {
      recordId: e.recordId,
      timestamp: e.timestamp,
      eventId: e.eventId,
      provider: e.provider,
      channel: e.channel,
      computer: e.computer,
      hash: contentHash(e),
      facts,
      failures,
    };
  }

  /** The event's facts (null for none) and how many extractors could not read it. */
  extract(e: EvtxEvent): Pick<EventDigest, 'facts' | 'failures'> {
    const extractors = this.extractorsFor(e);
    if (extractors === undefined) return NO_FACTS;
    let facts: Fact[] | null = null;
    let failures = 0;
    const emit = (f: Fact): void => {
      // A notable without its own summary shows the event's Windows message.
      const fact =
        f.kind === 'notable' && f.description === null
          ? { ...f, description: renderMessage(e, this.describe, 300) }
          : f;
      if (facts === null) facts = [fact];
      else facts.push(fact);
    };
    for (const x of extractors) {
      try {
        x(e, emit);
      } catch {
        failures++; // an event no extractor can read costs its facts, not the job
      }
    }
    return { facts, failures };
  }

  private extractorsFor(e: EvtxEvent): readonly Extractor[] | undefined {
    let byId = this.providers.get(e.provider);
    if (byId === undefined) {
      byId = EXTRACTORS.get(e.provider.toLowerCase()) ?? null;
      if (this.providers.size < 10_000) this.providers.set(e.provider, byId);
    }
    return byId?.get(e.eventId);
  }
}
