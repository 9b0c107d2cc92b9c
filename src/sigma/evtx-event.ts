/**
 * The decoder's flat `EvtxEvent` as a `SigmaEvent` (sigma-semantics.md §3.3), lazily: this
 * runs for every event, and rules ask for a few dozen names at most (the per-event
 * `EvalContext` caches each answer), so nothing is copied or indexed up front.
 *
 * Names: the System fields below (they win over EventData on conflict), EventData's named
 * fields and UserData's payload children (the decoder already flattened both into `data`),
 * unnamed `Data` elements as the `Data` array, and any name with spaces also without them.
 */
import type { EvtxEvent } from '../evtx/index.js';
import type { SigmaEvent, SigmaValue } from './event.js';

type SystemField = (e: EvtxEvent) => SigmaValue | undefined;

const present = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const nonEmpty = (v: string): string | undefined => (v === '' ? undefined : v);

/** The decoder writes -1 for a missing EventID and '' for missing text fields. */
const SYSTEM: ReadonlyMap<string, SystemField> = new Map<string, SystemField>([
  ['EventID', (e) => (e.eventId < 0 ? undefined : e.eventId)],
  ['Channel', (e) => nonEmpty(e.channel)],
  ['Computer', (e) => nonEmpty(e.computer)],
  ['Provider_Name', (e) => nonEmpty(e.provider)],
  ['Provider_Guid', (e) => present(e.providerGuid)],
  ['EventRecordID', (e) => e.recordId],
  ['Level', (e) => present(e.level)],
  ['Task', (e) => present(e.task)],
  ['Opcode', (e) => present(e.opcode)],
  ['Keywords', (e) => present(e.keywords)],
  ['Version', (e) => present(e.version)],
  ['Execution_ProcessID', (e) => present(e.processId)],
  ['Execution_ThreadID', (e) => present(e.threadId)],
  ['Security_UserID', (e) => present(e.userSid)],
  ['TimeCreated_SystemTime', (e) => nonEmpty(e.timestampText)],
  ['EventID_Qualifiers', (e) => present(e.qualifiers)],
]);

export const SYSTEM_FIELDS: readonly string[] = [...SYSTEM.keys()];
const SYSTEM_READERS: readonly SystemField[] = [...SYSTEM.values()];

/** Marks "this event's data has no names with spaces" so the scan runs once. */
const NO_ALIASES: ReadonlyMap<string, SigmaValue> = new Map();

export class EvtxSigmaEvent implements SigmaEvent {
  private aliases: ReadonlyMap<string, SigmaValue> | undefined;

  constructor(readonly evtx: EvtxEvent) {}

  get(field: string): SigmaValue | undefined {
    const system = SYSTEM.get(field);
    if (system !== undefined) {
      const v = system(this.evtx);
      if (v !== undefined) return v;
    }
    const data = this.evtx.data;
    if (Object.hasOwn(data, field)) return data[field];
    if (field === 'Data' && this.evtx.unnamedData.length > 0) return this.evtx.unnamedData;
    if (field.includes(' ')) return undefined;
    this.aliases ??= spacedAliases(data);
    return this.aliases.get(field);
  }

  has(field: string): boolean {
    return this.get(field) !== undefined;
  }

  /** An array, not a generator: keyword scans read every value of every event. */
  values(): Iterable<string> {
    const out: string[] = [];
    for (const read of SYSTEM_READERS) {
      const v = read(this.evtx);
      if (v !== undefined && v !== null) out.push(String(v));
    }
    const data = this.evtx.data;
    for (const k of Object.keys(data)) {
      const v = data[k]!;
      if (typeof v === 'string') out.push(v);
      else for (let i = 0; i < v.length; i++) out.push(v[i]!);
    }
    const unnamed = this.evtx.unnamedData;
    for (let i = 0; i < unnamed.length; i++) out.push(unnamed[i]!);
    return out;
  }
}

/** `Threat Name` answers to `ThreatName` (§1.5); an exact name always wins over an alias. */
function spacedAliases(data: EvtxEvent['data']): ReadonlyMap<string, SigmaValue> {
  let out: Map<string, SigmaValue> | undefined;
  for (const k of Object.keys(data)) {
    if (!k.includes(' ')) continue;
    const alias = k.replaceAll(' ', '');
    if (Object.hasOwn(data, alias)) continue;
    out ??= new Map();
    if (!out.has(alias)) out.set(alias, data[k]!);
  }
  return out ?? NO_ALIASES;
}

export function sigmaEventFromEvtx(event: EvtxEvent): SigmaEvent {
  return new EvtxSigmaEvent(event);
}
