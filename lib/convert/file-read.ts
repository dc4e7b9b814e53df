// Reading a source file for convert: in small fresh buffers off the thread pool, hashed as it is read (all of
// it, its complete lines, the prefixes earlier runs converted), and fsync of what a run wrote.
import { createHash, type Hash } from 'node:crypto';
import { constants, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Bytes per read. What one read makes dies young: 64 KiB keeps it inside the young generation the launcher
 * sets (1 MiB reads were slower there, and held more memory: docs/performance.md).
 */
const CHUNK_BYTES = 64 * 1024;
/**
 * The file in fresh 1 MiB buffers (the line splitter keeps chunks while a line spans them). Reads are
 * synchronous, off the thread pool: the pool is busy with the fsyncs of finished files, and a read queued
 * behind them would stall the converter. The event loop turns between chunks (signals, progress, the
 * durability of finished files).
 */
export async function* chunks(fd: number): AsyncGenerator<Buffer> {
  let position = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const bytesRead = readSync(fd, buf, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield bytesRead === CHUNK_BYTES ? buf : buf.subarray(0, bytesRead);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * SHA-256 of a file read in chunks: of all of it, of its complete lines (up to its last newline: a line
 * still being written is converted later), and of the prefixes of `prefixes` bytes (what earlier runs converted).
 */
export class FileHash {
  private readonly hash = createHash('sha256');
  private atNewline: Hash | undefined;
  private position = 0;
  private completeSize = 0;
  /** The hashes of the wanted prefixes the file was long enough for. */
  readonly prefixes = new Map<number, string>();

  constructor(private readonly wanted: readonly number[] = []) {}

  update(chunk: Buffer): void {
    const end = this.position + chunk.length;
    for (const size of this.wanted) {
      if (size > this.position && size <= end && !this.prefixes.has(size)) {
        this.prefixes.set(size, this.hash.copy().update(chunk.subarray(0, size - this.position)).digest('hex'));
      }
    }
    const nl = chunk.lastIndexOf(10);
    if (nl === -1) this.hash.update(chunk);
    else {
      this.hash.update(nl === chunk.length - 1 ? chunk : chunk.subarray(0, nl + 1));
      this.atNewline = this.hash.copy();
      this.completeSize = this.position + nl + 1;
      if (nl < chunk.length - 1) this.hash.update(chunk.subarray(nl + 1));
    }
    this.position = end;
  }

  all(): { size: number; sha256: string } {
    return { size: this.position, sha256: this.hash.copy().digest('hex') };
  }

  complete(): { size: number; sha256: string } {
    return { size: this.completeSize, sha256: (this.atNewline ?? createHash('sha256')).copy().digest('hex') };
  }
}

/**
 * fsync a file this run wrote, so a manifest entry never names a session a crash could lose. Asynchronous
 * (the thread pool waits for the disk): the caller syncs a finished file while the next one is converted.
 */
export async function syncFile(path: string): Promise<void> {
  // Non-blocking: whatever may have been put at the path since it was written, the open never waits.
  const file = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}
