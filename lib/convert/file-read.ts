// Reading a source file for convert: in small fresh buffers off the thread pool, hashed as it is read (all of
// it, its complete lines, the prefixes earlier runs converted), some of its lines read again at the end (for
// an input format that held them by number), and fsync of what a run wrote.
import { createHash, type Hash } from 'node:crypto';
import { constants, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { memberSpans, parseBytes } from '../json/raw-json.js';
import { isUtf8 } from 'node:buffer';
import { LAZY_TEXT_BYTES } from '../lines/lines.js';
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
 * order and numbered as the line splitter numbers them (every newline ends one). Only a wanted line is
 * decoded, and it is parsed when it comes and let go once the next is asked for; one longer than a chunk is
 * read whole into a buffer of its size (no growing buffer). A huge line is parsed from its bytes as the first
 * read parsed it, its `unread` members left undecoded, and comes with the source of its long strings. A line
 * that is no longer JSON (the file changed) is left out.
 */
export function* rereadLines(
  fd: number, size: number, wanted: readonly number[],
  options: {
    unread?: readonly string[];
    /** Spans of huge lines left out (see UnreadMembers), by line number. */
    left?: ReadonlyMap<number, readonly [number, number][]>;
    progress?: RereadProgress;
    /** Called before a line of HUGE_LINE_BYTES or more is read. */
    beforeHuge?: () => void;
  } = {},
): Generator<RereadLine> {
  const unread = options.unread ?? [];
  let at = 0;
  let no = 1;
  /** Where line `no` starts in the file. */
  let lineStart = 0;
  let position = 0;
  while (at < wanted.length) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
    const bytesRead = buf.length > 0 ? readSync(fd, buf, 0, buf.length, position) : 0;
    const chunkStart = position;
    position += bytesRead;
    if (options.progress) options.progress.bytes = position;
    const chunk = bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
    const ended = bytesRead === 0 || position >= size;
    let nl = chunk.indexOf(10);
    for (;;) {
      // The line ends at the newline, or at the end of what the first read read (a last line without one).
      const lineEnd = nl !== -1 ? chunkStart + nl : ended ? position : -1;
      if (lineEnd === -1) break;
      if (no === wanted[at]) {
        at += 1;
        if (lineEnd - lineStart >= HUGE_LINE_BYTES) options.beforeHuge?.();
        const left = no > 1 ? options.left?.get(no) : undefined;
        const bytes = left !== undefined ? readAround(fd, lineStart, lineEnd, left)
          : lineStart >= chunkStart ? chunk.subarray(lineStart - chunkStart, lineEnd - chunkStart) : readRange(fd, lineStart, lineEnd);
        const read = lineValue(no, bytes, unread);
        if (read !== undefined) yield read;
        if (at >= wanted.length) return;
      }
      if (nl === -1) return;
      no += 1;
      lineStart = lineEnd + 1;
      while (at < wanted.length && wanted[at]! < no) at += 1;
      nl = chunk.indexOf(10, nl + 1);
    }
    if (ended) return;
  }
}

/**
 * `fd`'s bytes [start, end) but for the spans `left` (offsets from `start`, in order), each read as `""`: a
 * huge line without the members its reader never reads (see UnreadMembers).
 */
function readAround(fd: number, start: number, end: number, left: readonly [number, number][]): Buffer {
  let size = end - start;
  for (const [from, to] of left) size -= to - from - 2;
  const buf = Buffer.allocUnsafeSlow(size);
  let filled = 0;
  let at = start;
  const copy = (to: number) => {
    while (at < to) {
      const n = readSync(fd, buf, filled, to - at, at);
      if (n === 0) throw new Error('the file changed while it was read');
      filled += n;
      at += n;
    }
  };
  for (const [from, to] of left) {
    copy(start + from);
    filled += buf.write('""', filled, 'latin1');
    at = start + to;
  }
  copy(end);
  return buf;
}

/**
 * The members a reader never reads (InputAdapter.unread) of the huge lines a file's first read met: where they
 * lie, so that reading such a line again leaves them out (a tool result's second copy, tens of megabytes).
 */
export class UnreadMembers {
  readonly spans = new Map<number, [number, number][]>();

  constructor(private readonly keys: readonly string[]) {}

  /** Line `no`, valid JSON `buf[start, end)`. */
  note(no: number, buf: Buffer, start: number, end: number): void {
    if (end - start < LAZY_TEXT_BYTES || this.keys.length === 0) return;
    const spans = memberSpans(buf.subarray(start, end), this.keys);
    if (spans.length > 0) this.spans.set(no, spans);
  }
}

/** `fd`'s bytes [start, end), in one buffer of that size. */
function readRange(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafeSlow(end - start);
  let filled = 0;
  while (filled < buf.length) {
    const n = readSync(fd, buf, filled, buf.length - filled, start + filled);
    if (n === 0) return buf.subarray(0, filled);
    filled += n;
  }
  return buf;
}

/**
 * Line `no` (its bytes with the line end) read again, parsed as the first read parsed it (lib/json/raw-json.ts
 * parseLine: a huge valid one from its bytes); undefined when it no longer parses.
 */
function lineValue(no: number, bytes: Buffer, unread: readonly string[]): RereadLine | undefined {
  let start = 0;
  let end = bytes.length;
  if (no === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  if (end > start && bytes[end - 1] === 13) end -= 1;
  const line = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  try {
    const head = line[0] ?? 0;
    if (line.length >= LAZY_TEXT_BYTES && head > 0x20 && head < 0x7f && isUtf8(line)) {
      const parsed = parseBytes(line, unread);
      if (parsed) return { no, value: parsed.value, source: parsed.source };
    }
    return { no, value: JSON.parse(line.toString('utf8')), source: undefined };
  } catch {
    return undefined;
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
