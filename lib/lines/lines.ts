// Splits a byte stream into lines, one batch per input chunk. Works on Buffers (a line that spans chunks
// is concatenated once, never re-scanned), strips a BOM, CR before LF, and reports over-long lines and
// invalid UTF-8 without losing the lines around them. The batch-per-chunk shape is what lets the writer
// put all records of one read into one write, so no record waits for more input.
import { Transform, type TransformCallback } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { MAX_LINE_BYTES } from '../util/record-limit.js';

/** One line of input. `text` is undefined when the line was over the limit (its bytes were dropped). */
export interface Line {
  /** 1-based line number. */
  no: number;
  text: string | undefined;
  /** Byte length of the line as read (without the line ending). */
  bytes: number;
  /** The line held bytes that are not UTF-8; they were replaced by U+FFFD. */
  invalidUtf8?: boolean;
}

/**
 * The bytes a line was decoded from: `source[start, start + line.bytes)`, without BOM and line ending.
 * Writers splice long strings from here instead of serialising them again (see lib/session/raw-json.ts).
 */
export interface LineBytes {
  source: Buffer;
  start: number;
}

/**
 * Lines this long (valid UTF-8) are decoded only when their `text` is read: a reader that can parse them
 * from their bytes (lib/json/raw-json.ts) never holds the whole line as a string.
 */
export const LAZY_TEXT_BYTES = 1024 * 1024;

/** A line as the splitter makes it: it also knows its bytes, in private fields so `Line` stays a plain value. */
class SplitLine implements Line {
  declare invalidUtf8?: boolean;
  declare text: string | undefined;
  readonly #source: Buffer;
  readonly #start: number;
  readonly #lazy: boolean;

  constructor(public no: number, text: string | undefined, public bytes: number, source: Buffer, start: number) {
    this.#source = source;
    this.#start = start;
    this.#lazy = text === undefined;
    if (text !== undefined) {
      this.text = text;
    } else {
      // An own, enumerable property like any other line's text, decoded (once) when first read.
      Object.defineProperty(this, 'text', {
        enumerable: true,
        configurable: true,
        get: () => {
          const decoded = source.toString('utf8', start, start + bytes);
          Object.defineProperty(this, 'text', { value: decoded, enumerable: true, configurable: true, writable: true });
          return decoded;
        },
      });
    }
  }

  static bytesOf(line: Line): LineBytes | undefined {
    return #source in line ? { source: line.#source, start: line.#start } : undefined;
  }

  static isLazy(line: Line): boolean {
    return #lazy in line && line.#lazy && Object.getOwnPropertyDescriptor(line, 'text')?.get !== undefined;
  }
}

/**
 * The bytes `line` was decoded from, when a LineSplitter made it (undefined for over-long lines and lines
 * made elsewhere). Valid while the line's batch is handled: the splitter keeps no reference to them.
 */
export function bytesOf(line: Line): LineBytes | undefined {
  return isOverLong(line) ? undefined : SplitLine.bytesOf(line);
}

/** The line was over the limit (its bytes were dropped); unlike reading `text`, never decodes a lazy line. */
export function isOverLong(line: Line): boolean {
  return !SplitLine.isLazy(line) && line.text === undefined;
}

/** The line's text has not been decoded yet (a long line: see LAZY_TEXT_BYTES); its bytes are valid UTF-8. */
export function isLazyLine(line: Line): boolean {
  return SplitLine.isLazy(line);
}

const EMPTY = Buffer.alloc(0);

/** Buffer's own decoder, without toString's argument handling around it (a line is decoded per call). */
const { utf8Slice } = Buffer.prototype as unknown as { utf8Slice: (start: number, end: number) => string };

/** A pending line this long is gathered in one growing buffer (see LineSplitter.append). */
const GROW_FROM_BYTES = 1024 * 1024;

/** Default limit on one line: 64 MiB (Claude Code itself loads 30 MB tool results; see record-limit.ts). */
export const DEFAULT_MAX_LINE_BYTES = MAX_LINE_BYTES;

/** What LineRules.cut made of a line. */
export const LINE = 0;
export const BLANK = 1;
export const OVER_LONG = 2;

/**
 * The rules every splitter applies to each line, written once (the stream's LineSplitter below and the
 * reader's FileLines, lib/lines/file-lines.ts): a BOM dropped from the input's first line, CR before LF
 * dropped, a line over the limit reported without its bytes, a blank line dropped, invalid UTF-8 flagged.
 * The line numbers are counted here too. Which buffer a line lies in is each splitter's own business.
 */
export class LineRules {
  /** The last line's number (1-based). */
  no = 0;
  /** The last line cut is `buf[start, end)` without BOM and line end. */
  start = 0;
  end = 0;
  /** The last line cut (a LINE) is valid UTF-8. */
  valid = true;
  /** Still at the start of the input, where a BOM is dropped. */
  private first = true;

  constructor(readonly max: number) {}

  /** Whether a line of `bytes` bytes (held so far) is over the limit: its bytes are then dropped as they come. */
  over(bytes: number): boolean {
    return bytes > this.max;
  }

  /** The next line ended, its bytes gone (over the limit before it ended, or passed over unread): its number. */
  dropped(): number {
    this.first = false;
    return (this.no += 1);
  }

  /**
   * The next line is `buf[start, end)` (without its LF; `knownValid` when those bytes are known to be UTF-8):
   * LINE, BLANK (dropped) or OVER_LONG (only its length counts); `start`, `end`, `valid` and `no` tell the rest.
   */
  cut(buf: Buffer, start: number, end: number, knownValid: boolean): number {
    this.no += 1;
    if (this.first) {
      this.first = false;
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    }
    if (end > start && buf[end - 1] === 13) end -= 1;
    this.start = start;
    this.end = end;
    if (end - start > this.max) return OVER_LONG;
    if (end === start) return BLANK;
    // A line that starts with a visible ASCII character is not blank: the trim is skipped (the common case).
    const head = buf[start]!;
    if (!(head > 0x20 && head < 0x7f) && utf8Slice.call(buf, start, end).trim() === '') return BLANK;
    this.valid = knownValid || isUtf8(buf.subarray(start, end));
    return LINE;
  }
}

export interface LineSplitterOptions {
  maxLineBytes?: number;
}

/**
 * Pure line splitter: feed chunks, get the complete lines of each chunk. Blank lines are dropped.
 * Used by the stream wrapper below and directly by batch readers. Chunks are kept, not copied, while a
 * line spans them: as the stream contract says, a chunk must not be modified once it is pushed.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** A long pending line is copied into one buffer that grows, instead of chunks joined at the end. */
  private grown: Buffer | undefined;
  private overLong = false;
  private readonly rules: LineRules;

  constructor(options: LineSplitterOptions = {}) {
    this.rules = new LineRules(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  }

  /** Bytes of a line not yet ended are held (the next chunk continues it). */
  get holding(): boolean {
    return this.pendingBytes > 0 || this.overLong;
  }

  /** The lines completed by this chunk. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let nl = chunk.indexOf(10);
    if (nl === -1) {
      this.append(chunk, 0, chunk.length);
      return lines;
    }
    // Validating the chunk once is much cheaper than validating each line (most chunks are valid).
    const chunkValid = isUtf8(chunk);
    let start = 0;
    while (nl !== -1) {
      if (this.pending.length === 0 && !this.grown && !this.overLong) {
        this.emit(lines, chunk, start, nl, chunkValid);
      } else {
        this.append(chunk, start, nl);
        const joined = this.take();
        if (joined) this.emit(lines, joined, 0, joined.length, isUtf8(joined));
        else this.emitOverLong(lines);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.append(chunk, start, chunk.length);
    return lines;
  }

  /** The last line when the input did not end with a newline. */
  end(): Line[] {
    if (this.pending.length === 0 && !this.grown && !this.overLong) return [];
    const lines: Line[] = [];
    const joined = this.take();
    if (joined) this.emit(lines, joined, 0, joined.length, isUtf8(joined));
    else this.emitOverLong(lines);
    return lines;
  }

  private append(chunk: Buffer, start: number, end: number): void {
    this.pendingBytes += end - start;
    if (this.overLong) return;
    if (this.rules.over(this.pendingBytes)) {
      // Drop what we hold and only count from here on: memory stays bounded by the limit.
      this.overLong = true;
      this.pending = [];
      this.grown = undefined;
      return;
    }
    if (end <= start) return;
    const piece = start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end);
    if (this.grown) {
      const used = this.pendingBytes - piece.length;
      if (this.pendingBytes > this.grown.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(this.pendingBytes, Math.floor(this.grown.length * 1.5)));
        this.grown.copy(bigger, 0, 0, used);
        this.grown = bigger;
      }
      piece.copy(this.grown, used);
      return;
    }
    this.pending.push(piece);
    if (this.pendingBytes >= GROW_FROM_BYTES) {
      // Past this size the chunks would be joined into a copy of the whole line: copy them once, now.
      this.grown = Buffer.allocUnsafeSlow(this.pendingBytes * 2);
      let at = 0;
      for (const held of this.pending) at += held.copy(this.grown, at);
      this.pending = [];
    }
  }

  private take(): Buffer | undefined {
    if (this.overLong) return undefined;
    if (this.grown) {
      const line = this.grown.subarray(0, this.pendingBytes);
      this.grown = undefined;
      this.pendingBytes = 0;
      return line;
    }
    const joined = this.pending.length === 0
      ? EMPTY
      : this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return joined;
  }

  private emitOverLong(lines: Line[]): void {
    lines.push({ no: this.rules.dropped(), text: undefined, bytes: this.pendingBytes });
    this.pending = [];
    this.grown = undefined;
    this.pendingBytes = 0;
    this.overLong = false;
  }

  private emit(lines: Line[], buf: Buffer, start: number, end: number, knownValid: boolean): void {
    const rules = this.rules;
    const cut = rules.cut(buf, start, end, knownValid);
    if (cut === BLANK) return;
    ({ start, end } = rules);
    if (cut === OVER_LONG) {
      lines.push({ no: rules.no, text: undefined, bytes: end - start });
      return;
    }
    lines.push(cutLine(rules.no, buf, start, end, rules.valid));
  }
}

/**
 * Line `no`, `buf[start, end)` as LineRules cut it (`valid`: its UTF-8 check), as a splitter hands it on: a long
 * valid one decoded only when its text is read (see LAZY_TEXT_BYTES), its bytes known to `bytesOf`.
 */
export function cutLine(no: number, buf: Buffer, start: number, end: number, valid: boolean): Line {
  const bytes = end - start;
  const head = buf[start]!;
  if (valid && head > 0x20 && head < 0x7f && bytes >= LAZY_TEXT_BYTES) return new SplitLine(no, undefined, bytes, buf, start);
  const line = new SplitLine(no, utf8Slice.call(buf, start, end), bytes, buf, start);
  if (!valid) line.invalidUtf8 = true;
  return line;
}

/** The lines one input chunk completed, with the chunk itself (for `--echo`). */
export interface LineBatch {
  lines: Line[];
  chunk: Buffer | undefined;
}

/**
 * A Transform from bytes to `LineBatch`es (object mode on the readable side), one batch per input chunk:
 * per chunk, not per line, so the cost of object mode is paid once per read. At most one batch waits on
 * the readable side, so memory holds about one chunk's lines whatever the chunk size.
 */
export function createLineStream(options: LineSplitterOptions = {}): Transform {
  const splitter = new LineSplitter(options);
  return new Transform({
    readableObjectMode: true,
    readableHighWaterMark: 1,
    transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const batch: LineBatch = { lines: splitter.push(buf), chunk: buf };
      callback(null, batch);
    },
    flush(callback: TransformCallback) {
      const lines = splitter.end();
      if (lines.length > 0) this.push({ lines, chunk: undefined } satisfies LineBatch);
      callback();
    },
  });
}
