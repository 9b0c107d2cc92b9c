/**
 * Distinct payloads: the same encoded command in a Sysmon 1, its 4688 twin and every child's
 * ParentCommandLine is one payload with several records. Identity is kind, computer and content
 * (SHA-256); the first occurrence's provenance is kept. Bounded: records per payload, and the
 * bytes of all payloads held (past it, new payloads are counted, not kept).
 */
import { createHash } from 'node:crypto';
import type { Payload, PayloadRecord } from './types.js';

export type DistinctPayload = Payload & {
  /** SHA-256 of the content (UTF-8 of text, or the bytes), hex. */
  readonly sha256: string;
  /** Events that carried it (records beyond `maxRecords` are counted here only). */
  readonly occurrences: number;
};

export interface PayloadSetLimits {
  /** Records listed per payload. */
  readonly maxRecords: number;
  /** Content bytes held by the set. */
  readonly maxBytes: number;
}

export const PAYLOAD_SET_LIMITS: PayloadSetLimits = { maxRecords: 100, maxBytes: 512 * 1024 * 1024 };

export const payloadBytes = (p: Payload): Uint8Array =>
  p.text !== undefined ? Buffer.from(p.text, 'utf8') : p.bytes;

interface Held {
  readonly payload: Payload;
  readonly sha256: string;
  readonly records: PayloadRecord[];
  occurrences: number;
}

export class PayloadSet {
  private readonly byKey = new Map<string, Held>();
  private readonly list: Held[] = [];
  private bytes = 0;
  /** Distinct payloads not kept because the set was full. */
  dropped = 0;

  constructor(private readonly limits: PayloadSetLimits = PAYLOAD_SET_LIMITS) {}

  /** Adds a payload; true when it was new and kept. */
  add(p: Payload): boolean {
    const content = payloadBytes(p);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const key = `${p.kind}\u0000${p.text === undefined ? 'b' : 't'}\u0000${p.computer}\u0000${sha256}`;
    const held = this.byKey.get(key);
    if (held !== undefined) {
      held.occurrences += p.records.length;
      for (const r of p.records) if (held.records.length < this.limits.maxRecords) held.records.push(r);
      return false;
    }
    if (this.bytes + content.length > this.limits.maxBytes) {
      this.dropped++;
      return false;
    }
    this.bytes += content.length;
    const kept = {
      payload: p,
      sha256,
      occurrences: p.records.length,
      records: p.records.slice(0, this.limits.maxRecords),
    };
    this.byKey.set(key, kept);
    this.list.push(kept);
    return true;
  }

  /** In order of first occurrence. */
  get payloads(): DistinctPayload[] {
    return this.list.map((h) => ({
      ...h.payload,
      records: h.records,
      sha256: h.sha256,
      occurrences: h.occurrences,
    }));
  }
}
