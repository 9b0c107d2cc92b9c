/** A binary heap: the merge of sorted runs takes the least head of many at each step. */
export class Heap<T> {
  private readonly items: T[] = [];

  /** @param less whether `a` comes out before `b` */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    if (a.length <= 1) return a.pop();
    const top = a[0];
    a[0] = a.pop()!;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < a.length && this.less(a[l]!, a[least]!)) least = l;
      if (r < a.length && this.less(a[r]!, a[least]!)) least = r;
      if (least === i) break;
      [a[i], a[least]] = [a[least]!, a[i]!];
      i = least;
    }
    return top;
  }
}
