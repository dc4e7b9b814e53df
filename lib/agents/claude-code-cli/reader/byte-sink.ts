// NDJSON written straight into one growing Buffer: the text of a chunk of events never becomes one big heap
// string (strings of a few hundred kilobytes are allocated in V8's old generation, so a string per chunk
// made the heap, and RSS, grow with the transcript until a full collection).
import { resizableBuffer, type ResizableBuffer } from './growing-array.js';

/** Address space a sink reserves: it grows in place up to this, and moves past it. */
const SINK_RESERVE_BYTES = 64 * 1024 * 1024;

/**
 * A growing byte buffer that strings are encoded into as UTF-8. Its buffer is always its own ArrayBuffer,
 * never a slice of Node's shared pool (Buffer.allocUnsafe pools buffers under half of Buffer.poolSize, which
 * is 8 KiB on Node 20 and 22 and 64 KiB on Node 24; a pooled buffer cannot be transferred to another thread).
 * It is a resizable ArrayBuffer: it grows without a copy, and its pages come from the system and go back to it
 * when it is collected (a megabyte a chunk from malloc, freed on another thread, left the allocator's arenas
 * fragmented: tens of MB of RSS over a long read).
 */
export class ByteSink {
  buf: Buffer;
  length = 0;
  private buffer: ResizableBuffer;

  /** @param size bytes to start with (it grows as needed) */
  constructor(size = 64 * 1024) {
    const bytes = Math.max(size, 4096);
    this.buffer = resizableBuffer(bytes, Math.max(bytes, SINK_RESERVE_BYTES));
    this.buf = Buffer.from(this.buffer, 0, bytes);
  }

  put(text: string): void {
    // Three bytes per UTF-16 unit at most; a long text is measured instead (a huge string would reserve 3x).
    this.reserve(text.length > 65536 ? Buffer.byteLength(text) : text.length * 3);
    this.length += this.buf.write(text, this.length);
  }

  /** Append bytes as they are. */
  putBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  private reserve(most: number): void {
    if (this.length + most <= this.buf.length) return;
    const size = Math.max(this.buf.length * 2, this.length + most);
    if (size <= this.buffer.maxByteLength) {
      this.buffer.resize(size);
    } else {
      const moved = resizableBuffer(size, 2 * size);
      new Uint8Array(moved).set(this.buf.subarray(0, this.length));
      this.buffer = moved;
    }
    this.buf = Buffer.from(this.buffer, 0, size);
  }

  /** What was written (a view of the buffer). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
