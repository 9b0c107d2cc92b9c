/**
 * Values found by two texts without joining them. A joined key is a new string, hashed again at
 * each lookup; the per-event counters remember the last channel and computer, which helps only
 * while a log keeps to one computer. Logs that interleave computers (forwarded events, the
 * bench's generated logs with twelve) joined and hashed a key per event in each counter. A
 * digest's texts are one string per chunk (digest-columns.ts), whose hash V8 keeps, so two
 * lookups by them cost less than one by a fresh joined key.
 */
export class PairMap<V> {
  private readonly map = new Map<string, Map<string, V>>();

  get(a: string, b: string): V | undefined {
    return this.map.get(a)?.get(b);
  }

  set(a: string, b: string, value: V): void {
    let inner = this.map.get(a);
    if (inner === undefined) {
      inner = new Map();
      this.map.set(a, inner);
    }
    inner.set(b, value);
  }
}
