// One transcript file as both passes meet it: each pass opens it again and reads it a chunk at a time; what
// spans the passes is here (the warnings, given once each, and which record types were reported).
import { cannotBeRead } from '../../../util/fs-errors.js';
import { ReaderError, type ReaderWarning } from '../../../session/types.js';
import { CHUNK_BYTES, type FileLine } from '../../../lines/file-lines.js';
import { UnreadMembers } from '../../../json/unread-members.js';
import { classifyRecordType } from './record-types.js';
import { TranscriptScan, UNREAD_MEMBERS, type ScanSummary, type TranscriptLine } from './scan.js';
import { AssistantLines, scanUsageRecord } from './usage-scan.js';

/** How a transcript file is read, and who hears of its problems. */
export interface TranscriptFileOptions {
  /** What warnings and errors call the transcript. */
  name: string;
  maxRecordBytes?: number;
  chunkBytes?: number;
  onWarning?: (warning: ReaderWarning) => void;
  /** The inode the file must be, opened without following a link (a file found beside a transcript). */
  identity?: { dev: number; ino: number };
}

/** Warnings kept in `warnings` (later ones are still reported through onWarning). */
const MAX_KEPT_WARNINGS = 1000;

export class TranscriptFile {
  /** Warnings so far (the first 1000). */
  readonly warnings: ReaderWarning[] = [];
  /** The file ends in a cut-off record: the session was being written, or the write was interrupted. */
  partial = false;
  private readonly reported = new Set<string>();
  private readonly unknownTypes = new Set<string>();
  /** Where the members no pass reads lie in the file's huge lines: a later pass reads those lines without them. */
  private readonly unread = new UnreadMembers(UNREAD_MEMBERS);

  constructor(readonly path: string, private readonly options: TranscriptFileOptions) {}

  get name(): string {
    return this.options.name;
  }

  /** Bytes a pass reads at a time. */
  get chunkBytes(): number {
    return this.options.chunkBytes ?? CHUNK_BYTES;
  }

  /** Report a problem once (the second pass meets the first pass's problems again). */
  warn = (line: number | undefined, message: string): void => {
    const key = `${line ?? ''}\u0000${message}`;
    if (this.reported.has(key)) return;
    if (this.reported.size < 100_000) this.reported.add(key);
    const warning: ReaderWarning = { file: this.name, message, ...(line !== undefined ? { line } : {}) };
    if (this.warnings.length < MAX_KEPT_WARNINGS) this.warnings.push(warning);
    this.options.onWarning?.(warning);
  };

  /** A pass over the file (the first `bytes` bytes); a ReaderError when it cannot be opened. */
  open(bytes?: number): TranscriptScan {
    try {
      return TranscriptScan.open(this.path, {
        warn: this.warn,
        ...(this.options.maxRecordBytes !== undefined ? { maxRecordBytes: this.options.maxRecordBytes } : {}),
        ...(this.options.chunkBytes !== undefined ? { chunkBytes: this.options.chunkBytes } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
        ...(this.options.identity !== undefined ? { identity: this.options.identity } : {}),
        unread: this.unread,
      });
    } catch (error) {
      throw new ReaderError(`${this.name}: ${cannotBeRead(error)}`);
    }
  }

  /**
   * Line `line` (one valid JSON record, as read in full) may be read again: where its members no pass reads lie,
   * if it is huge (a tool result's second copy, half of such a line, is then not read again).
   */
  noteUnread(line: FileLine): void {
    if (!line.overLong && !line.invalidUtf8) this.unread.note(line.no, line.buf, line.start, line.end);
  }

  /** One chunk of a pass (see TranscriptScan.readChunk); a read error becomes a ReaderError. */
  readChunk(scan: TranscriptScan, onLine: (line: TranscriptLine) => void, onChunkEnd?: () => void): boolean {
    let more: boolean;
    try {
      more = scan.readChunk(onLine, onChunkEnd);
    } catch (error) {
      scan.close();
      // Only the file system's errors mean the file cannot be read; anything else is a fault of ours.
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      throw new ReaderError(`${this.name}: ${cannotBeRead(error)}`);
    }
    if (!more && scan.summary.partial) this.partial = true;
    return more;
  }

  /** Whether a record goes on to the passes: one with a type. Unknown types are reported once each. */
  accept(record: { type?: unknown }, line: number): boolean {
    const type = record.type;
    if (typeof type !== 'string') {
      if (!this.unknownTypes.has('\u0000')) this.warn(line, 'a record without a "type" was skipped (reported once)');
      this.unknownTypes.add('\u0000');
      return false;
    }
    if (classifyRecordType(type) === 'unknown' && !this.unknownTypes.has(type)) {
      this.unknownTypes.add(type);
      this.warn(line, `unknown record type ${JSON.stringify(type)} skipped (reported once per type)`);
    }
    return true;
  }

  /**
   * The assistant records of the file, in order, to `onRecord`: only lines that may hold one are looked at
   * (usage-scan.ts), read from their bytes when the walk can, else parsed and checked as every pass does, so
   * damage in other lines is not reported here. What `usage()` needs, at about half the cost of every record.
   */
  forEachAssistantRecord(onRecord: (record: Record<string, unknown>, line: number) => void): void {
    const scan = this.open();
    const assistant = new AssistantLines();
    const onLine = (line: TranscriptLine) => {
      if (!line.overLong && !line.invalidUtf8) {
        if (!assistant.mayHold(line.buf, line.start, line.end)) return;
        const light = scanUsageRecord(line.buf, line.start, line.end);
        if (light !== undefined) {
          if (this.accept(light, line.no)) onRecord(light, line.no);
          return;
        }
      }
      for (const record of scan.records(line)) if (this.accept(record, line.no)) onRecord(record, line.no);
    };
    while (this.readChunk(scan, onLine, () => assistant.reset()));
  }
}
