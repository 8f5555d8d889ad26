/**
 * When each job may next be claimed, as two binary heaps with lazy deletion: `due` holds
 * enabled, unleased jobs by next run; `leased` holds leased jobs by the end of their lease, so an
 * expired lease puts its job back among the due ones. Claiming the next job and reading the next
 * wake-up cost O(log n), whatever the number of jobs; superseded entries are dropped when they
 * reach the top, and the heaps are rebuilt once they hold twice as many entries as jobs.
 */
interface Entry {
  id: string;
  /** The job's next run (undefined: none, it never becomes due). */
  next: number | undefined;
  /** The end of its lease (undefined: not leased). */
  until: number | undefined;
}

type Key = (entry: Entry) => number;
const byNext: Key = (entry) => entry.next as number;
const byUntil: Key = (entry) => entry.until as number;

class Heap {
  readonly items: Entry[] = [];
  constructor(private readonly key: Key) {}

  private less(a: Entry, b: Entry): boolean {
    const ka = this.key(a);
    const kb = this.key(b);
    return ka < kb || (ka === kb && a.id < b.id);
  }

  push(entry: Entry): void {
    const items = this.items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i] as Entry, items[parent] as Entry)) break;
      [items[i], items[parent]] = [items[parent] as Entry, items[i] as Entry];
      i = parent;
    }
  }

  pop(): Entry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l] as Entry, items[m] as Entry)) m = l;
        if (r < items.length && this.less(items[r] as Entry, items[m] as Entry)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m] as Entry, items[i] as Entry];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

export class DueIndex {
  /** The one live entry of each job; a heap entry that is not it is stale. */
  private readonly current = new Map<string, Entry>();
  private readonly due = new Heap(byNext);
  private readonly leased = new Heap(byUntil);

  /** Records a job's next run and lease; `next` undefined (disabled, finished) takes it out of the due order. */
  set(id: string, next: number | undefined, until?: number): void {
    if (next === undefined && until === undefined) {
      this.current.delete(id);
      return;
    }
    const entry: Entry = { id, next, until };
    this.current.set(id, entry);
    if (until !== undefined) this.leased.push(entry);
    else this.due.push(entry);
    if (this.due.items.length + this.leased.items.length > 2 * this.current.size + 1024) this.rebuild();
  }

  delete(id: string): void {
    this.current.delete(id);
  }

  /** Forgets every job (before a re-read of the store rebuilds the index). */
  clear(): void {
    this.current.clear();
    this.due.clear();
    this.leased.clear();
  }

  /** The job due first at `nowMs` (its next run ≤ now, no live lease), without taking it out. */
  peekDue(nowMs: number): { id: string; next: number } | undefined {
    const top = this.top(nowMs);
    return top && (top.next as number) <= nowMs ? { id: top.id, next: top.next as number } : undefined;
  }

  /** The earliest next run among jobs not under a live lease at `nowMs`. */
  nextWake(nowMs: number): number | undefined {
    return this.top(nowMs)?.next;
  }

  private top(nowMs: number): Entry | undefined {
    // leases that ended by now hand their jobs back to the due order
    for (;;) {
      const head = this.leased.items[0];
      if (!head || (this.current.get(head.id) === head && (head.until as number) > nowMs)) break;
      this.leased.pop();
      if (this.current.get(head.id) !== head) continue;
      if (head.next === undefined) {
        this.current.delete(head.id);
        continue;
      }
      const freed: Entry = { id: head.id, next: head.next, until: undefined };
      this.current.set(head.id, freed);
      this.due.push(freed);
    }
    for (;;) {
      const head = this.due.items[0];
      if (!head || this.current.get(head.id) === head) return head;
      this.due.pop();
    }
  }

  private rebuild(): void {
    this.due.clear();
    this.leased.clear();
    for (const entry of this.current.values()) {
      if (entry.until !== undefined) this.leased.push(entry);
      else this.due.push(entry);
    }
  }
}
