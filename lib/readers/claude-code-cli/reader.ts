// The Claude Code transcript reader: a file in, generic events out (the writer's inverse). Two passes over
// the file, each read synchronously a chunk at a time: the first indexes the branch structure (a few fields
// per record), the second maps the records on the chosen branch; a big file's chunks go to worker threads
// (worker-pool.ts). Subagent transcripts beside the session are readers of their own.
import { existsSync, promises as fsp, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { resolveTimestamp, type ContextEvent, type GenericEvent } from '../../events.js';
import { BranchIndex, branchFilter, type BranchSelection, type TranscriptTree } from './branch.js';
import { ByteSink } from './byte-sink.js';
import { RecordMapper } from './map-record.js';
import { classifyRecordType, isObject } from './record-types.js';
import { CHUNK_BYTES, lineText, type FileLine } from './file-lines.js';
import { decodeRecordHead, HEAD_INTS, readRecordHead, type RecordHead } from './record-head.js';
import {
  LINE_INTS, LINE_INVALID_UTF8, LINE_LAST, LINE_OVER_LONG, WorkerPool, type ChunkResult, type ChunkTask, type HeadsResult,
  type MapResult,
} from './worker-pool.js';
import { TranscriptScan, type ScanSummary } from './scan.js';
import { readSpillFile, spillResolver } from './spill.js';
import { UsageCounter, type UsageTotals } from './usage.js';
import { AssistantLines, scanUsageRecord } from './usage-scan.js';
import { describeError } from '../../util/fs-errors.js';

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
  /**
   * Worker threads `ndjson()` maps a big transcript on (default: 2 when the machine has 2 cores or more,
   * else 0: all on this thread). The output is the same either way.
   */
  threads?: number;
  /** Transcripts smaller than this are read on this thread whatever `threads` says (default 16 MiB). */
  parallelMinBytes?: number;
  /** Where the worker module is (default: read-worker.js beside this file; tests point at the build). */
  workerUrl?: URL;
  /** Bytes read at a time (default 1 MiB); the work handed to a worker thread is one such chunk. */
  chunkBytes?: number;
  /** The name warnings and errors give the transcript (default: its path; `stdin` for a copy of stdin). */
  name?: string;
}

/** A failure that stops reading one transcript (its file cannot be read, `branch` is not in it). */
export class ReaderError extends Error {}

/** What Claude Code's `agent-<id>.meta.json` says about a subagent (agentType, description, toolUseId, ...). */
export type SubagentMeta = Record<string, unknown>;

interface SubagentOf {
  agentId: string;
  meta: SubagentMeta;
  /** The parent session's project directory (where spills live). */
  projectDir: string;
}

/** What the first pass learnt. */
interface FirstPass {
  index: BranchIndex;
  /** Bytes it read (the second pass reads exactly these). */
  bytes: number;
  /** The first record's time. */
  first: string | undefined;
  /** Every line held one record and nothing was wrong with any (the second pass may go by line numbers). */
  regular: boolean;
  /** The last line's number. */
  lines: number;
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
  /** How the last `ndjson()` used worker threads: chunks they mapped, and chunks mapped again on this thread. */
  readonly threading = { chunks: 0, remapped: 0 };
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

  /** What warnings and errors call the transcript. */
  private get name(): string {
    return this.options.name ?? this.path;
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
    const warning: ReaderWarning = { file: this.name, message, ...(line !== undefined ? { line } : {}) };
    if (this.warnings.length < MAX_KEPT_WARNINGS) this.warnings.push(warning);
    this.options.onWarning?.(warning);
  };

  /** A pass over the file (the first `bytes` bytes); a ReaderError when it cannot be opened. */
  private open(bytes?: number): TranscriptScan {
    try {
      return TranscriptScan.open(this.path, {
        warn: this.warn,
        ...(this.options.maxRecordBytes !== undefined ? { maxRecordBytes: this.options.maxRecordBytes } : {}),
        ...(this.options.chunkBytes !== undefined ? { chunkBytes: this.options.chunkBytes } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
      });
    } catch (error) {
      throw new ReaderError(`${this.name}: cannot be read: ${describeError(error)}`);
    }
  }

  /** One chunk of a pass (see TranscriptScan.readChunk); a read error becomes a ReaderError. */
  private readChunk(scan: TranscriptScan, onLine: (line: FileLine) => void, onChunkEnd?: () => void): boolean {
    let more: boolean;
    try {
      more = scan.readChunk(onLine, onChunkEnd);
    } catch (error) {
      scan.close();
      // Only the file system's errors mean the file cannot be read; anything else is a fault of ours.
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      throw new ReaderError(`${this.name}: cannot be read: ${describeError(error)}`);
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

  /**
   * First pass: the branch index, and how many bytes it covered. Without previews a record's few fields are
   * read from its bytes (scanRecordHead, on the pool's threads when there is a pool); a line that scan is not
   * sure of is parsed. Lines are settled in file order whoever scanned them.
   */
  private async index(previews: boolean, pool?: WorkerPool): Promise<FirstPass> {
    const index = new BranchIndex({ previews });
    let first: string | undefined;
    let regular = true;
    let lines = 0;
    const scan = this.open();
    const onHead = (head: RecordHead, no: number) => {
      if (!this.accept(head, no)) return;
      index.addHead(head, no, this.warn);
      if (first === undefined && typeof head.timestamp === 'string') first = validTimestamp(head.timestamp);
    };
    const onParsed = (line: FileLine) => {
      const warnings = scan.warnings;
      const records = scan.records(line);
      if (records.length !== 1 || scan.warnings !== warnings) regular = false;
      for (const record of records) {
        if (!this.accept(record, line.no)) continue;
        index.add(record, line.no, this.warn);
        if (first === undefined && typeof record.timestamp === 'string') first = validTimestamp(record.timestamp);
      }
    };
    const onLine = (line: FileLine) => {
      lines = line.no;
      const head = previews || line.overLong || line.invalidUtf8
        ? undefined : readRecordHead(line.buf, line.start, line.end, first === undefined);
      if (head !== undefined) onHead(head, line.no);
      else onParsed(line);
    };
    if (pool === undefined || previews) {
      while (this.readChunk(scan, onLine));
    } else {
      for await (const result of this.pipeline(scan, pool, 'heads', () => true)) {
        const { task, heads } = result as HeadsResult;
        forEachTaskLine(task, (line, i) => {
          // A chunk no worker scanned (heads empty: the worker could not, or failed) is scanned here.
          if (heads.length > 0 && heads[i * HEAD_INTS]! >= 0) {
            lines = line.no;
            onHead(decodeRecordHead(line.buf, heads, i * HEAD_INTS, first === undefined), line.no);
          } else {
            onLine(line);
          }
        });
      }
    }
    return { index, bytes: scan.summary.bytes, first, regular, lines };
  }

  /**
   * Read the file a chunk at a time, hand each chunk's wanted lines to the pool, and yield the results in
   * file order (one chunk per worker in flight and one more, so memory stays flat whatever the consumer does).
   */
  private async *pipeline(
    scan: TranscriptScan, pool: WorkerPool, kind: 'heads' | 'map', wanted: (line: FileLine) => boolean,
  ): AsyncGenerator<ChunkResult> {
    const chunk = new ChunkBuilder();
    const inFlight: Promise<ChunkResult>[] = [];
    let task: { bytes: Uint8Array; lines: Int32Array } | undefined;
    const onLine = (line: FileLine) => {
      if (wanted(line)) chunk.add(line);
    };
    let local = false;
    const onChunkEnd = () => {
      // A record too big for a worker's small heap is mapped on this thread, in order, with its chunk.
      local = kind === 'map' && chunk.longest > WORKER_MAX_LINE_BYTES;
      task = chunk.take();
    };
    let more = true;
    while (more) {
      more = this.readChunk(scan, onLine, onChunkEnd);
      if (task !== undefined) {
        if (local) inFlight.push(Promise.resolve({ kind: 'map', seq: -1, task: { kind: 'map', seq: -1, ...task }, ok: false }));
        else inFlight.push(kind === 'heads' ? pool.run('heads', task.bytes, task.lines) : pool.run('map', task.bytes, task.lines));
        task = undefined;
      }
      while (inFlight.length > (more ? pool.size + 1 : 0)) {
        const result = await inFlight.shift()!;
        yield result;
        // Settled: its bytes hold the next chunk (not a fresh megabyte each time, left for the collector). Not
        // once a worker failed: a worker being stopped may still be reading the chunk it held.
        if (!pool.broken) chunk.recycle(result.task.bytes);
      }
    }
  }

  /**
   * The conversation on the chosen branch as generic events, streamed. A subagent's events carry its
   * `agent_id` and start with a `context` event of kind "subagent" naming it.
   */
  async *events(): AsyncGenerator<GenericEvent> {
    for await (const batch of this.eventBatches()) yield* batch;
  }

  /**
   * The same events as `events()`, a batch per chunk of the file read (about a megabyte): the file is read
   * synchronously between batches, so a consumer that writes each batch at once pays per chunk, not per event.
   */
  async *eventBatches(): AsyncGenerator<GenericEvent[]> {
    const start = await this.startPassTwo();
    if (start.header) yield [start.header];
    if (start.mapper === undefined) return;
    const { mapper, onBranch } = start;
    const scan = this.open(start.pass.bytes);
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

  /** The first pass, then what the second needs: the subagent header, the mapper and the branch filter. */
  private async startPassTwo(pool?: WorkerPool): Promise<{
    pass: FirstPass; header: ContextEvent | undefined; mapper: RecordMapper | undefined;
    onBranch: (record: Record<string, unknown>, line: number) => boolean; selection: BranchSelection;
  }> {
    const pass = await this.index(false, pool);
    const { index, first } = pass;
    const branch = this.options.branch;
    if (branch !== undefined && !index.has(branch)) throw new ReaderError(`${this.name}: no record with uuid ${JSON.stringify(branch)} (--branch)`);
    const selection = index.select(branch, this.warn);
    const header = this.subagent ? this.header(first) : undefined;
    const onBranch = branchFilter(index, selection);
    if (selection.leaf === undefined) return { pass, header, mapper: undefined, onBranch, selection };
    const mapper = new RecordMapper({
      ...(this.options.includeEvents ? { includeEvents: true } : {}),
      ...(this.subagent ? { agentId: this.subagent.agentId } : {}),
      ...(this.spillDir() !== undefined ? { resolveSpill: spillResolver(this.spillDir()!) } : {}),
      ...(first !== undefined ? { now: first } : {}),
    });
    return { pass, header, mapper, onBranch, selection };
  }

  /** Where spilled output is looked for, or undefined when pointers are kept. */
  private spillDir(): string | undefined {
    return this.options.resolveSpills === false ? undefined : this.subagent?.projectDir ?? dirname(this.path);
  }

  /**
   * The same events as `events()`, as NDJSON text (one line per event) a chunk of the file at a time. A big
   * transcript's second pass runs on worker threads (see worker-pool.ts); the bytes are the same either
   * way. An event JSON.stringify cannot write goes to `onUnwritable` and is left out.
   */
  async *ndjson(onUnwritable: (event: GenericEvent, error: Error) => void): AsyncGenerator<string | Buffer> {
    const threads = this.options.threads ?? defaultThreads();
    let size = 0;
    try {
      size = statSync(this.path).size;
    } catch {
      // Reported by the first pass, which opens the file.
    }
    // Started before the first pass, so the threads are up (and it scans on them) by the time they are needed.
    const spillDir = this.spillDir();
    const workerUrl = this.options.workerUrl ?? new URL('./read-worker.js', import.meta.url);
    // The module is missing when this file runs from its TypeScript source (a test): then it is all done here.
    const pool = threads > 0 && size >= (this.options.parallelMinBytes ?? PARALLEL_MIN_BYTES) && existsSync(workerUrl)
      ? new WorkerPool(workerUrl, threads, {
        includeEvents: this.options.includeEvents === true,
        ...(this.subagent ? { agentId: this.subagent.agentId } : {}),
        ...(spillDir !== undefined ? { spillDir } : {}),
      }, (message) => this.warn(undefined, `${message}; the rest is read on one thread`))
      : undefined;
    try {
      const second = await this.prepareSecondPass(pool);
      if (second.header) yield eventText([second.header], onUnwritable);
      const { mapper, selected, bytes } = second;
      if (mapper === undefined) return;
      if (pool === undefined || selected === undefined) {
        yield* this.ndjsonHere(selected, second.onBranch, mapper, bytes, onUnwritable);
        return;
      }
      const scan = this.open(bytes);
      try {
        for await (const result of this.pipeline(scan, pool, 'map', (line) => selected[line.no] === 1)) {
          yield this.settle(result as MapResult, mapper, onUnwritable);
        }
      } finally {
        scan.close();
      }
      const end = mapper.end();
      if (end.length > 0) yield eventText(end, onUnwritable);
    } finally {
      pool?.close();
    }
  }

  /**
   * The first pass, and what the second needs of it: in a file without damage the branch is known by line
   * (`selected`: lines off it are not even parsed), and the index is let go before the second pass starts;
   * otherwise the branch filter, which keeps the index.
   */
  private async prepareSecondPass(pool: WorkerPool | undefined): Promise<{
    header: ContextEvent | undefined; mapper: RecordMapper | undefined; bytes: number; selected?: Uint8Array;
    onBranch?: (record: Record<string, unknown>, line: number) => boolean;
  }> {
    const start = await this.startPassTwo(pool);
    const { header, mapper, pass } = start;
    if (!pass.regular) return { header, mapper, bytes: pass.bytes, onBranch: start.onBranch };
    return { header, mapper, bytes: pass.bytes, selected: pass.index.selectedLines(start.selection, pass.lines) };
  }

  /**
   * The second pass on this thread, as NDJSON text. The branch is known by line (`selected`, for a file
   * every line of which held one record) or by record (`onBranch`).
   */
  private *ndjsonHere(
    selected: Uint8Array | undefined, onBranch: ((record: Record<string, unknown>, line: number) => boolean) | undefined,
    mapper: RecordMapper, bytes: number, onUnwritable: (event: GenericEvent, error: Error) => void,
  ): Generator<Buffer> {
    const scan = this.open(bytes);
    let batch: GenericEvent[] = [];
    const onLine = (line: FileLine) => {
      if (selected !== undefined && selected[line.no] !== 1) return;
      for (const record of scan.records(line)) {
        if (onBranch !== undefined && (!this.accept(record, line.no) || !onBranch(record, line.no))) continue;
        for (const event of mapper.map(record, (message) => this.warn(line.no, message))) batch.push(event);
      }
    };
    try {
      while (this.readChunk(scan, onLine)) {
        if (batch.length === 0) continue;
        const text = eventText(batch, onUnwritable);
        batch = [];
        if (text.length > 0) yield text;
      }
    } finally {
      scan.close();
    }
    for (const event of mapper.end()) batch.push(event);
    const text = eventText(batch, onUnwritable);
    if (text.length > 0) yield text;
  }

  /**
   * A worker's chunk made final, in file order: its warnings given, its holes filled with the model and
   * usage their response has not given yet, the mapper's state carried on. A chunk the worker could not map
   * as this thread would have (it starts inside a compaction, a record in it without a usable time took the
   * time from before it, a value was too deep for the worker, the worker failed) is mapped here instead.
   */
  private settle(result: MapResult, mapper: RecordMapper, onUnwritable: (event: GenericEvent, error: Error) => void): string | Buffer {
    this.threading.chunks += 1;
    if (!result.ok || mapper.boundaryPending || result.leaned) {
      this.threading.remapped += 1;
      const { task } = result;
      const events: GenericEvent[] = [];
      forEachTaskLine(task, (line) => {
        const record = JSON.parse(lineText(line)) as Record<string, unknown>;
        for (const event of mapper.map(record, (message) => this.warn(line.no, message))) events.push(event);
      });
      return eventText(events, onUnwritable);
    }
    for (const { line, message, key } of result.logs) {
      if (key !== undefined) mapper.warnOnce(key, message, (text) => this.warn(line, text));
      else this.warn(line, message);
    }
    const { bytes, holes, ids, fills, fillLengths } = result;
    let extra = 0;
    let at = 0;
    const given: string[] = [];
    for (let i = 0; i < ids.length; i += 1) {
      const modelLength = fillLengths[2 * i]!;
      const usageLength = fillLengths[2 * i + 1]!;
      const model = modelLength >= 0 ? fills.slice(at, (at += modelLength)) : '';
      const usage = usageLength >= 0 ? fills.slice(at, (at += usageLength)) : '';
      const give = mapper.resolveResponse(ids[i]!, modelLength >= 0, usage);
      const fill = (give.model ? model : '') + give.usage;
      given.push(fill);
      extra += Buffer.byteLength(fill);
    }
    mapper.adopt(result.carry);
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (extra === 0) return source;
    const out = Buffer.allocUnsafe(source.length + extra);
    let written = 0;
    let from = 0;
    for (let i = 0; i < holes.length; i += 1) {
      const hole = holes[i]!;
      written += source.copy(out, written, from, hole);
      written += out.write(given[i]!, written);
      from = hole;
    }
    written += source.copy(out, written, from);
    return out.subarray(0, written);
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
    const scan = this.open();
    // Only lines that may hold an assistant record are looked at (usage-scan.ts): damage elsewhere is not
    // reported here. Those are read from their bytes, or parsed and checked as every pass does.
    const assistant = new AssistantLines();
    const onLine = (line: FileLine) => {
      if (!line.overLong && !line.invalidUtf8) {
        if (!assistant.mayHold(line.buf, line.start, line.end)) return;
        const light = scanUsageRecord(line.buf, line.start, line.end);
        if (light !== undefined) {
          if (this.accept(light, line.no)) counter.add(light);
          return;
        }
      }
      for (const record of scan.records(line)) if (this.accept(record, line.no)) counter.add(record);
    };
    while (this.readChunk(scan, onLine, () => assistant.reset()));
    return counter.totals();
  }

  /** The branch structure: one entry per branch, the resumed one marked. */
  async tree(): Promise<TranscriptTree> {
    const { index } = await this.index(true);
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
      const { branch: _branch, name: _name, ...options } = this.options;
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

/** Records longer than this are mapped on the main thread (a worker's heap is kept small: see WorkerPool). */
const WORKER_MAX_LINE_BYTES = 1024 * 1024;

/** Transcripts smaller than this are read on one thread: starting workers would cost more than they save. */
const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;

/** Worker threads for the second pass: two when there are two cores to run them on. */
export function defaultThreads(): number {
  return availableParallelism() >= 2 ? 2 : 0;
}

/** Events as NDJSON lines; one JSON.stringify cannot write (nested too deeply) goes to `onUnwritable`. */
function eventText(events: readonly GenericEvent[], onUnwritable: (event: GenericEvent, error: Error) => void): Buffer {
  const sink = new ByteSink();
  for (const event of events) {
    let json: string;
    try {
      json = JSON.stringify(event);
    } catch (error) {
      onUnwritable(event, error as Error);
      continue;
    }
    sink.put(json);
    sink.put('\n');
  }
  return sink.bytes();
}

/**
 * The wanted lines of one chunk, copied in one piece when the chunk is done into shared memory: a worker
 * reads them there, and this thread still has them if it must handle the chunk itself.
 */
class ChunkBuilder {
  /** The longest line added since the last take. */
  longest = 0;
  /** Buffers of settled chunks, for the next ones. */
  private free: SharedArrayBuffer[] = [];
  private lines: number[] = [];
  private source: Buffer | undefined;
  private from = 0;
  private to = 0;

  add(line: FileLine): void {
    const flags = (line.overLong ? LINE_OVER_LONG : 0) | (line.invalidUtf8 ? LINE_INVALID_UTF8 : 0) | (line.last ? LINE_LAST : 0);
    if (line.overLong) {
      this.lines.push(line.no, -1, line.bytes, flags);
      return;
    }
    if (this.source === undefined) {
      this.source = line.buf;
      this.from = line.start;
    }
    this.lines.push(line.no, line.start, line.end, flags);
    this.to = line.end;
    if (line.end - line.start > this.longest) this.longest = line.end - line.start;
  }

  /** The chunk's bytes and line table (undefined when no line was wanted); the builder starts over. */
  take(): { bytes: Uint8Array; lines: Int32Array } | undefined {
    if (this.lines.length === 0) return undefined;
    const size = this.to - this.from;
    const reused = this.free.pop();
    let bytes: Uint8Array;
    if (reused !== undefined && reused.byteLength >= size) {
      bytes = new Uint8Array(reused, 0, size);
    } else {
      if (reused !== undefined) this.free.push(reused);
      bytes = new Uint8Array(new SharedArrayBuffer(Math.max(size, CHUNK_BYTES)), 0, size);
    }
    if (this.source !== undefined) bytes.set(this.source.subarray(this.from, this.to));
    const lines = Int32Array.from(this.lines);
    for (let i = 0; i < lines.length; i += LINE_INTS) {
      if (lines[i + 1]! < 0) continue;
      lines[i + 1] = lines[i + 1]! - this.from;
      lines[i + 2] = lines[i + 2]! - this.from;
    }
    this.lines = [];
    this.source = undefined;
    this.from = 0;
    this.to = 0;
    this.longest = 0;
    return { bytes, lines };
  }

  /** Take back the buffer of a chunk that is done with. */
  recycle(bytes: Uint8Array): void {
    if (bytes.buffer.byteLength >= CHUNK_BYTES && this.free.length < 8) this.free.push(bytes.buffer as SharedArrayBuffer);
  }
}

const EMPTY = Buffer.alloc(0);

/** The lines of a task that came back from a worker, as the scan made them (one object, reused). */
function forEachTaskLine(task: ChunkTask, onLine: (line: FileLine, index: number) => void): void {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const { lines } = task;
  const line: FileLine = { no: 0, buf: bytes, start: 0, end: 0, bytes: 0, overLong: false, invalidUtf8: false, last: false };
  for (let i = 0; i * LINE_INTS < lines.length; i += 1) {
    const at = i * LINE_INTS;
    const flags = lines[at + 3]!;
    line.no = lines[at]!;
    line.overLong = (flags & LINE_OVER_LONG) !== 0;
    line.invalidUtf8 = (flags & LINE_INVALID_UTF8) !== 0;
    line.last = (flags & LINE_LAST) !== 0;
    if (line.overLong) {
      line.buf = EMPTY;
      line.start = 0;
      line.end = 0;
      line.bytes = lines[at + 2]!;
    } else {
      line.buf = bytes;
      line.start = lines[at + 1]!;
      line.end = lines[at + 2]!;
      line.bytes = line.end - line.start;
    }
    onLine(line, i);
  }
}

function validTimestamp(value: string): string | undefined {
  try {
    return resolveTimestamp(value, '');
  } catch {
    return undefined;
  }
}
