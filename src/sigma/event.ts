/**
 * The neutral event shape rules are evaluated against, so EVTX, JSON and XML inputs can all
 * be fed to the same compiled rules, and the per-event caches the matchers share.
 */
import { TaeError } from '../errors/index.js';
import { MAX_DATA_DEPTH } from './limits.js';

export type SigmaScalar = string | number | boolean | null;
export type SigmaValue = SigmaScalar | readonly SigmaScalar[];

/**
 * Implementations decide how names resolve (System fields, EventData, dotted paths) but must
 * also answer a rule field with its spaces removed (`ThreatName` for `Threat Name`, §1.5), as
 * `eventFromObject` does. Evaluation caches per event object, so an event must not change
 * once it has been evaluated.
 */
export interface SigmaEvent {
  /** The field's value, or `undefined` when the event has no such field. */
  get(field: string): SigmaValue | undefined;
  has(field: string): boolean;
  /** Every non-null value as text (array elements one by one), for keyword searches. */
  values(): Iterable<string>;
}

function toScalar(v: unknown): SigmaScalar {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? null;
}

function toValue(v: unknown): SigmaValue {
  return Array.isArray(v) ? v.map(toScalar) : toScalar(v);
}

class MapEvent implements SigmaEvent {
  constructor(private readonly fields: ReadonlyMap<string, SigmaValue>) {}
  get(field: string): SigmaValue | undefined {
    return this.fields.get(field);
  }
  has(field: string): boolean {
    return this.fields.has(field);
  }
  *values(): Iterable<string> {
    for (const v of this.fields.values()) {
      if (Array.isArray(v)) {
        for (const e of v as readonly SigmaScalar[]) if (e !== null) yield String(e);
      } else if (v !== null) yield String(v);
    }
  }
}

/**
 * A rule field also names the event field with its spaces removed (`ThreatName` ↔ Defender's
 * `Threat Name`, §1.5); an exact name always wins over such an alias.
 */
function withAliases(fields: Map<string, SigmaValue>): Map<string, SigmaValue> {
  for (const [k, v] of [...fields]) {
    if (!k.includes(' ')) continue;
    const alias = k.replaceAll(' ', '');
    if (!fields.has(alias)) fields.set(alias, v);
  }
  return fields;
}

/** A flat object: keys are field names, dotted names included (`actor.alternateId` is one key). */
export function eventFromObject(obj: Readonly<Record<string, unknown>>): SigmaEvent {
  const fields = new Map<string, SigmaValue>();
  for (const [k, v] of Object.entries(obj)) fields.set(k, toValue(v));
  return new MapEvent(withAliases(fields));
}

/**
 * A nested object: leaves are reachable by their dotted path (`Event.System.EventID`) as well
 * as by their literal key when the object is flat at that level. Arrays of objects are kept
 * as one JSON text per element. Objects nested deeper than MAX_DATA_DEPTH are refused
 * (test data is checked before it gets here; this guards other callers).
 */
export function eventFromNested(obj: Readonly<Record<string, unknown>>): SigmaEvent {
  const fields = new Map<string, SigmaValue>();
  const walk = (o: Readonly<Record<string, unknown>>, prefix: string, depth: number) => {
    if (depth > MAX_DATA_DEPTH)
      throw new TaeError('INVALID_ARGUMENT', `event object nested deeper than ${MAX_DATA_DEPTH} levels`);
    for (const [k, v] of Object.entries(o)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      if (v !== null && typeof v === 'object' && !Array.isArray(v))
        walk(v as Record<string, unknown>, path, depth + 1);
      else if (!fields.has(path)) fields.set(path, toValue(v));
    }
  };
  walk(obj, '', 1);
  return new MapEvent(withAliases(fields));
}

const textOf = (v: SigmaScalar): string | undefined => (v === null ? undefined : String(v));

/**
 * Per-event memo of field texts and their lower-cased forms: thousands of rules ask for the
 * same few fields, and lower-casing a long command line once per event instead of once per
 * value test is what keeps case-insensitive matching cheap.
 */
/** Marks "field looked up and absent" in the caches, so each lookup is one `Map.get`. */
const ABSENT: readonly string[] = Object.freeze([]);

export class EvalContext {
  private readonly textCache = new Map<string, readonly string[]>();
  private readonly lowerCache = new Map<string, readonly string[]>();
  private allText: readonly string[] | undefined;
  private allLower: readonly string[] | undefined;

  constructor(readonly event: SigmaEvent) {}

  /** Non-null values of a field as text; `undefined` when the field is absent. */
  texts(field: string): readonly string[] | undefined {
    let out = this.textCache.get(field);
    if (out === undefined) {
      const v = this.event.get(field);
      if (v === undefined) out = ABSENT;
      else if (Array.isArray(v)) out = (v as readonly SigmaScalar[]).flatMap((e) => textOf(e) ?? []);
      else {
        const t = textOf(v as SigmaScalar);
        out = t === undefined ? [] : [t];
      }
      this.textCache.set(field, out);
    }
    return out === ABSENT ? undefined : out;
  }

  lowers(field: string): readonly string[] | undefined {
    let out = this.lowerCache.get(field);
    if (out === undefined) {
      out = this.texts(field)?.map((t) => t.toLowerCase()) ?? ABSENT;
      this.lowerCache.set(field, out);
    }
    return out === ABSENT ? undefined : out;
  }

  allTexts(): readonly string[] {
    this.allText ??= [...this.event.values()];
    return this.allText;
  }

  allLowers(): readonly string[] {
    this.allLower ??= this.allTexts().map((t) => t.toLowerCase());
    return this.allLower;
  }
}

const contexts = new WeakMap<SigmaEvent, EvalContext>();

/** One context per event object, shared by every rule evaluated on it. */
export function contextOf(event: SigmaEvent): EvalContext {
  let ctx = contexts.get(event);
  if (ctx === undefined) {
    ctx = new EvalContext(event);
    contexts.set(event, ctx);
  }
  return ctx;
}
