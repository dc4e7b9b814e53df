// Record uuids to dense integer ids and back, in little memory: the branch index of a million-record
// transcript holds a million uuids. A canonical lowercase UUID (what Claude Code writes) is kept as its 16
// bytes, in id order, and found through an open-addressing table of ids that compares a 4-byte fingerprint
// of each id before its bytes; any other string is kept as it is, in a Map. Only the newest 65,536 ids'
// bytes stay in memory: older ones go to a temporary file that no other process can open (made in a
// directory of our own, unlinked at once, read back by offset). About 12-20 bytes of memory per id, where
// a string in a Map took over 100 and all the bytes in memory 28-36; the file takes 16 bytes per id.
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrowingArray } from './growing-array.js';

const NONE = -1;

/** Hex digit values by char code; 255 for anything else (uppercase included: "A" and "a" are other uuids). */
const HEX = new Uint8Array(128).fill(255);
for (let d = 0; d < 16; d += 1) HEX['0123456789abcdef'.charCodeAt(d)] = d;

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Where the dashes of a canonical UUID are. */
const DASHES = [8, 13, 18, 23];

/** Ids per block of packed uuids (64 KiB of them): blocks are what goes to the file. */
const BLOCK_SHIFT = 12;
const BLOCK_IDS = 1 << BLOCK_SHIFT;
const BLOCK_WORDS = 4 * BLOCK_IDS;
/** Blocks kept in memory by default (the newest 65,536 ids: 1 MiB). */
const KEEP_BLOCKS = 16;

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

/** The fingerprint of a packed uuid: its low bits pick its slot, and the table compares all 32 before the bytes. */
function fingerprint(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(w0 ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ w1 ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ w2 ^ (h >>> 13), 0x27d4eb2f);
  h = Math.imul(h ^ w3 ^ (h >>> 16), 0x165667b1);
  return (h ^ (h >>> 15)) >>> 0;
}

/** The fingerprint the table files a canonical uuid under (undefined for any other string): for tests. */
export function uuidFingerprint(uuid: string): number | undefined {
  const words = new Uint32Array(4);
  return pack(uuid, words) ? fingerprint(words[0]!, words[1]!, words[2]!, words[3]!) : undefined;
}

/** Spill files still open, closed when their table is collected without `close()`. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/** A file of our own that nobody else can open: made in a new private directory under `under`, both unlinked at once. */
function privateFile(under: string): number | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(under, 'asyncai-log-'));
    const path = join(dir, 'uuids');
    const fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    return undefined;
  } finally {
    if (dir !== undefined) {
      try {
        rmdirSync(dir);
      } catch {
        // Left empty in the temporary directory: nothing of ours is in it.
      }
    }
  }
}

export interface UuidIdsOptions {
  /** Blocks of 4,096 ids' uuids kept in memory (default 16); older ones go to a temporary file. */
  keepBlocks?: number;
  /** Where that file is made (default: the system's temporary directory); where none can be, all stays in memory. */
  tmpdir?: string;
}

/** uuid strings and the ids given to them, in the order they were added (0, 1, 2, ...). */
export class UuidIds {
  /** Packed uuids, four words per id, a block per 4,096 ids; undefined for a block in the file. */
  private readonly blocks: (Uint32Array | undefined)[] = [];
  /** The first block still in memory (the ones before it are in the file). */
  private firstInMemory = 0;
  private readonly keepBlocks: number;
  private readonly tmpdir: string | undefined;
  /** The spill file: undefined before it is needed, null when none could be made (then all stays in memory). */
  private fd: number | null | undefined;
  /** False once a write to the file failed (a full disk): the later blocks stay in memory. */
  private spilling = true;
  private readonly fdToken = {};
  /** Per id, the fingerprint of its packed uuid. */
  private readonly prints = new GrowingArray(Uint32Array, 1024);
  /**
   * Open addressing over packed ids: the id + 1, or 0 for none (so the table needs no filling). Never more than
   * three quarters full (half full took twice the memory for no measured gain).
   */
  private slots = new GrowingArray(Int32Array, 2048);
  /** Ids whose uuid is not a canonical lowercase UUID, both ways. */
  private readonly others = new Map<string, number>();
  private readonly otherNames = new Map<number, string>();
  private count = 0;
  private packedCount = 0;
  /** The last uuid packed, and the string it was packed from (the index asks about one uuid a few times in a row). */
  private readonly scratch = new Uint32Array(4);
  private packed: string | undefined;
  /** An id's words read back from the file. */
  private readonly fileWords = new Uint32Array(4);
  private readonly fileBytes = new Uint8Array(this.fileWords.buffer);
  /**
   * The last few uuids asked about or added, with their ids: a record's parent is usually the record before
   * it, and a table of a million ids is a cache miss per probe.
   */
  private readonly recent: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly recentIds = new Int32Array(4);
  private recentAt = 0;
  /** The last uuid not found, and the empty slot where it would go (an index asks, then adds): -1 for none. */
  private missed: string | undefined;
  private missedSlot = -1;

  constructor(options: UuidIdsOptions = {}) {
    this.keepBlocks = Math.max(1, options.keepBlocks ?? KEEP_BLOCKS);
    this.tmpdir = options.tmpdir;
  }

  /** Ids given so far. */
  get size(): number {
    return this.count;
  }

  /** Blocks of ids whose uuids are in the file, not in memory. */
  get spilledBlocks(): number {
    return this.firstInMemory;
  }

  /** The id of `uuid`, or undefined. */
  get(uuid: string): number | undefined {
    for (let i = 0; i < 4; i += 1) if (this.recent[i] === uuid) return this.recentIds[i];
    if (!this.pack(uuid)) return this.others.get(uuid);
    if (uuid === this.missed) return undefined;
    const { scratch } = this;
    const slot = this.probe(scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!);
    const id = this.slots.data[slot]! - 1;
    if (id === NONE) {
      this.missed = uuid;
      this.missedSlot = slot;
      return undefined;
    }
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
    this.prints.ensure(this.count);
    const block = this.blockFor(id);
    this.remember(uuid, id);
    if (!this.pack(uuid)) {
      this.others.set(uuid, id);
      this.otherNames.set(id, uuid);
      return id;
    }
    const { scratch } = this;
    const w0 = scratch[0]!;
    const w1 = scratch[1]!;
    const w2 = scratch[2]!;
    const w3 = scratch[3]!;
    block.set(scratch, 4 * (id & (BLOCK_IDS - 1)));
    this.prints.data[id] = fingerprint(w0, w1, w2, w3);
    let slot = uuid === this.missed ? this.missedSlot : -1;
    if (4 * (this.packedCount + 1) > 3 * this.slots.data.length) {
      this.rehash();
      slot = -1;
    }
    this.slots.data[slot >= 0 ? slot : this.probe(w0, w1, w2, w3)] = id + 1;
    this.missed = undefined;
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
    const [words, at] = this.wordsOf(id);
    let text = '';
    for (let w = 0; w < 4; w += 1) {
      const word = words[at + w]!;
      for (let shift = 24; shift >= 0; shift -= 8) {
        if (DASHES.includes(text.length)) text += '-';
        text += HEX_PAIRS[(word >>> shift) & 0xff]!;
      }
    }
    return text;
  }

  /** Let go of the spill file (the table answers no more questions about spilled ids). */
  close(): void {
    if (typeof this.fd !== 'number') return;
    openFiles.unregister(this.fdToken);
    try {
      closeSync(this.fd);
    } catch {
      // Nothing to do: it was the last use of it.
    }
    this.fd = null;
  }

  /** The block of `id` (a new one when `id` starts it), spilling the oldest block kept when too many are. */
  private blockFor(id: number): Uint32Array {
    const index = id >>> BLOCK_SHIFT;
    let block = this.blocks[index];
    if (block !== undefined) return block;
    let reused: Uint32Array | undefined;
    if (index - this.firstInMemory >= this.keepBlocks && this.spilling && this.spillFile() !== null) {
      const oldest = this.blocks[this.firstInMemory]!;
      const bytes = new Uint8Array(oldest.buffer, oldest.byteOffset, oldest.byteLength);
      const position = this.firstInMemory * BLOCK_WORDS * 4;
      try {
        for (let done = 0; done < bytes.length;) done += writeSync(this.fd!, bytes, done, bytes.length - done, position + done);
        this.blocks[this.firstInMemory] = undefined;
        this.firstInMemory += 1;
        reused = oldest.fill(0);
      } catch {
        // A full disk: the blocks written stay readable, this one and the later ones stay in memory.
        this.spilling = false;
      }
    }
    block = reused ?? new Uint32Array(BLOCK_WORDS);
    this.blocks[index] = block;
    return block;
  }

  private spillFile(): number | null {
    if (this.fd === undefined) {
      this.fd = privateFile(this.tmpdir ?? tmpdir()) ?? null;
      if (this.fd !== null) openFiles.register(this, this.fd, this.fdToken);
    }
    return this.fd;
  }

  /** The words holding `id`'s packed uuid, and where in them it starts. */
  private wordsOf(id: number): [Uint32Array, number] {
    const block = this.blocks[id >>> BLOCK_SHIFT];
    if (block !== undefined) return [block, 4 * (id & (BLOCK_IDS - 1))];
    const bytes = this.fileBytes;
    let done = 0;
    while (done < 16) {
      const read = readSync(this.fd as number, bytes, done, 16 - done, id * 16 + done);
      if (read === 0) throw new Error(`the uuid table's spill file ended at id ${id}`);
      done += read;
    }
    return [this.fileWords, 0];
  }

  /** Whether `id`'s packed uuid is w0..w3 (asked once its fingerprint matched). */
  private holds(id: number, w0: number, w1: number, w2: number, w3: number): boolean {
    const [words, at] = this.wordsOf(id);
    return words[at] === w0 && words[at + 1] === w1 && words[at + 2] === w2 && words[at + 3] === w3;
  }

  /** The slot of the packed uuid (w0..w3): where it is, or the empty slot where it would go. */
  private probe(w0: number, w1: number, w2: number, w3: number): number {
    const slots = this.slots.data;
    const prints = this.prints.data;
    const print = fingerprint(w0, w1, w2, w3);
    const mask = slots.length - 1;
    let at = print & mask;
    for (;;) {
      const id = slots[at]! - 1;
      if (id === NONE) return at;
      if (prints[id] === print && this.holds(id, w0, w1, w2, w3)) return at;
      at = (at + 1) & mask;
    }
  }

  /** Twice the slots, each id where its fingerprint puts it (the uuids themselves are not read). */
  private rehash(): void {
    const old = this.slots.data;
    this.slots = new GrowingArray(Int32Array, old.length * 2);
    const slots = this.slots.data;
    const prints = this.prints.data;
    const mask = slots.length - 1;
    for (const slot of old) {
      if (slot === 0) continue;
      let at = prints[slot - 1]! & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = slot;
    }
  }
}
