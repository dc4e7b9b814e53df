// Streams the records of a Claude Code transcript file, line by line, without holding the file in memory.
// Damage is survived, not fatal: records glued together on one line (`}{`) and records separated by the NUL
// runs a crash leaves behind are recovered; an over-long line is skipped; a truncated last line marks the
// session partial. Every problem is reported through `warn` with its line number.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { FileLines, lineText, type FileLine } from '../../../lines/file-lines.js';
import type { RecordHead } from './record-head.js';
import { SkippedHead } from './skipped-head.js';
import { sameFile } from '../../../util/no-follow.js';
import { MAX_RECORD_BYTES } from '../../../util/record-limit.js';
import { isObject } from './record-types.js';
import { notRegularFile } from '../../../util/fs-errors.js';
import { parseBytes, type JsonSource } from '../../../json/raw-json.js';
import type { UnreadMembers } from '../../../json/unread-members.js';

/** Longest record accepted (Claude Code itself loads 30 MB tool results). */
export const DEFAULT_MAX_RECORD_BYTES = MAX_RECORD_BYTES;

/** A transcript's line as a pass meets it (valid only during the callback that gets it). */
export interface TranscriptLine extends FileLine {
  /** An over-long line's top-level uuid, parentUuid, type... read as its bytes went by (see skipped-head.ts). */
  skippedHead: RecordHead | undefined;
}

/** One record and the 1-based line it came from. */
export interface ScannedRecord {
  record: Record<string, unknown>;
  line: number;
}

export interface ScanOptions {
  maxRecordBytes?: number;
  /** Bytes read at a time (default 1 MiB). */
  chunkBytes?: number;
  /** Read only the first `bytes` bytes (the second pass reads exactly what the first one saw). */
  bytes?: number;
  /** The inode the file must be: it is then opened without following a link (a subagent's, found by lstat). */
  identity?: { dev: number; ino: number };
  /** Where UNREAD_MEMBERS lie in the huge lines an earlier pass noted: those lines are read without them. */
  unread?: UnreadMembers;
  warn: (line: number | undefined, message: string) => void;
}

/** What a scan saw, known when it ends. */
export interface ScanSummary {
  /** Bytes read. */
  bytes: number;
  /** The last line was cut off (no newline, not a complete record). */
  partial: boolean;
}

/** What one damaged line held. */
export interface Recovered {
  records: unknown[];
  /** Pieces that were not complete JSON values and were dropped. */
  damaged: number;
  /** The line ended inside a record (a cut-off write). */
  truncated: boolean;
  /** NUL bytes seen. */
  nuls: number;
}

/**
 * Whether a value found by resynchronising inside a cut-off record is a record of its own rather than an
 * object nested in the cut-off one (a message, a content block): records carry a session or chain field.
 */
function looksLikeRecord(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string'
    && ['sessionId', 'uuid', 'parentUuid', 'leafUuid', 'messageId'].some((key) => key in value);
}

/** Lines longer than this are parsed from their bytes, piecewise (see parseHugeRecord). */
export const HUGE_LINE_BYTES = 1024 * 1024;

/** The members the reader never reads: toolUseResult, Claude Code's second copy of a tool's output. */
export const UNREAD_MEMBERS = ['toolUseResult'] as const;

const hugeSources = new WeakMap<Record<string, unknown>, JsonSource>();

/**
 * The record of a line over HUGE_LINE_BYTES parsed without its text: its long strings decoded piece by piece
 * (lib/json/raw-json.ts), their raw bytes known to the source `recordSource` gives. Undefined for a shorter
 * line, one with invalid UTF-8, one without long strings, or one that is not a JSON object (parsed the
 * plain way, which reports it). The line's bytes must stay valid while the record is used.
 */
export function parseHugeRecord(line: FileLine): Record<string, unknown> | undefined {
  if (line.overLong || line.invalidUtf8 || line.end - line.start <= HUGE_LINE_BYTES) return undefined;
  const parsed = parseBytes(line.buf.subarray(line.start, line.end), UNREAD_MEMBERS);
  if (parsed === undefined || !isObject(parsed.value)) return undefined;
  hugeSources.set(parsed.value, parsed.source);
  return parsed.value;
}

/** The source of a record parseHugeRecord made (its long strings' raw bytes). */
export function recordSource(record: Record<string, unknown>): JsonSource | undefined {
  return hugeSources.get(record);
}

/** How many times one damaged piece is re-synchronised on a later `{"` before giving up (bounds the work). */
const MAX_RESYNC = 1000;

/**
 * The index just past the object starting at `start` (a `{`), or -1 when the text ends inside it.
 * Tracks strings and escapes so braces inside strings do not count.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      depth += 1;
    } else if (c === 125 || c === 93) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Split a line that is not one JSON value into the records it holds: values glued together (`}{`),
 * values separated by NUL runs, and garbage between them. Pure; used for damaged lines only.
 */
export function recoverRecords(text: string): Recovered {
  const out: Recovered = { records: [], damaged: 0, truncated: false, nuls: 0 };
  const pieces = text.split(/\u0000+/);
  out.nuls = text.length - pieces.reduce((n, p) => n + p.length, 0);
  pieces.forEach((piece, index) => {
    const last = index === pieces.length - 1;
    let pos = 0;
    let resyncs = 0;
    // A run of failed attempts (a cut-off record, re-synchronised on each `{"` inside it) is one damaged piece.
    let failing = false;
    let unterminated = false;
    const settle = () => {
      if (failing) out.damaged += 1;
      failing = false;
    };
    while (pos < piece.length) {
      const start = piece.indexOf('{', pos);
      if (start === -1) {
        if (piece.slice(pos).trim() !== '') {
          settle();
          out.damaged += 1;
        }
        break;
      }
      if (!failing && piece.slice(pos, start).trim() !== '') out.damaged += 1;
      const end = objectEnd(piece, start);
      let value: unknown;
      let parsed = false;
      if (end !== -1) {
        try {
          value = JSON.parse(piece.slice(start, end));
          // After a failure, a complete object may be one nested in the cut-off record: not a record.
          parsed = !failing || looksLikeRecord(value);
        } catch {
          // Not a complete value after all (a cut-off record glued to the next one): resync below.
        }
      }
      if (parsed) {
        settle();
        out.records.push(value);
        pos = end;
        continue;
      }
      // Whether the run's first record (the cut-off one) ran to the end of the piece.
      if (!failing) unterminated = end === -1;
      failing = true;
      const next = piece.indexOf('{"', start + 1);
      if (next === -1 || (resyncs += 1) > MAX_RESYNC) break;
      pos = next;
    }
    // A piece that ends inside a record is a cut-off write; only the line's last piece can be the interrupted one.
    if (failing && unterminated && last) {
      out.truncated = true;
      failing = false;
    }
    settle();
  });
  return out;
}

/**
 * One synchronous pass over a transcript file: its lines a chunk at a time (as bytes, see FileLines) and
 * the records of a line, with everything wrong in it reported through `options.warn`, one diagnostic per
 * line. Opening and reading throw the file system's errors; nothing inside the file does.
 */
export class TranscriptScan {
  /** What the scan saw; complete once `readChunk` returned false. */
  readonly summary: ScanSummary = { bytes: 0, partial: false };
  private readonly lines: FileLines;
  private readonly max: number;
  private warnedUtf8 = false;
  /** Diagnostics given so far (lines over the limit, damaged or not an object, invalid UTF-8). */
  warnings = 0;
  private closed = false;
  /** The head of the over-long line being skipped. */
  private head: SkippedHead | undefined;

  private constructor(private readonly fd: number, private readonly options: ScanOptions) {
    this.max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    // The second pass reads exactly the bytes the first one saw, even when the file was appended to since.
    const limit = options.bytes ?? Number.MAX_SAFE_INTEGER;
    const onSkippedBytes = (buf: Buffer, start: number, end: number) => (this.head ??= new SkippedHead()).feed(buf, start, end);
    this.lines = new FileLines(fd, Math.max(0, limit), this.max, options.chunkBytes, onSkippedBytes);
    if (options.unread !== undefined) this.lines.readLongWith(options.unread.reader(fd));
  }

  /** Open `path` (a regular file only, never blocking on a FIFO or device) for one pass. */
  static open(path: string, options: ScanOptions): TranscriptScan {
    const identity = options.identity;
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (identity !== undefined ? constants.O_NOFOLLOW : 0));
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw notRegularFile(stat);
      if (identity !== undefined && !sameFile(stat, identity)) throw Object.assign(new Error('replaced since it was found'), { code: 'ENOTSAME' });
      return new TranscriptScan(fd, options);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Read one chunk, handing over each line it completes (see FileLines). False when the file is done (and closed). */
  readChunk(onLine: (line: TranscriptLine) => void, onChunkEnd?: () => void): boolean {
    let more: boolean;
    const onFileLine = (line: FileLine) => {
      const transcriptLine = line as TranscriptLine;
      transcriptLine.skippedHead = line.overLong ? this.head?.head() : undefined;
      if (line.overLong) this.head = undefined;
      onLine(transcriptLine);
    };
    try {
      more = this.lines.readChunk(onFileLine, onChunkEnd);
    } finally {
      this.summary.bytes = this.lines.bytesRead;
    }
    if (!more) this.close();
    return more;
  }

  /** Keep the bytes of this chunk's lines valid after it (see FileLines.keepBuffer). */
  keepBuffer(): void {
    this.lines.keepBuffer();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.lines.release();
    closeSync(this.fd);
  }

  /**
   * The records of one line (usually one; several when damage glued them together; none when the line is
   * over the limit, damaged beyond use or not an object), each problem reported with the line number.
   * `text` is the line's text when the caller decoded it already.
   */
  records(line: FileLine, text?: string): Record<string, unknown>[] {
    const lineNo = line.no;
    if (line.overLong) {
      this.warnings += 1;
      this.options.warn(lineNo, `record of ${line.bytes} bytes is over the limit of ${this.max} bytes; skipped`);
      return [];
    }
    if (text === undefined) {
      const huge = parseHugeRecord(line);
      if (huge !== undefined) {
        // Its long strings are ropes of its bytes, spliced back from them when written: they must stay.
        this.lines.keepBuffer();
        return [huge];
      }
    }
    text ??= lineText(line);
    // One diagnostic per line: everything wrong with it, together.
    const notes: string[] = [];
    if (line.invalidUtf8 && !this.warnedUtf8) {
      this.warnedUtf8 = true;
      notes.push('invalid UTF-8 replaced with U+FFFD (reported once)');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const recovered = recoverRecords(text);
      if (line.last && recovered.truncated) {
        this.summary.partial = true;
        notes.push('the last line is cut off (an interrupted write); the session is partial');
      }
      if (recovered.truncated && !line.last) {
        notes.push('a cut-off record (an interrupted write, the file was appended to later); dropped');
      }
      const damaged = recovered.damaged;
      const damage: string[] = [];
      if (recovered.records.length > 0) damage.push(`recovered ${recovered.records.length} record(s)`);
      if (recovered.nuls > 0) damage.push(`skipped ${recovered.nuls} NUL byte(s)`);
      if (damaged > 0) damage.push(`dropped ${damaged} damaged piece(s)`);
      if (damage.length > 0) notes.push(`damaged line: ${damage.join(', ')}`);
      const objects = recovered.records.filter(isObject);
      if (objects.length < recovered.records.length) {
        notes.push(`${recovered.records.length - objects.length} recovered value(s) not a JSON object; skipped`);
      }
      if (notes.length > 0) this.warnings += 1;
      if (notes.length > 0) this.options.warn(lineNo, notes.join('; '));
      return objects;
    }
    if (!isObject(value)) notes.push('not a JSON object; skipped');
    if (notes.length > 0) this.warnings += 1;
    if (notes.length > 0) this.options.warn(lineNo, notes.join('; '));
    return isObject(value) ? [value] : [];
  }
}

/**
 * The records of the transcript at `path`, in file order. Rejects only when the file cannot be opened or
 * read; everything wrong inside it is reported through `options.warn`. The generator's return value is the
 * scan summary.
 */
export async function* scanRecords(path: string, options: ScanOptions): AsyncGenerator<ScannedRecord, ScanSummary> {
  const scan = TranscriptScan.open(path, options);
  try {
    let batch: ScannedRecord[] = [];
    const onLine = (line: FileLine) => {
      for (const record of scan.records(line)) batch.push({ record, line: line.no });
    };
    let more = true;
    while (more) {
      more = scan.readChunk(onLine);
      const ready = batch;
      batch = [];
      yield* ready;
    }
    return scan.summary;
  } finally {
    scan.close();
  }
}
