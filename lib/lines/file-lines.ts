// A file's lines as bytes, read synchronously in large chunks (no stream, no promise per read): a line is
// decoded only when someone asks for its text, so a pass that needs a few fields of each record can take them
// from the bytes. The lines are cut by the same LineRules as the stream's LineSplitter (lines.ts); what is
// here is the buffer a file is read into (a line's bytes stay in place, those of one chunk side by side).
import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';
import { BLANK, cutLine, LineRules, OVER_LONG, type Line } from './lines.js';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Chunk buffers a FileLines done with its file gave back (`release`), for the next one of the same size: a
 * reader of many files reads them all into the same few buffers instead of mapping fresh memory for each.
 */
const spares: Buffer[] = [];
const MOST_SPARES = 4;

/** One line of the file. The object and its bytes are only valid during the callback that gets it. */
export interface FileLine {
  /** 1-based line number. */
  no: number;
  /** The file offset of the line's first byte (after a BOM), where it is known (FileLines sets it). */
  offset?: number;
  /** The line is `buf[start, end)`, without BOM and line end (unset when the line is over the limit). */
  buf: Buffer;
  start: number;
  end: number;
  /** Byte length of the line (for an over-long line, at least the bytes it had when it was dropped). */
  bytes: number;
  /** The line was over the limit: its bytes were dropped (as they went by, to `onSkippedBytes`). */
  overLong: boolean;
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
 * The line as the stream's LineSplitter hands it on (lines.ts `Line`: a long valid one decoded only when its
 * text is read, its bytes known to `bytesOf`), for what parses lines (lib/json/raw-json.ts parseLine). Its
 * bytes are the FileLine's: valid as long as they are.
 */
export function asLine(line: FileLine): Line {
  return line.overLong ? { no: line.no, text: undefined, bytes: line.bytes } : cutLine(line.no, line.buf, line.start, line.end, !line.invalidUtf8);
}

/**
 * Reads a line longer than a chunk in its own way (see FileLines.readLongWith): line `no` is the file's bytes
 * [start, end) (without its LF; a first line with its BOM). Returns the bytes to take as the line, in a buffer
 * of its own (they may leave parts of the line out), or undefined to have it read as usual.
 */
export type LongLineReader = (no: number, start: number, end: number) => Buffer | undefined;

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
  /** Inside an over-long line, or one passed over: its bytes are counted here and dropped. */
  private skipping = false;
  private skipped = 0;
  /** The line being skipped is passed over (see passTo), not over the limit: it is only counted. */
  private passed = false;
  /** Lines numbered below this are passed over (see passTo). */
  private passUntil = 0;
  private longLine: LongLineReader | undefined;
  private readonly rules: LineRules;
  private readonly maxLineBytes: number;
  private done = false;
  /** The caller keeps this chunk's buffer (see keepBuffer): the next chunk is read into a new one. */
  private kept = false;
  private readonly line: FileLine = {
    no: 0, offset: 0, buf: EMPTY, start: 0, end: 0, bytes: 0, overLong: false, invalidUtf8: false, last: false,
  };
  /** The file offset of `buf[0]`. */
  private base = 0;

  /**
   * @param fd an open regular file
   * @param limit how many bytes of it to read (from its start)
   * @param maxLineBytes longest line handed over with its bytes
   * @param chunkBytes bytes read at a time (tests use small chunks to split lines at awkward places)
   * @param onSkippedBytes gets the bytes of each over-long line in order, as they go by, before the line itself
   * @param buffer the buffer to read chunks into (of `chunkBytes` bytes), that no other FileLines is reading
   *   into at the same time; by default one another FileLines released, else a new one
   */
  constructor(
    private readonly fd: number, private readonly limit: number, maxLineBytes: number,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly onSkippedBytes?: (buf: Buffer, start: number, end: number) => void,
    buffer?: Buffer,
  ) {
    this.buf = buffer !== undefined && buffer.length === chunkBytes ? buffer : spareOf(chunkBytes) ?? Buffer.allocUnsafeSlow(chunkBytes);
    this.rules = new LineRules(maxLineBytes);
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Read one chunk and hand over the lines it completes, then call `onChunkEnd` (the lines' bytes are still
   * valid then: a caller can copy them in one piece). False once the file is done (nothing was read).
   */
  readChunk(onLine: (line: FileLine) => void, onChunkEnd?: () => void): boolean {
    return this.read(onLine, onChunkEnd, undefined);
  }

  /**
   * Read one chunk and hand over the lines it completes as one span `buf[start, end)`, each line with its LF
   * (the file's last line, without one, comes alone with `last`), for a reader that walks the lines itself
   * and looks at only a few of them: no line object, no count, no UTF-8 check. A BOM at the file's start is
   * left out. A line over the limit that spans chunks is dropped as it goes by (to `onSkippedBytes`); one
   * within a chunk is in the span (the reader checks lengths). False once the file is done.
   * One FileLines is read by lines or by spans, never both.
   */
  readSpan(onSpan: (buf: Buffer, start: number, end: number, last: boolean) => void): boolean {
    return this.read(undefined, undefined, onSpan);
  }

  /**
   * Pass over the lines numbered below `no` (1-based) unread, for a reader that wants a few lines it knows by
   * number (it may call this again from the callback, with a later line): they are counted, never cut, checked
   * or handed over, and a long one is dropped as it goes by, not held. Reading by lines only.
   */
  passTo(no: number): void {
    this.passUntil = no;
  }

  /**
   * Offer each line longer than a chunk that is not passed over and is within the limit to `read` before it is
   * read (see LongLineReader): a reader of one huge line can read it into a buffer of its size without parts
   * it never reads. Its bytes are taken as the line, cut by the same rules. Reading by lines only.
   */
  readLongWith(read: LongLineReader): void {
    this.longLine = read;
  }

  /** The file offset of `buf[at]` of the span or line handed over last. */
  offsetAt(at: number): number {
    return this.base + at;
  }

  private read(onLine: ((line: FileLine) => void) | undefined, onChunkEnd: (() => void) | undefined, onSpan: ((buf: Buffer, start: number, end: number, last: boolean) => void) | undefined): boolean {
    if (this.done) return false;
    if (this.have === this.buf.length) {
      const end = this.pendingEnd();
      const start = this.bytesRead - this.have;
      const own = end !== undefined && end.at - start <= this.maxLineBytes && onLine !== undefined
        ? this.longLine?.(this.rules.no + 1, start, end.at) : undefined;
      if (own !== undefined) {
        this.takeLong(own, end!, onLine!);
        onChunkEnd?.();
        return true;
      }
      this.grow(end);
    }
    const want = Math.min(this.buf.length - this.have, this.limit - this.bytesRead);
    const n = want > 0 ? readSync(this.fd, this.buf, this.have, want, this.bytesRead) : 0;
    if (n === 0) {
      this.done = true;
      this.finish(onLine, onSpan);
      onChunkEnd?.();
      return false;
    }
    this.bytesRead += n;
    const end = this.have + n;
    this.base = this.bytesRead - end;
    const view = this.buf.subarray(0, end);
    let start = 0;
    if (this.skipping) {
      const nl = view.indexOf(10, this.have);
      if (nl === -1) {
        if (!this.passed) this.onSkippedBytes?.(view, this.have, end);
        this.skipped += n;
        this.have = 0;
        onChunkEnd?.();
        return true;
      }
      if (this.passed) {
        this.rules.dropped();
      } else {
        this.onSkippedBytes?.(view, this.have, nl);
        this.skipped += nl - this.have;
        if (onLine !== undefined) this.emitOverLong(onLine, this.rules.dropped(), this.skipped, false);
      }
      this.skipping = false;
      this.passed = false;
      start = nl + 1;
    }
    const lastNl = view.lastIndexOf(10);
    if (lastNl >= start && onSpan !== undefined) {
      if (this.base + start === 0 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) start += 3;
      if (lastNl >= start) onSpan(view, start, lastNl + 1, false);
      start = lastNl + 1;
    } else if (lastNl >= start && onLine !== undefined) {
      // Validating the chunk once is much cheaper than validating each line (most chunks are valid); when lines
      // are passed over, only those handed over are validated.
      const chunkValid = !this.passing() && isUtf8(view.subarray(start, lastNl));
      let nl = view.indexOf(10, start);
      while (nl !== -1) {
        if (this.passing()) this.rules.dropped();
        else this.emit(onLine, this.buf, start, nl, chunkValid, false);
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
      const usual = (small ? spareOf(this.chunkBytes) : undefined) ?? Buffer.allocUnsafeSlow(small ? this.chunkBytes : this.buf.length);
      this.buf.copy(usual, 0, start, end);
      this.buf = usual;
      this.kept = false;
    } else if (this.have > 0 && start > 0) {
      this.buf.copyWithin(0, start, end);
    }
    if (this.have > 0 && onLine !== undefined && this.passing()) {
      this.skipping = true;
      this.passed = true;
      this.have = 0;
    } else if (this.rules.over(this.have)) {
      this.onSkippedBytes?.(this.buf, 0, this.have);
      this.skipping = true;
      this.skipped = this.have;
      this.have = 0;
    }
    return true;
  }

  /** The next line to end is passed over (see passTo). */
  private passing(): boolean {
    return this.rules.no + 1 < this.passUntil;
  }

  /** The pending line, read by `longLine` into `own`, is handed over; reading goes on past it. */
  private takeLong(own: Buffer, end: { at: number; newline: boolean }, onLine: (line: FileLine) => void): void {
    this.base = this.bytesRead - this.have;
    this.bytesRead = end.newline ? end.at + 1 : end.at;
    this.have = 0;
    this.emit(onLine, own, 0, own.length, false, !end.newline);
  }

  /**
   * Keep the bytes of the lines handed over in this chunk valid after it: the buffer they lie in is never
   * written again (the next chunk goes to a new one). For a huge line, whose bytes are worth more than a copy.
   */
  keepBuffer(): void {
    this.kept = true;
  }

  /**
   * Done with the file: its chunk buffer goes to the next FileLines (unless a caller kept it, or a long line
   * grew it). No line handed over is used after this, and nothing more is read.
   */
  release(): void {
    if (!this.kept && this.buf.length === this.chunkBytes && spares.length < MOST_SPARES) spares.push(this.buf);
    this.buf = EMPTY;
    this.done = true;
  }

  private finish(onLine: ((line: FileLine) => void) | undefined, onSpan: ((buf: Buffer, start: number, end: number, last: boolean) => void) | undefined): void {
    this.base = this.bytesRead - this.have;
    if (this.skipping) {
      if (this.passed) this.rules.dropped();
      else if (onLine !== undefined) this.emitOverLong(onLine, this.rules.dropped(), this.skipped, true);
    } else if (this.have > 0 && onLine !== undefined && this.passing()) {
      this.rules.dropped();
    } else if (this.have > 0 && onSpan !== undefined) {
      const bom = this.base === 0 && this.have >= 3 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf ? 3 : 0;
      onSpan(this.buf, bom, this.have, true);
    } else if (this.have > 0 && onLine !== undefined) {
      this.emit(onLine, this.buf, 0, this.have, false, true);
    }
    this.have = 0;
  }

  /**
   * A line that does not fit: a bigger buffer (the pending bytes are at its start), of the line's size when
   * its end was found ahead within the line limit (`end`, see pendingEnd: the line is then read once more, into
   * a buffer of its size, not copied into ever larger ones), else twice the size.
   */
  private grow(end: { at: number; newline: boolean } | undefined): void {
    const size = end !== undefined ? this.sizeFor(end.newline ? end.at + 1 : end.at) : this.buf.length * 2;
    const bigger = Buffer.allocUnsafeSlow(size);
    this.buf.copy(bigger, 0, 0, this.have);
    this.buf = bigger;
  }

  /**
   * Where the pending line ends, read ahead a chunk at a time: the file offset of its LF, or where the file ends
   * inside it (`newline` false); undefined when that is not within the line limit.
   */
  private pendingEnd(): { at: number; newline: boolean } | undefined {
    const probe = Buffer.allocUnsafe(this.chunkBytes);
    let at = this.bytesRead;
    while (at < this.limit && at - this.bytesRead + this.have <= this.maxLineBytes) {
      const n = readSync(this.fd, probe, 0, Math.min(probe.length, this.limit - at), at);
      if (n === 0) break;
      const nl = probe.subarray(0, n).indexOf(10);
      if (nl !== -1) return { at: at + nl, newline: true };
      at += n;
    }
    return at - this.bytesRead + this.have <= this.maxLineBytes ? { at, newline: false } : undefined;
  }

  /** A buffer size that holds the pending line up to file offset `end`, with a byte to spare. */
  private sizeFor(end: number): number {
    return Math.max(this.buf.length + 1, this.have + (end - this.bytesRead) + 1);
  }

  private emitOverLong(onLine: (line: FileLine) => void, no: number, bytes: number, last: boolean): void {
    const line = this.line;
    line.no = no;
    line.offset = this.base;
    line.buf = EMPTY;
    line.start = 0;
    line.end = 0;
    line.bytes = bytes;
    line.overLong = true;
    line.invalidUtf8 = false;
    line.last = last;
    onLine(line);
  }

  private emit(onLine: (line: FileLine) => void, buf: Buffer, start: number, end: number, knownValid: boolean, last: boolean): void {
    const rules = this.rules;
    const cut = rules.cut(buf, start, end, knownValid);
    if (cut === BLANK) return;
    if (cut === OVER_LONG) {
      this.onSkippedBytes?.(buf, rules.start, rules.end);
      this.emitOverLong(onLine, rules.no, rules.end - rules.start, last);
      return;
    }
    const line = this.line;
    line.no = rules.no;
    line.offset = this.base + rules.start;
    line.buf = buf;
    line.start = rules.start;
    line.end = rules.end;
    line.bytes = rules.end - rules.start;
    line.overLong = false;
    line.invalidUtf8 = !rules.valid;
    line.last = last;
    onLine(line);
  }
}

/** The 1-based number of the line that starts at file offset `offset` of the open file `fd` (for a message). */
export function lineNumberAt(fd: number, offset: number): number {
  const buf = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  let no = 1;
  for (let at = 0; at < offset;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, offset - at), at);
    if (n === 0) break;
    for (let nl = buf.indexOf(10); nl !== -1 && nl < n; nl = buf.indexOf(10, nl + 1)) no += 1;
    at += n;
  }
  return no;
}

/** A released chunk buffer of `bytes` bytes, if there is one. */
function spareOf(bytes: number): Buffer | undefined {
  const at = spares.findIndex((buf) => buf.length === bytes);
  return at === -1 ? undefined : spares.splice(at, 1)[0];
}
