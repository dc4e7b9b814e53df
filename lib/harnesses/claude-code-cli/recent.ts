// A Set and a Map that remember at most `capacity` keys and forget the oldest when full, in O(1). The
// obvious `set.values().next()` eviction is not O(1): V8 leaves deleted entries in place until a rehash and
// every eviction walks over them again, which made a session with over 100,000 tool calls crawl.

/** A bounded Set with first-in, first-out eviction (insertion order, as a Set keeps it). */
export class RecentSet<K> {
  /** Each key with the sequence number it was inserted under. */
  private readonly seqs = new Map<K, number>();
  /** Keys in insertion order beside their sequence numbers (entries of deleted keys are skipped). */
  private keys: K[] = [];
  private keySeqs: number[] = [];
  private head = 0;
  private seq = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.seqs.size;
  }

  has(key: K): boolean {
    return this.seqs.has(key);
  }

  /** Add `key`; when the set is full, the oldest key is forgotten first (as `values().next()` would pick). */
  add(key: K): this {
    if (this.seqs.size >= this.capacity) this.evictOldest();
    if (this.seqs.has(key)) return this;
    this.seq += 1;
    this.seqs.set(key, this.seq);
    this.keys.push(key);
    this.keySeqs.push(this.seq);
    // Deleted keys leave stale queue entries behind: drop them before they outnumber the live ones.
    if (this.keys.length - this.head > 2 * Math.max(this.capacity, 1024)) this.compact(true);
    return this;
  }

  delete(key: K): boolean {
    return this.seqs.delete(key);
  }

  /** Called when a key is evicted (the Map below forgets its value). */
  protected evicted(_key: K): void {}

  private evictOldest(): void {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head]!;
      const seq = this.keySeqs[this.head]!;
      this.head += 1;
      if (this.seqs.get(key) === seq) {
        this.seqs.delete(key);
        this.evicted(key);
        break;
      }
    }
    if (this.head > 1024 && this.head * 2 > this.keys.length) this.compact(false);
  }

  private compact(dropStale: boolean): void {
    const keys: K[] = [];
    const seqs: number[] = [];
    for (let i = this.head; i < this.keys.length; i += 1) {
      const key = this.keys[i]!;
      const seq = this.keySeqs[i]!;
      if (!dropStale || this.seqs.get(key) === seq) {
        keys.push(key);
        seqs.push(seq);
      }
    }
    this.keys = keys;
    this.keySeqs = seqs;
    this.head = 0;
  }
}

/** A bounded Map with first-in, first-out eviction of its keys (insertion order, as a Map keeps it). */
export class RecentMap<K, V> extends RecentSet<K> {
  private readonly values = new Map<K, V>();

  get(key: K): V | undefined {
    return this.values.get(key);
  }

  set(key: K, value: V): this {
    this.add(key);
    this.values.set(key, value);
    return this;
  }

  override delete(key: K): boolean {
    this.values.delete(key);
    return super.delete(key);
  }

  protected override evicted(key: K): void {
    this.values.delete(key);
  }
}
