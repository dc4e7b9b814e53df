// Typed arrays for the reader's big, growing state: the branch index's columns (a plain typed array that
// doubles, its fresh pages untouched until written) and the byte sinks' resizable ArrayBuffers (memory from
// the system, grown in place, given back when collected; their elements are slower to reach from JavaScript
// on Node 20, which the sinks never do: they are written and read by native code).

/** The resizable ArrayBuffer of ES2024 (Node 20 has it; the ES2023 lib this project compiles with does not). */
export interface ResizableBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

/** A resizable ArrayBuffer of `byteLength` bytes that may grow in place up to `maxByteLength`. */
export function resizableBuffer(byteLength: number, maxByteLength: number): ResizableBuffer {
  const Resizable = ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => ResizableBuffer;
  return new Resizable(byteLength, { maxByteLength });
}

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
