// The Claude Code transcript reader: a file in, generic events out (the writer's inverse). Two passes over
// the file, each read synchronously a chunk at a time: the first indexes the branch structure (a few fields
// per record), the second maps the records on the chosen branch. Subagent transcripts beside the session are readers of their own.
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { resolveTimestamp, type ContextEvent, type GenericEvent } from '../../events.js';
import { BranchIndex, branchFilter, type TranscriptTree } from './branch.js';
import { RecordMapper } from './map-record.js';
import { classifyRecordType, isObject } from './record-types.js';
import type { FileLine } from './file-lines.js';
import { readRecordHead } from './record-head.js';
import { TranscriptScan, type ScanSummary } from './scan.js';
import { readSpillFile, spillResolver } from './spill.js';
import { UsageCounter, type UsageTotals } from './usage.js';

/** A problem in the transcript, located when it has a line. Reading goes on. */
export interface ReaderWarning {
  file: string;
  line?: number;
  message: string;
}

export interface ReaderOptions {
  /** Also emit `context` events: system and attachment records, meta user records, synthetic messages. */
  includeEvents?: boolean;
  /** Read the branch ending at this record uuid instead of the one `claude --resume` continues. */
  branch?: string;
  /** Replace spilled-output pointers with the spilled file (default true). */
  resolveSpills?: boolean;
  /** Longest record accepted; longer lines are skipped with a warning (default 64 MiB). */
  maxRecordBytes?: number;
  /** Called for every warning as it happens (they are also kept in `warnings`). */
  onWarning?: (warning: ReaderWarning) => void;
}

/** A failure that stops reading one transcript (its file cannot be read, `branch` is not in it). */
export class ReaderError extends Error {}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT': return 'no such file';
    case 'EACCES': return 'permission denied';
    case 'EISDIR': case 'ENOTFILE': return 'not a regular file';
    default: return (error as Error).message;
  }
}

/** What Claude Code's `agent-<id>.meta.json` says about a subagent (agentType, description, toolUseId, ...). */
export type SubagentMeta = Record<string, unknown>;

interface SubagentOf {
  agentId: string;
  meta: SubagentMeta;
  /** The parent session's project directory (where spills live). */
  projectDir: string;
}

/** Warnings kept in `warnings` (later ones are still reported through onWarning). */
const MAX_KEPT_WARNINGS = 1000;
/** A subagent's meta file is small; anything bigger is not one. */
const MAX_META_BYTES = 1024 * 1024;

/**
 * A reader of one Claude Code transcript. Nothing is read until it is iterated (the conversation as generic
 * events) or asked for `usage()`, `tree()` or `subagents()`; each of those reads the file again.
 */
export class ClaudeTranscriptReader implements AsyncIterable<GenericEvent> {
  /** Warnings so far (the first 1000). */
  readonly warnings: ReaderWarning[] = [];
  /** The file ends in a cut-off record: the session was being written, or the write was interrupted. */
  partial = false;
  /** The session uuid (the file's name). */
  readonly sessionId: string;
  private readonly reported = new Set<string>();
  private readonly unknownTypes = new Set<string>();

  /**
   * @param path the transcript file
   * @param options what to read and how
   * @param subagent set when this is a subagent's transcript (see `subagents()`)
   */
  constructor(readonly path: string, private readonly options: ReaderOptions = {}, private readonly subagent?: SubagentOf) {
    this.sessionId = basename(path, '.jsonl');
  }

  /** The subagent's id when this reader reads a subagent transcript. */
  get agentId(): string | undefined {
    return this.subagent?.agentId;
  }

  /** The subagent's meta file contents when this reader reads a subagent transcript. */
  get agentMeta(): SubagentMeta | undefined {
    return this.subagent?.meta;
  }

  [Symbol.asyncIterator](): AsyncIterator<GenericEvent> {
    return this.events();
  }

  private warn = (line: number | undefined, message: string): void => {
    const key = `${line ?? ''}\u0000${message}`;
    if (this.reported.has(key)) return; // the second pass meets the first pass's problems again
    if (this.reported.size < 100_000) this.reported.add(key);
    const warning: ReaderWarning = { file: this.path, message, ...(line !== undefined ? { line } : {}) };
    if (this.warnings.length < MAX_KEPT_WARNINGS) this.warnings.push(warning);
    this.options.onWarning?.(warning);
  };

  /** A pass over the file (the first `bytes` bytes); a ReaderError when it cannot be opened. */
  private open(bytes?: number): TranscriptScan {
    try {
      return TranscriptScan.open(this.path, {
        warn: this.warn,
        ...(this.options.maxRecordBytes !== undefined ? { maxRecordBytes: this.options.maxRecordBytes } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
      });
    } catch (error) {
      throw new ReaderError(`${this.path}: cannot be read: ${describeError(error)}`);
    }
  }

  /** One chunk of a pass (see TranscriptScan.readChunk); a read error becomes a ReaderError. */
  private readChunk(scan: TranscriptScan, onLine: (line: FileLine) => void): boolean {
    let more: boolean;
    try {
      more = scan.readChunk(onLine);
    } catch (error) {
      scan.close();
      // Only the file system's errors mean the file cannot be read; anything else is a fault of ours.
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      throw new ReaderError(`${this.path}: cannot be read: ${describeError(error)}`);
    }
    if (!more && scan.summary.partial) this.partial = true;
    return more;
  }

  /** Whether a record goes on to the passes: one with a type. Unknown types are reported once each. */
  private accept(record: { type?: unknown }, line: number): boolean {
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

  /** Every record of the file, in order, to `onRecord` (one synchronous pass). */
  private forEachRecord(onRecord: (record: Record<string, unknown>, line: number) => void): ScanSummary {
    const scan = this.open();
    const onLine = (line: FileLine) => {
      for (const record of scan.records(line)) if (this.accept(record, line.no)) onRecord(record, line.no);
    };
    while (this.readChunk(scan, onLine));
    return scan.summary;
  }

  /**
   * First pass: the branch index, and how many bytes it covered. Without previews a record's few fields are
   * read from its bytes (readRecordHead); a line that scan is not sure of is parsed.
   */
  private index(previews: boolean): { index: BranchIndex; bytes: number; first: string | undefined } {
    const index = new BranchIndex({ previews });
    let first: string | undefined;
    const scan = this.open();
    const onLine = (line: FileLine) => {
      const head = previews || line.overLong || line.invalidUtf8 ? undefined : readRecordHead(line.buf, line.start, line.end);
      if (head !== undefined) {
        if (!this.accept(head, line.no)) return;
        index.addHead(head, line.no, this.warn);
        if (first === undefined && typeof head.timestamp === 'string') first = validTimestamp(head.timestamp);
        return;
      }
      for (const record of scan.records(line)) {
        if (!this.accept(record, line.no)) continue;
        index.add(record, line.no, this.warn);
        if (first === undefined && typeof record.timestamp === 'string') first = validTimestamp(record.timestamp);
      }
    };
    while (this.readChunk(scan, onLine));
    return { index, bytes: scan.summary.bytes, first };
  }

  /**
   * The conversation on the chosen branch as generic events, streamed. A subagent's events carry its
   * `agent_id` and start with a `context` event of kind "subagent" naming it.
   */
  async *events(): AsyncGenerator<GenericEvent> {
    for (const batch of this.eventBatches()) yield* batch;
  }

  /**
   * The same events as `events()`, a batch per chunk of the file read (about a megabyte): the file is read
   * synchronously between batches, so a consumer that writes each batch at once pays per chunk, not per event.
   */
  *eventBatches(): Generator<GenericEvent[]> {
    const { index, bytes, first } = this.index(false);
    const branch = this.options.branch;
    if (branch !== undefined && !index.has(branch)) throw new ReaderError(`${this.path}: no record with uuid ${JSON.stringify(branch)} (--branch)`);
    const selection = index.select(branch, this.warn);
    if (this.subagent) yield [this.header(first)];
    if (selection.leaf === undefined) return;
    const mapper = new RecordMapper({
      ...(this.options.includeEvents ? { includeEvents: true } : {}),
      ...(this.subagent ? { agentId: this.subagent.agentId } : {}),
      ...(this.options.resolveSpills === false ? {} : {
        resolveSpill: spillResolver(this.subagent?.projectDir ?? dirname(this.path)),
      }),
      ...(first !== undefined ? { now: first } : {}),
    });
    const onBranch = branchFilter(index, selection);
    const scan = this.open(bytes);
    let batch: GenericEvent[] = [];
    const onLine = (line: FileLine) => {
      for (const record of scan.records(line)) {
        if (!this.accept(record, line.no) || !onBranch(record, line.no)) continue;
        for (const event of mapper.map(record, (message) => this.warn(line.no, message))) batch.push(event);
      }
    };
    try {
      while (this.readChunk(scan, onLine)) {
        if (batch.length === 0) continue;
        yield batch;
        batch = [];
      }
    } finally {
      scan.close();
    }
    for (const event of mapper.end()) batch.push(event);
    if (batch.length > 0) yield batch;
  }

  private header(first: string | undefined): ContextEvent {
    const { meta, agentId } = this.subagent!;
    return {
      type: 'context',
      kind: 'subagent',
      ...(typeof meta.agentType === 'string' ? { subtype: meta.agentType } : {}),
      ...(typeof meta.description === 'string' ? { text: meta.description } : {}),
      data: meta,
      timestamp: first ?? new Date().toISOString(),
      agent_id: agentId,
    };
  }

  /** Session token totals over every assistant record in the file (all branches: they were all billed). */
  async usage(): Promise<UsageTotals> {
    const counter = new UsageCounter();
    this.forEachRecord((record) => counter.add(record));
    return counter.totals();
  }

  /** The branch structure: one entry per branch, the resumed one marked. */
  async tree(): Promise<TranscriptTree> {
    const { index } = this.index(true);
    return index.tree(this.warn);
  }

  /**
   * The transcripts of the agents this session spawned (`<session>/subagents/agent-<id>.jsonl`), as readers
   * of their own, in file-name order: a subagent's turns are not the parent's turns.
   */
  async subagents(): Promise<ClaudeTranscriptReader[]> {
    const dir = join(dirname(this.path), this.sessionId, 'subagents');
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const readers: ClaudeTranscriptReader[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const match = /^agent-(.+)\.jsonl$/.exec(entry.name);
      if (!match || !entry.isFile()) continue;
      const agentId = match[1]!;
      const metaPath = join(dir, `agent-${agentId}.meta.json`);
      let meta: SubagentMeta = {};
      const read = readSpillFile(metaPath, MAX_META_BYTES);
      if (read.ok) {
        try {
          const parsed: unknown = JSON.parse(read.text);
          if (isObject(parsed)) meta = parsed;
        } catch {
          this.warn(undefined, `${metaPath} is not JSON; the subagent is read without it`);
        }
      }
      const { branch: _branch, ...options } = this.options;
      readers.push(new ClaudeTranscriptReader(join(dir, entry.name), options, {
        agentId, meta, projectDir: this.subagent?.projectDir ?? dirname(this.path),
      }));
    }
    return readers;
  }
}

/** Read the Claude Code transcript at `path` (nothing is read until a method is called). */
export function readClaudeTranscript(path: string, options: ReaderOptions = {}): ClaudeTranscriptReader {
  return new ClaudeTranscriptReader(path, options);
}

function validTimestamp(value: string): string | undefined {
  try {
    return resolveTimestamp(value, '');
  } catch {
    return undefined;
  }
}
