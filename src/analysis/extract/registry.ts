/**
 * The extractor registry: which functions turn an event into facts, keyed by provider and event
 * id. Keys use the provider, not the channel: it names the event's schema wherever the record was
 * collected (Security 1102 and System 104 come from Microsoft-Windows-Eventlog; forwarded events
 * keep their provider).
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { Emit } from '../facts.js';

export type Extractor = (e: EvtxEvent, emit: Emit) => void;

/** One module's extractors: provider (any case) → event ids → extractor. */
export type ExtractorTable = Readonly<Record<string, Readonly<Record<number, Extractor>>>>;

/** Merges tables into one lookup; several modules may handle the same event. */
export function buildRegistry(tables: readonly ExtractorTable[]): Map<string, Map<number, Extractor[]>> {
  const registry = new Map<string, Map<number, Extractor[]>>();
  for (const table of tables) {
    for (const [provider, byId] of Object.entries(table)) {
      let ids = registry.get(provider.toLowerCase());
      if (ids === undefined) {
        ids = new Map();
        registry.set(provider.toLowerCase(), ids);
      }
      for (const [id, fn] of Object.entries(byId)) {
        const list = ids.get(Number(id));
        if (list === undefined) ids.set(Number(id), [fn]);
        else list.push(fn);
      }
    }
  }
  return registry;
}
