// A typed array for the reader's big, growing state (the branch index's columns): it doubles, and its fresh
// pages are not touched until written. (A resizable ArrayBuffer would grow in place and could be given back at
// once, but reaching its elements from JavaScript is slower on Node 20.) Arrays of a megabyte or more
// live in WebAssembly memory (see `zeroed`).

interface TypedArrayOf<T> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** The one WebAssembly API used here (the ES library's types have none). */
declare const WebAssembly: { Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer } };

/** Bytes from which an array is made in WebAssembly memory. */
const MAPPED_BYTES = 1024 * 1024;
const WASM_PAGE = 64 * 1024;

/**
 * A typed array of `length` zeros. From a megabyte up, in a WebAssembly memory of its own: V8 maps that memory
 * itself and unmaps it when the array is collected, so what the first pass's index held is given back to the
 * system. A typed array of that size is malloc's, and glibc kept the index's freed columns in its heap for
 * the rest of the read (figures: docs/performance.md). Where no such memory can be had (an address-space limit),
 * a plain array.
 */
export function zeroed<T>(type: TypedArrayOf<T>, length: number): T {
  const bytes = length * type.BYTES_PER_ELEMENT;
  if (bytes < MAPPED_BYTES) return new type(length);
  try {
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / WASM_PAGE) });
    return new type(memory.buffer, 0, length);
  } catch {
    return new type(length);
  }
}

/** A typed array of zeros that grows by doubling. `data` changes when it grows. */
export class GrowingArray<T extends Int32Array | Uint32Array | Uint8Array> {
  data: T;

  constructor(private readonly type: TypedArrayOf<T>, length: number) {
    this.data = zeroed(type, length);
  }

  /** Room for at least `length` elements; the new ones are zero. */
  ensure(length: number): void {
    if (length <= this.data.length) return;
    let next = Math.max(this.data.length, 1024);
    while (next < length) next *= 2;
    const grown = zeroed(this.type, next);
    grown.set(this.data);
    this.data = grown;
  }
}
