// Sets and a Map that remember at most `capacity` keys and forget the oldest when full, in O(1). The
// obvious `set.values().next()` eviction is not O(1): V8 leaves deleted entries in place until a rehash and
// every eviction walks over them again, which made a session with over 100,000 tool calls crawl. The
// insertion order is kept in a ring of `capacity` slots beside the Set: little more memory than the Set.
// RecentStrings keeps strings as bytes instead, for the 100,000 tool call ids a writer remembers.

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

/** Bytes of an entry's header in RecentStrings: its hash, then its length in code units, four times, plus flags. */
const HEADER = 8;
const WIDE = 2;
const DEAD = 1;
/** The first ring of RecentStrings, in bytes (a session with a few tool calls allocates no more). */
const FIRST_RING = 1024;

/**
 * A bounded set of strings with first-in, first-out eviction, as RecentSet<string> keeps them (same keys
 * forgotten, in the same order), held as bytes: each key's code units (one byte each, or two when one is over
 * 0xFF) after an 8-byte header, back to back in a ring, found through an open-addressing table of their
 * offsets: about half the memory of the strings in a Set and its ring, and outside the JavaScript heap, which
 * the collector would walk (V8's Set table keeps deleted entries until a rehash). Figures: docs/performance.md.
 */
export class RecentStrings {
  /** Entries oldest first from `head`, `used` bytes of them (dead ones included), wrapping around. */
  private ring = new Uint8Array(FIRST_RING);
  private head = 0;
  private used = 0;
  /** Bytes of dead entries (deleted, not yet passed by `head`). */
  private dead = 0;
  /** Offset of the newest entry (-1: unknown, or none): taking it back frees its bytes at once. */
  private newest = -1;
  /** Per slot, the offset of a live entry plus one; 0 is empty. Linear probing; at most half full. */
  private table = new Int32Array(16);
  private live = 0;
  /** Hashes are seeded per set: input cannot choose keys that all land in one slot. */
  private readonly seed = (Math.random() * 0x100000000) | 0;
  /** The last key hashed, and its hash (`has` then `add` of one key hashes it once). */
  private lastKey = '';
  private lastHash = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.live;
  }

  has(key: string): boolean {
    return this.find(key, this.hash(key)) !== -1;
  }

  /** Add `key`; when the set is full, the oldest key is forgotten first (as RecentSet does); a key already here changes nothing. */
  add(key: string): this {
    const hash = this.hash(key);
    if (this.find(key, hash) !== -1) return this;
    if (this.live >= this.capacity) this.evictOldest();
    let wide = false;
    for (let i = 0; i < key.length; i += 1) {
      if (key.charCodeAt(i) > 0xff) {
        wide = true;
        break;
      }
    }
    const size = HEADER + key.length * (wide ? 2 : 1);
    if (this.used + size > this.ring.length) this.rebuild(size);
    const ring = this.ring;
    const n = ring.length;
    let at = this.head + this.used;
    if (at >= n) at -= n;
    this.writeInt(at, hash);
    this.writeInt(at + 4, key.length * 4 + (wide ? WIDE : 0));
    let q = at + HEADER;
    for (let i = 0; i < key.length; i += 1) {
      const code = key.charCodeAt(i);
      ring[q < n ? q : q - n] = code;
      q += 1;
      if (wide) {
        ring[q < n ? q : q - n] = code >>> 8;
        q += 1;
      }
    }
    this.used += size;
    this.newest = at;
    if ((this.live + 1) * 2 > this.table.length) this.growTable();
    this.insert(at, hash);
    this.live += 1;
    return this;
  }

  /** Forget `key`. */
  delete(key: string): boolean {
    const slot = this.find(key, this.hash(key));
    if (slot === -1) return false;
    const at = this.table[slot]! - 1;
    this.removeSlot(slot);
    this.live -= 1;
    const size = this.sizeAt(at);
    if (at === this.newest) {
      // The usual case (a tool call taken back): its bytes are the last ones.
      this.used -= size;
      this.newest = -1;
    } else {
      this.writeInt(at + 4, this.readInt(at + 4) | DEAD);
      this.dead += size;
    }
    this.passDead();
    return true;
  }

  private hash(key: string): number {
    if (key === this.lastKey) return this.lastHash;
    let h = this.seed;
    for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    this.lastKey = key;
    this.lastHash = h;
    return h;
  }

  /** The table slot holding `key`, or -1. */
  private find(key: string, hash: number): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!;
      if (entry === 0) return -1;
      if (this.readInt(entry - 1) === hash && this.holds(entry - 1, key)) return slot;
    }
  }

  /** Whether the entry at `at` is `key`. */
  private holds(at: number, key: string): boolean {
    const meta = this.readInt(at + 4);
    if (meta >>> 2 !== key.length) return false;
    const ring = this.ring;
    const n = ring.length;
    let q = at + HEADER;
    if (q >= n) q -= n;
    if ((meta & WIDE) === 0) {
      for (let i = 0; i < key.length; i += 1, q += 1) {
        if (q === n) q = 0;
        if (ring[q] !== key.charCodeAt(i)) return false;
      }
    } else {
      for (let i = 0; i < key.length; i += 1) {
        if (q === n) q = 0;
        const low = ring[q]!;
        q += 1;
        if (q === n) q = 0;
        if ((low | (ring[q]! << 8)) !== key.charCodeAt(i)) return false;
        q += 1;
      }
    }
    return true;
  }

  private insert(at: number, hash: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let slot = hash & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = at + 1;
  }

  /** Empty `slot`, moving later entries of its probe run back so that every entry stays reachable. */
  private removeSlot(slot: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let hole = slot;
    for (let next = (slot + 1) & mask; table[next] !== 0; next = (next + 1) & mask) {
      const home = this.readInt(table[next]! - 1) & mask;
      // The entry may move back to the hole unless its home lies cyclically after the hole, up to `next`.
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      table[hole] = table[next]!;
      hole = next;
    }
    table[hole] = 0;
  }

  private evictOldest(): void {
    if (this.live === 0) return;
    const at = this.head;
    const table = this.table;
    const mask = table.length - 1;
    let slot = this.readInt(at) & mask;
    while (table[slot] !== at + 1) slot = (slot + 1) & mask;
    this.removeSlot(slot);
    this.live -= 1;
    const size = this.sizeAt(at);
    if (at === this.newest) this.newest = -1;
    this.advance(size);
    this.passDead();
  }

  /** Move `head` past dead entries (so that it is at a live one, or the ring is empty). */
  private passDead(): void {
    while (this.used > 0 && (this.readInt(this.head + 4) & DEAD) !== 0) {
      const size = this.sizeAt(this.head);
      this.dead -= size;
      this.advance(size);
    }
    if (this.used === 0) {
      this.head = 0;
      this.newest = -1;
    }
  }

  private advance(size: number): void {
    this.head += size;
    if (this.head >= this.ring.length) this.head -= this.ring.length;
    this.used -= size;
  }

  /** Copy the live entries, oldest first, to the start of a ring with room for `more` bytes, and index them again. */
  private rebuild(more: number): void {
    const live = this.used - this.dead;
    const old = this.ring;
    const n = old.length;
    const ring = new Uint8Array(Math.max(FIRST_RING, Math.ceil((live + more) * 1.5)));
    this.table.fill(0);
    let to = 0;
    this.newest = -1;
    for (let at = this.head, left = this.used; left > 0;) {
      const size = this.sizeAt(at);
      if ((this.readInt(at + 4) & DEAD) === 0) {
        const end = at + size;
        if (end <= n) {
          ring.set(old.subarray(at, end), to);
        } else {
          ring.set(old.subarray(at, n), to);
          ring.set(old.subarray(0, end - n), to + n - at);
        }
        this.insert(to, this.readInt(at));
        this.newest = to;
        to += size;
      }
      left -= size;
      at += size;
      if (at >= n) at -= n;
    }
    this.ring = ring;
    this.head = 0;
    this.used = to;
    this.dead = 0;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    for (const entry of old) if (entry !== 0) this.insert(entry - 1, this.readInt(entry - 1));
  }

  /** Bytes of the entry at `at`, header included. */
  private sizeAt(at: number): number {
    const meta = this.readInt(at + 4);
    return HEADER + (meta >>> 2) * ((meta & WIDE) !== 0 ? 2 : 1);
  }

  private readInt(at: number): number {
    const ring = this.ring;
    const n = ring.length;
    if (at >= n) at -= n;
    if (at + 4 <= n) return ring[at]! | (ring[at + 1]! << 8) | (ring[at + 2]! << 16) | (ring[at + 3]! << 24);
    let value = 0;
    for (let i = 0; i < 4; i += 1) value |= ring[at + i < n ? at + i : at + i - n]! << (8 * i);
    return value;
  }

  private writeInt(at: number, value: number): void {
    const ring = this.ring;
    const n = ring.length;
    if (at >= n) at -= n;
    for (let i = 0; i < 4; i += 1) ring[at + i < n ? at + i : at + i - n] = (value >>> (8 * i)) & 0xff;
  }
}
