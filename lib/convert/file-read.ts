// Reading a source file for convert: in small fresh buffers off the thread pool, hashed as it is read (all of
// it, its complete lines, the prefixes earlier runs converted), some of its lines read again at the end (for
// an input format that held them by number), and fsync of what a run wrote.
import { createHash, type Hash } from 'node:crypto';
import { constants, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { parseLine, piecewiseSource } from '../json/raw-json.js';
import type { UnreadMembers } from '../json/unread-members.js';
import { asLine, FileLines, type FileLine } from '../lines/file-lines.js';
import { DEFAULT_MAX_LINE_BYTES } from '../lines/lines.js';
import type { RereadLine } from '../input/types.js';

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

/** Lines this long are huge: the caller of `rereadLines` may make room before one is read again. */
export const HUGE_LINE_BYTES = 16 * 1024 * 1024;

/** How far `rereadLines` has read. */
export interface RereadProgress {
  bytes: number;
}

/**
 * The values of the lines numbered `wanted` (ascending) among the first `size` bytes of `fd`, read again in
 * order by the reader's line splitter (FileLines: the lines between passed over unread) and parsed as the
 * first read parsed them (parseLine), a chunk's wanted lines at a time. A line longer than a chunk is read into
 * a buffer of its size; a huge one comes with the source of its long strings, its `unread` members left
 * undecoded, and not even read where the first read found them (`members`). A line that is no longer JSON
 * (the file changed) is left out.
 */
export function* rereadLines(
  fd: number, size: number, wanted: readonly number[],
  options: {
    maxLineBytes?: number;
    unread?: readonly string[];
    /** Where the `unread` members of the huge lines lie, noted in the first read: they are not read again. */
    members?: UnreadMembers;
    progress?: RereadProgress;
    /** Called before a line of HUGE_LINE_BYTES or more is read. */
    beforeHuge?: () => void;
  } = {},
): Generator<RereadLine> {
  const unread = options.unread ?? [];
  const lines = new FileLines(fd, size, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, CHUNK_BYTES);
  const around = options.members?.reader(fd);
  lines.readLongWith((no, start, end) => {
    if (end - start >= HUGE_LINE_BYTES) options.beforeHuge?.();
    return around?.(no, start, end);
  });
  let at = 0;
  const ready: RereadLine[] = [];
  const onLine = (fileLine: FileLine) => {
    // A line handed over is at or past the next wanted one (a wanted line that is blank now is not handed over).
    while (at < wanted.length && wanted[at]! < fileLine.no) at += 1;
    const isWanted = wanted[at] === fileLine.no;
    if (isWanted) at += 1;
    lines.passTo(wanted[at] ?? Infinity);
    if (!isWanted || fileLine.overLong) return;
    const line = asLine(fileLine);
    try {
      const value = parseLine(line, unread);
      const source = piecewiseSource(line);
      // The source's strings are the buffer's bytes: it is not read into again.
      if (source !== undefined) lines.keepBuffer();
      ready.push({ no: line.no, value, source });
    } catch {
      // No longer JSON: left out.
    }
  };
  lines.passTo(wanted[0] ?? Infinity);
  let more = wanted.length > 0;
  while (more) {
    more = lines.readChunk(onLine) && at < wanted.length;
    if (options.progress) options.progress.bytes = lines.bytesRead;
    yield* ready;
    ready.length = 0;
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
