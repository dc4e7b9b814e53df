// Sets and a Map that remember at most `capacity` keys and forget the oldest when full, in O(1). The
// obvious `set.values().next()` eviction is not O(1): V8 leaves deleted entries in place until a rehash and
// every eviction walks over them again, which made a session with over 100,000 tool calls crawl. The
// insertion order is kept in a ring of `capacity` slots beside the Set: little more memory than the Set.

/** A bounded Set with first-in, first-out eviction (insertion order, as a Set keeps it). */
export class RecentSet<K> {
  private readonly members = new Set<K>();
  /** Keys in insertion order, oldest at `head`, `count` of them, wrapping around; grows up to `capacity`. */
  private ring: (K | undefined)[] = new Array<K | undefined>(16).fill(undefined);
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.members.size;
  }

  has(key: K): boolean {
    return this.members.has(key);
  }

  /** Add `key`; when the set is full, the oldest key is forgotten first (as `values().next()` would pick); a key already here changes nothing. */
  add(key: K): this {
    if (this.members.has(key)) return this;
    if (this.members.size >= this.capacity) this.evictOldest();
    this.members.add(key);
    if (this.count === this.ring.length) this.grow();
    this.ring[(this.head + this.count) % this.ring.length] = key;
    this.count += 1;
    return this;
  }

  /** Forget every key. */
  clear(): void {
    this.members.clear();
    this.ring = new Array<K | undefined>(16).fill(undefined);
    this.head = 0;
    this.count = 0;
  }

  /** Forget `key`. Cheap for the newest keys (the usual case: a tool call taken back), O(n) at worst. */
  delete(key: K): boolean {
    if (!this.members.delete(key)) return false;
    const ring = this.ring;
    for (let i = this.count - 1; i >= 0; i -= 1) {
      if (ring[(this.head + i) % ring.length] !== key) continue;
      // Close the gap: the keys after it move one slot back, keeping their order.
      for (let j = i; j < this.count - 1; j += 1) ring[(this.head + j) % ring.length] = ring[(this.head + j + 1) % ring.length];
      ring[(this.head + this.count - 1) % ring.length] = undefined;
      this.count -= 1;
      break;
    }
    this.removed(key);
    return true;
  }

  private grow(): void {
    const ring = new Array<K | undefined>(this.ring.length * 2).fill(undefined);
    for (let i = 0; i < this.count; i += 1) ring[i] = this.ring[(this.head + i) % this.ring.length];
    this.ring = ring;
    this.head = 0;
  }

  /** Called when a key is forgotten (the Map below drops its value). */
  protected removed(_key: K): void {}

  private evictOldest(): void {
    if (this.count === 0) return;
    const key = this.ring[this.head] as K;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.ring.length;
    this.count -= 1;
    this.members.delete(key);
    this.removed(key);
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

  override clear(): void {
    super.clear();
    this.values.clear();
  }

  protected override removed(key: K): void {
    this.values.delete(key);
  }
}
