// NDJSON written straight into one growing Buffer: the text of a chunk of events never becomes one big heap
// string (strings of a few hundred kilobytes are allocated in V8's old generation, so a string per chunk
// made the heap, and RSS, grow with the transcript until a full collection).

/**
 * A growing byte buffer that strings are encoded into as UTF-8. Its buffer is always its own ArrayBuffer,
 * never a slice of Node's shared pool (Buffer.allocUnsafe pools buffers under half of Buffer.poolSize, which
 * is 8 KiB on Node 20 and 22 and 64 KiB on Node 24; a pooled buffer cannot be transferred to another thread).
 */
export class ByteSink {
  buf: Buffer;
  length = 0;

  /**
   * @param size bytes to start with (it grows as needed)
   */
  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(size, 4096));
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
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.length + most));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }

  /** What was written (a view of the buffer). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
