// How the branch index (branch.ts) keeps its records: dense integer ids for uuids, and a column of integers
// per field, one slot per id.
import type { NodeKind } from './record-head.js';

export const KINDS: readonly NodeKind[] = ['user', 'assistant', 'tool-results', 'context', 'boundary'];
export const NONE = -1;
/** A link that is not a string at all (null, missing): unlike NONE, a string naming no record here. */
export const NOT_A_STRING = -2;
export const SIDECHAIN = 1;
export const PARENT_STRING = 2;
export const LOGICAL_STRING = 4;

/**
 * A growing column of integers, one slot per record id. A value is stored less `empty`, so a slot never
 * written holds zero and reads `empty`: the column is never filled, and pages past the last id are not touched.
 */
export class Column {
  private data: Int32Array | Uint8Array;

  /** @param small values fit a byte (less `empty`) */
  constructor(private readonly empty: number, private readonly small = false) {
    this.data = small ? new Uint8Array(1024) : new Int32Array(1024);
  }

  get(id: number): number {
    return this.data[id]! + this.empty;
  }

  set(id: number, value: number): void {
    this.data[id] = value - this.empty;
  }

  ensure(size: number): void {
    if (size <= this.data.length) return;
    let length = this.data.length;
    while (length < size) length *= 2;
    const grown = this.small ? new Uint8Array(length) : new Int32Array(length);
    grown.set(this.data);
    this.data = grown;
  }
}

/** A column whose slots are nearly all `empty` (logical parents: compaction boundaries only), kept in a Map. */
export class SparseColumn {
  private readonly values = new Map<number, number>();
  constructor(private readonly empty: number) {}
  get(id: number): number {
    return this.values.get(id) ?? this.empty;
  }
  set(id: number, value: number): void {
    this.values.set(id, value);
  }
}

/** uuid strings and the ids given to them, in the order they were added (0, 1, 2, ...). */
export class RecordIds {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  /** Ids given so far. */
  get size(): number {
    return this.names.length;
  }

  /** The id of `uuid`, or undefined. */
  get(uuid: string): number | undefined {
    return this.ids.get(uuid);
  }

  /** Give `uuid` the next id. */
  add(uuid: string): number {
    const id = this.names.length;
    this.ids.set(uuid, id);
    this.names.push(uuid);
    return id;
  }

  /** The uuid of `id`. */
  name(id: number): string {
    return this.names[id]!;
  }
}
