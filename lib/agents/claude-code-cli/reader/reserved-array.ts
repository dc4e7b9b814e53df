// Typed arrays that grow in place and give their memory back at once, for the branch index of a big
// transcript: a resizable ArrayBuffer reserves address space and the system commits a page when it is first
// written, so growing copies nothing, the slack past the last element costs nothing, and release() returns
// the memory without waiting for a collection (the index is let go just as the second pass starts).

/** The resizable ArrayBuffer of ES2024 (Node 20 has it; the ES2023 lib this project compiles with does not). */
interface ResizableBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

interface TypedArrayOf<T> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Address space reserved for an array (only the pages written are memory); past it, an array moves. */
const RESERVE_BYTES = 256 * 1024 * 1024;

function reserve(byteLength: number, maxByteLength: number): ResizableBuffer {
  const Resizable = ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => ResizableBuffer;
  return new Resizable(byteLength, { maxByteLength });
}

/** A typed array of `length` zeros that grows by doubling, in place. `data` changes when it grows. */
export class ReservedArray<T extends Int32Array | Uint32Array | Uint8Array> {
  data: T;
  private buffer: ResizableBuffer;

  constructor(private readonly type: TypedArrayOf<T>, length: number) {
    const bytes = length * type.BYTES_PER_ELEMENT;
    this.buffer = reserve(bytes, Math.max(bytes, RESERVE_BYTES));
    this.data = new type(this.buffer, 0, length);
  }

  /** Room for at least `length` elements; the new ones are zero. */
  ensure(length: number): void {
    if (length <= this.data.length) return;
    let next = Math.max(this.data.length, 1024);
    while (next < length) next *= 2;
    const bytes = next * this.type.BYTES_PER_ELEMENT;
    if (bytes <= this.buffer.maxByteLength) {
      this.buffer.resize(bytes);
    } else {
      const moved = reserve(bytes, 2 * bytes);
      new Uint8Array(moved).set(new Uint8Array(this.buffer));
      this.buffer.resize(0);
      this.buffer = moved;
    }
    this.data = new this.type(this.buffer, 0, next);
  }

  /** Give the memory back now; the array is empty afterwards. */
  release(): void {
    this.buffer.resize(0);
    this.data = new this.type(this.buffer, 0, 0);
  }
}
