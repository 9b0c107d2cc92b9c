/** A read-only map made on first use: what is never asked for is never read. */
export class LazyMap<K, V> implements ReadonlyMap<K, V> {
  private made: ReadonlyMap<K, V> | undefined;

  constructor(private readonly make: () => ReadonlyMap<K, V>) {}

  private get map(): ReadonlyMap<K, V> {
    this.made ??= this.make();
    return this.made;
  }

  get size(): number {
    return this.map.size;
  }
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  forEach(f: (value: V, key: K, map: ReadonlyMap<K, V>) => void, self?: unknown): void {
    for (const [k, v] of this.map) f.call(self, v, k, this);
  }
  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }
  keys(): MapIterator<K> {
    return this.map.keys();
  }
  values(): MapIterator<V> {
    return this.map.values();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.map.entries();
  }
}
