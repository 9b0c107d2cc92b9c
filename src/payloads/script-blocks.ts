/**
 * PowerShell script blocks (4104) put back together. Windows splits a long script into parts of
 * about 20,000 characters, each its own record with ScriptBlockId, MessageNumber and
 * MessageTotal; records can arrive in any order (several files, forwarded logs). A block is
 * complete when every part 1…MessageTotal is present. The buffer of incomplete blocks is
 * bounded in count and bytes: past either bound the oldest is emitted partial, with a diagnostic.
 */
import type { PayloadLimits } from './limits.js';
import type { PayloadRecord } from './types.js';

export interface ScriptBlockPart {
  readonly computer: string;
  readonly id: string;
  readonly number: number;
  readonly total: number;
  readonly text: string;
  readonly path: string | null;
  readonly record: PayloadRecord;
}

export interface AssembledScriptBlock {
  readonly computer: string;
  readonly id: string;
  readonly path: string | null;
  readonly text: string;
  readonly records: readonly PayloadRecord[];
  readonly present: number;
  readonly total: number;
  readonly partial: boolean;
  /** Why a partial block was emitted early. */
  readonly evicted: 'count' | 'bytes' | null;
}

interface Pending {
  readonly computer: string;
  readonly id: string;
  readonly total: number;
  path: string | null;
  readonly parts: Map<number, { text: string; record: PayloadRecord }>;
  bytes: number;
}

const assemble = (p: Pending, evicted: AssembledScriptBlock['evicted']): AssembledScriptBlock => {
  const numbers = [...p.parts.keys()].sort((a, b) => a - b);
  return {
    computer: p.computer,
    id: p.id,
    path: p.path,
    text: numbers.map((n) => p.parts.get(n)!.text).join(''),
    records: numbers.map((n) => p.parts.get(n)!.record),
    present: numbers.length,
    total: p.total,
    partial: numbers.length < p.total,
    evicted,
  };
};

export class ScriptBlockBuffer {
  /** Insertion order is age: the first entry is the oldest. */
  private readonly pending = new Map<string, Pending>();
  private bytes = 0;

  constructor(private readonly limits: PayloadLimits) {}

  /** Adds a part; returns the blocks it completed or pushed out (oldest first). */
  add(part: ScriptBlockPart): AssembledScriptBlock[] {
    const key = `${part.computer.toLowerCase()}\u0000${part.id.toLowerCase()}`;
    let p = this.pending.get(key);
    if (p === undefined) {
      if (part.total === 1) return [assemble({ ...part, parts: new Map([[1, part]]), bytes: 0 }, null)];
      p = {
        computer: part.computer,
        id: part.id,
        total: part.total,
        path: part.path,
        parts: new Map(),
        bytes: 0,
      };
      this.pending.set(key, p);
    }
    if (p.parts.has(part.number) || part.number > p.total) return []; // a duplicate record, or another total
    p.parts.set(part.number, { text: part.text, record: part.record });
    p.path ??= part.path;
    const size = part.text.length * 2;
    p.bytes += size;
    this.bytes += size;
    const out: AssembledScriptBlock[] = [];
    if (p.parts.size === p.total) out.push(this.take(key, null));
    while (this.pending.size > this.limits.maxPendingScriptBlocks) out.push(this.takeOldest('count'));
    while (this.bytes > this.limits.maxPendingScriptBlockBytes && this.pending.size > 0)
      out.push(this.takeOldest('bytes'));
    return out;
  }

  /** Every incomplete block, partial, at the end of the stream. */
  drain(): AssembledScriptBlock[] {
    return [...this.pending.keys()].map((k) => this.take(k, null));
  }

  private takeOldest(why: 'count' | 'bytes'): AssembledScriptBlock {
    return this.take(this.pending.keys().next().value!, why);
  }

  private take(key: string, why: AssembledScriptBlock['evicted']): AssembledScriptBlock {
    const p = this.pending.get(key)!;
    this.pending.delete(key);
    this.bytes -= p.bytes;
    return assemble(p, why);
  }
}
