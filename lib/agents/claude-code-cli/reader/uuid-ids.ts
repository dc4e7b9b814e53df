// Record uuids to dense integer ids and back, in little memory: the branch index of a million-record
// transcript holds a million uuids. A canonical lowercase UUID (what Claude Code writes) is kept as its 16
// bytes in an open-addressing table of typed arrays (about 25 bytes an id, where a string in a Map took
// over 100); any other string is kept as it is, in a Map.

import { GrowingArray } from './growing-array.js';

const NONE = -1;

/** Hex digit values by char code; 255 for anything else (uppercase included: "A" and "a" are other uuids). */
const HEX = new Uint8Array(128).fill(255);
for (let d = 0; d < 16; d += 1) HEX['0123456789abcdef'.charCodeAt(d)] = d;

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Where the dashes of a canonical UUID are. */
const DASHES = [8, 13, 18, 23];

/** Pack a canonical lowercase UUID into `out` (four words); false for any other string. */
function pack(uuid: string, out: Uint32Array): boolean {
  if (uuid.length !== 36) return false;
  let word = 0;
  let nibbles = 0;
  for (let i = 0; i < 36; i += 1) {
    const c = uuid.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
      continue;
    }
    const v = c < 128 ? HEX[c]! : 255;
    if (v === 255) return false;
    word = (word << 4) | v;
    nibbles += 1;
    if ((nibbles & 7) === 0) {
      out[(nibbles >> 3) - 1] = word;
      word = 0;
    }
  }
  return true;
}

function hash(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(w0 ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ w1 ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ w2 ^ (h >>> 13), 0x27d4eb2f);
  h = Math.imul(h ^ w3 ^ (h >>> 16), 0x165667b1);
  return (h ^ (h >>> 15)) >>> 0;
}

/** uuid strings and the ids given to them, in the order they were added (0, 1, 2, ...). */
export class UuidIds {
  /** Four words per id (its packed uuid; unused for an id kept as a string). */
  private readonly words = new GrowingArray(Uint32Array, 4 * 1024);
  /** Open addressing over packed ids: the id + 1, or 0 for none (so the table needs no filling). Never more than half full. */
  private slots = new GrowingArray(Int32Array, 2048);
  /** Ids whose uuid is not a canonical lowercase UUID, both ways. */
  private readonly others = new Map<string, number>();
  private readonly otherNames = new Map<number, string>();
  private count = 0;
  private packedCount = 0;
  /** The last uuid packed, and the string it was packed from (the index asks about one uuid a few times in a row). */
  private readonly scratch = new Uint32Array(4);
  private packed: string | undefined;
  /**
   * The last few uuids asked about or added, with their ids: a record's parent is usually the record before
   * it, and a table of a million ids is a cache miss per probe.
   */
  private readonly recent: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly recentIds = new Int32Array(4);
  private recentAt = 0;

  /** Ids given so far. */
  get size(): number {
    return this.count;
  }

  /** The id of `uuid`, or undefined. */
  get(uuid: string): number | undefined {
    for (let i = 0; i < 4; i += 1) if (this.recent[i] === uuid) return this.recentIds[i];
    if (!this.pack(uuid)) return this.others.get(uuid);
    const { scratch } = this;
    const id = this.slots.data[this.probe(scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!)]! - 1;
    if (id === NONE) return undefined;
    this.remember(uuid, id);
    return id;
  }

  private remember(uuid: string, id: number): void {
    this.recent[this.recentAt] = uuid;
    this.recentIds[this.recentAt] = id;
    this.recentAt = (this.recentAt + 1) & 3;
  }

  /** Give `uuid` (not known yet) the next id. */
  add(uuid: string): number {
    const id = this.count;
    this.count += 1;
    this.words.ensure(4 * this.count);
    this.remember(uuid, id);
    if (!this.pack(uuid)) {
      this.others.set(uuid, id);
      this.otherNames.set(id, uuid);
      return id;
    }
    const { scratch } = this;
    this.words.data.set(scratch, 4 * id);
    if (2 * (this.packedCount + 1) > this.slots.data.length) this.rehash();
    this.slots.data[this.probe(scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!)] = id + 1;
    this.packedCount += 1;
    return id;
  }

  /** pack(), remembering the last string packed. */
  private pack(uuid: string): boolean {
    if (uuid === this.packed) return true;
    if (!pack(uuid, this.scratch)) return false;
    this.packed = uuid;
    return true;
  }

  /** The uuid of an id. */
  name(id: number): string {
    const other = this.otherNames.get(id);
    if (other !== undefined) return other;
    let text = '';
    for (let w = 0; w < 4; w += 1) {
      const word = this.words.data[4 * id + w]!;
      for (let shift = 24; shift >= 0; shift -= 8) {
        if (DASHES.includes(text.length)) text += '-';
        text += HEX_PAIRS[(word >>> shift) & 0xff]!;
      }
    }
    return text;
  }

  /** The slot of the packed uuid (w0..w3): where it is, or the empty slot where it would go. */
  private probe(w0: number, w1: number, w2: number, w3: number): number {
    const slots = this.slots.data;
    const words = this.words.data;
    const mask = slots.length - 1;
    let at = hash(w0, w1, w2, w3) & mask;
    for (;;) {
      const id = slots[at]! - 1;
      if (id === NONE) return at;
      const base = 4 * id;
      if (words[base] === w0 && words[base + 1] === w1 && words[base + 2] === w2 && words[base + 3] === w3) return at;
      at = (at + 1) & mask;
    }
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new GrowingArray(Int32Array, old.data.length * 2);
    const words = this.words.data;
    for (const slot of old.data) {
      if (slot === 0) continue;
      const base = 4 * (slot - 1);
      this.slots.data[this.probe(words[base]!, words[base + 1]!, words[base + 2]!, words[base + 3]!)] = slot;
    }
  }
}
