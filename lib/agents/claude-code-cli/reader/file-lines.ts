// A transcript file's lines as bytes, read synchronously in large chunks (no stream, no promise per read):
// a line is decoded only when someone asks for its text, so a pass that needs a few fields of each record
// can take them from the bytes. Lines are split as lib/lines/lines.ts splits them: a BOM, CR before LF and
// blank lines dropped, invalid UTF-8 flagged, a line over the limit reported and never held.
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';
import type { RecordHead } from './record-head.js';
import { SkippedHead } from './skipped-head.js';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/** One line of the file. The object and its bytes are only valid during the callback that gets it. */
export interface FileLine {
  /** 1-based line number. */
  no: number;
  /** The line is `buf[start, end)`, without BOM and line end (unset when the line is over the limit). */
  buf: Buffer;
  start: number;
  end: number;
  /** Byte length of the line (for an over-long line, at least the bytes it had when it was dropped). */
  bytes: number;
  /** The line was over the limit: its bytes were dropped. */
  overLong: boolean;
  /** An over-long line's top-level uuid, parentUuid, type... read as its bytes went by (see skipped-head.ts). */
  skippedHead: RecordHead | undefined;
  /** The line holds bytes that are not UTF-8 (decoding replaces them with U+FFFD). */
  invalidUtf8: boolean;
  /** The file's last line, not ended by a newline. */
  last: boolean;
}

const EMPTY = Buffer.alloc(0);

/** The decoded text of a line (not of an over-long one). */
export function lineText(line: FileLine): string {
  return line.buf.toString('utf8', line.start, line.end);
}

/**
 * A big line buffer one pass is done with, for the next pass's long line: two passes over a file of huge
 * lines would otherwise hold a buffer each until a collection frees the first.
 */
export class SpareBuffer {
  private buf: Buffer | undefined;

  /** The spare buffer, if it holds `min` bytes (it is no longer spare). */
  take(min: number): Buffer | undefined {
    const { buf } = this;
    if (buf === undefined || buf.length < min) return undefined;
    this.buf = undefined;
    return buf;
  }

  /** A buffer nobody reads any more (the larger of it and the one kept). */
  give(buf: Buffer): void {
    if (this.buf === undefined || buf.length > this.buf.length) this.buf = buf;
  }
}

/**
 * The lines of the first `limit` bytes of an open file, a chunk at a time: `readChunk` reads one chunk
 * and hands each line it completes to the callback; the file's last line (without a newline) comes with
 * the final chunk. A line longer than a chunk grows the buffer, up to `maxLineBytes`.
 */
export class FileLines {
  /** Bytes read so far. */
  bytesRead = 0;
  private buf: Buffer;
  /** Bytes at the start of `buf` that belong to the pending (incomplete) line. */
  private have = 0;
  /** Inside an over-long line: its bytes are counted here and dropped. */
  private skipping = false;
  private skipped = 0;
  private lineNo = 0;
  private first = true;
  private done = false;
  /** The caller keeps this chunk's buffer (see keepBuffer): the next chunk is read into a new one. */
  private kept = false;
  private readonly line: FileLine = {
    no: 0, buf: EMPTY, start: 0, end: 0, bytes: 0, overLong: false, skippedHead: undefined, invalidUtf8: false, last: false,
  };
  /** The head of the over-long line being skipped. */
  private head: SkippedHead | undefined;

  /**
   * @param fd an open regular file
   * @param limit how many bytes of it to read (from its start)
   * @param maxLineBytes longest line handed over with its bytes
   * @param chunkBytes bytes read at a time (tests use small chunks to split lines at awkward places)
   */
  constructor(
    private readonly fd: number, private readonly limit: number, private readonly maxLineBytes: number,
    private readonly chunkBytes = CHUNK_BYTES, private readonly spare?: SpareBuffer,
  ) {
    this.buf = Buffer.allocUnsafeSlow(chunkBytes);
  }

  /**
   * Read one chunk and hand over the lines it completes, then call `onChunkEnd` (the lines' bytes are still
   * valid then: a caller can copy them in one piece). False once the file is done (nothing was read).
   */
  readChunk(onLine: (line: FileLine) => void, onChunkEnd?: () => void): boolean {
    if (this.done) return false;
    if (this.have === this.buf.length) this.grow();
    const want = Math.min(this.buf.length - this.have, this.limit - this.bytesRead);
    const n = want > 0 ? readSync(this.fd, this.buf, this.have, want, this.bytesRead) : 0;
    if (n === 0) {
      this.done = true;
      this.finish(onLine);
      onChunkEnd?.();
      return false;
    }
    this.bytesRead += n;
    const end = this.have + n;
    const view = this.buf.subarray(0, end);
    let start = 0;
    if (this.skipping) {
      const nl = view.indexOf(10, this.have);
      if (nl === -1) {
        this.head?.feed(view, this.have, end);
        this.skipped += n;
        this.have = 0;
        onChunkEnd?.();
        return true;
      }
      this.head?.feed(view, this.have, nl);
      this.skipped += nl - this.have;
      this.lineNo += 1;
      this.emitOverLong(onLine, this.skipped, false);
      this.skipping = false;
      start = nl + 1;
    }
    const lastNl = view.lastIndexOf(10);
    if (lastNl >= start) {
      // Validating the chunk once is much cheaper than validating each line (most chunks are valid).
      const chunkValid = isUtf8(view.subarray(start, lastNl));
      let nl = view.indexOf(10, start);
      while (nl !== -1) {
        this.lineNo += 1;
        this.emit(onLine, start, nl, chunkValid, false);
        start = nl + 1;
        nl = start <= lastNl ? view.indexOf(10, start) : -1;
      }
    }
    onChunkEnd?.();
    this.have = end - start;
    const small = this.have <= this.chunkBytes / 2;
    if (this.kept || (this.buf.length > this.chunkBytes && small)) {
      // The long line that grew the buffer is done: back to chunks of the usual size. A kept buffer is left
      // as it is to whoever kept it.
      const usual = Buffer.allocUnsafeSlow(small ? this.chunkBytes : this.buf.length);
      this.buf.copy(usual, 0, start, end);
      if (!this.kept) this.spare?.give(this.buf);
      this.buf = usual;
      this.kept = false;
    } else if (this.have > 0 && start > 0) {
      this.buf.copyWithin(0, start, end);
    }
    if (this.have > this.maxLineBytes) {
      this.head = new SkippedHead();
      this.head.feed(this.buf, 0, this.have);
      this.skipping = true;
      this.skipped = this.have;
      this.have = 0;
    }
    return true;
  }

  /**
   * Keep the bytes of the lines handed over in this chunk valid after it: the buffer they lie in is never
   * written again (the next chunk goes to a new one). For a huge line, whose bytes are worth more than a copy.
   */
  keepBuffer(): void {
    this.kept = true;
  }

  private finish(onLine: (line: FileLine) => void): void {
    if (this.skipping) {
      this.lineNo += 1;
      this.emitOverLong(onLine, this.skipped, true);
    } else if (this.have > 0) {
      this.lineNo += 1;
      this.emit(onLine, 0, this.have, false, true);
    }
    this.have = 0;
  }

  /** A line that does not fit: a bigger buffer (the pending bytes are at its start). */
  private grow(): void {
    const bigger = this.spare?.take(this.buf.length * 2) ?? Buffer.allocUnsafeSlow(this.buf.length * 2);
    this.buf.copy(bigger, 0, 0, this.have);
    this.buf = bigger;
  }

  private emitOverLong(onLine: (line: FileLine) => void, bytes: number, last: boolean): void {
    const line = this.line;
    line.no = this.lineNo;
    line.buf = EMPTY;
    line.start = 0;
    line.end = 0;
    line.bytes = bytes;
    line.overLong = true;
    line.skippedHead = this.head?.head();
    this.head = undefined;
    line.invalidUtf8 = false;
    line.last = last;
    onLine(line);
  }

  private emit(onLine: (line: FileLine) => void, start: number, end: number, knownValid: boolean, last: boolean): void {
    const buf = this.buf;
    if (this.first) {
      this.first = false;
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    }
    if (end > start && buf[end - 1] === 13) end -= 1;
    const bytes = end - start;
    if (bytes > this.maxLineBytes) {
      this.head = new SkippedHead();
      this.head.feed(buf, start, end);
      this.emitOverLong(onLine, bytes, last);
      return;
    }
    if (bytes === 0) return;
    const head = buf[start]!;
    // A line that starts with a visible ASCII character is not blank: the trim is skipped (the common case).
    if (!(head > 0x20 && head < 0x7f) && buf.toString('utf8', start, end).trim() === '') return;
    const line = this.line;
    line.no = this.lineNo;
    line.buf = buf;
    line.start = start;
    line.end = end;
    line.bytes = bytes;
    line.overLong = false;
    line.skippedHead = undefined;
    line.invalidUtf8 = !knownValid && !isUtf8(buf.subarray(start, end));
    line.last = last;
    onLine(line);
  }
}
