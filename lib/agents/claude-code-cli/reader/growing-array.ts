// A typed array for the reader's big, growing state (the branch index's columns): it doubles, and its fresh
// pages are not touched until written. (A resizable ArrayBuffer would grow in place and could be given back at
// once, but reaching its elements from JavaScript is 1.5-2x slower on Node 20.)

interface TypedArrayOf<T> {
  new (length: number): T;
}

/** A typed array of zeros that grows by doubling. `data` changes when it grows. */
export class GrowingArray<T extends Int32Array | Uint32Array | Uint8Array> {
  data: T;

  constructor(private readonly type: TypedArrayOf<T>, length: number) {
    this.data = new type(length);
  }

  /** Room for at least `length` elements; the new ones are zero. */
  ensure(length: number): void {
    if (length <= this.data.length) return;
    let next = Math.max(this.data.length, 1024);
    while (next < length) next *= 2;
    const grown = new this.type(next);
    grown.set(this.data);
    this.data = grown;
  }
}
