// The Claude Code transcript reader: a file in, generic events out (the writer's inverse). Two passes over
// the file, each read synchronously a chunk at a time: the first indexes the branch structure (first-pass.ts),
// the second maps the records on the chosen branch (second-pass.ts), to an iterator or to NDJSON bytes; a big
// file's chunks go to worker threads (worker-pool.ts). Subagent transcripts beside the session are readers of
// their own.
import { existsSync, promises as fsp, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ContextEvent, GenericEvent } from '../../../events.js';
import { lstatBelow, readBelow } from '../../../util/no-follow.js';
import { defaultThreads } from '../../../util/thread-pool.js';
import { ReaderError, type ReaderWarning, type TranscriptReading, type UsageEntry } from '../../../session/types.js';
import { branchFilter, type TranscriptTree } from './branch.js';
import { firstPass } from './first-pass.js';
import { TranscriptEventMapper } from './map-record.js';
import { isObject } from './record-types.js';
import { eventText, secondPass, type EventOutput, type SecondPassPlan } from './second-pass.js';
import { spillResolver } from './spill.js';
import { TranscriptFile } from './transcript-file.js';
import { UsageCounter, type UsageTotals } from './usage.js';
import { workerPool, type WorkerPool } from './worker-pool.js';

export { ReaderError, type ReaderWarning };

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
  /**
   * Map only the records that can be user turns (of kind "user": not tool results only, as the first pass
   * knows) in a file without damage: every user event is given, most others are not (a turn count).
   */
  userRecordsOnly?: boolean;
  /** The name warnings and errors give the transcript (default: its path; `stdin` for a copy of stdin). */
  name?: string;
  /**
   * Called between the two passes, once the first pass's index is let go. The command passes V8's full
   * collection (node's `--expose-gc`): the index's memory is then given back before the second pass takes
   * its own, not some time into it.
   */
  collect?: () => void;
}

/** What Claude Code's `agent-<id>.meta.json` says about a subagent (agentType, description, toolUseId, ...). */
export type SubagentMeta = Record<string, unknown>;

interface SubagentOf {
  agentId: string;
  meta: SubagentMeta;
  /** The parent session's project directory (where spills live). */
  projectDir: string;
  /** The file lstat saw when the subagent was listed: it is opened without following a link and must be it. */
  identity: { dev: number; ino: number };
}

/** A subagent's meta file is small; anything bigger is not one. */
const MAX_META_BYTES = 1024 * 1024;

/** Transcripts smaller than this are read on one thread: starting workers would cost more than they save. */
const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;

/** A transcript holding a record longer than this has its second pass read on one thread (see `read`). */
const SOLO_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * A reader of one Claude Code transcript. Nothing is read until it is iterated (the conversation as generic
 * events) or asked for `usage()`, `tree()` or `subagents()`; each of those reads the file again.
 */
export class ClaudeTranscriptReader implements AsyncIterable<GenericEvent>, TranscriptReading {
  /** The session uuid (the file's name). */
  readonly sessionId: string;
  /** How `ndjson()` used worker threads so far: chunks they mapped, and chunks mapped again on this thread. */
  readonly threading = { chunks: 0, remapped: 0 };
  private readonly file: TranscriptFile;

  /**
   * @param path the transcript file
   * @param options what to read and how
   * @param subagent set when this is a subagent's transcript (see `subagents()`)
   */
  constructor(readonly path: string, private readonly options: ReaderOptions = {}, private readonly subagent?: SubagentOf) {
    this.sessionId = basename(path, '.jsonl');
    this.file = new TranscriptFile(path, {
      name: options.name ?? path,
      ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
      ...(options.chunkBytes !== undefined ? { chunkBytes: options.chunkBytes } : {}),
      ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
      ...(subagent !== undefined ? { identity: subagent.identity } : {}),
    });
  }

  /** Warnings so far (the first 1000). */
  get warnings(): ReaderWarning[] {
    return this.file.warnings;
  }

  /** The file ends in a cut-off record: the session was being written, or the write was interrupted. */
  get partial(): boolean {
    return this.file.partial;
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
  eventBatches(): AsyncGenerator<GenericEvent[]> {
    return this.read({ events: (events) => (events.length > 0 ? events : undefined) });
  }

  /**
   * The same events as `events()`, as NDJSON text (one line per event) a chunk of the file at a time. A big
   * transcript's second pass runs on worker threads (see worker-pool.ts); the bytes are the same either
   * way. An event JSON.stringify cannot write goes to `onUnwritable` and is left out.
   */
  async *ndjson(onUnwritable: (event: GenericEvent, error: Error) => void): AsyncGenerator<string | Buffer> {
    // Started before the first pass, so the threads are up (and it scans on them) by the time they are needed.
    const pool = this.workerPool();
    try {
      const parts = this.read<Buffer[]>({
        events: (events) => {
          const text = eventText(events, onUnwritable);
          return text.length > 0 ? text : undefined;
        },
        bytes: (text) => [text],
      }, pool);
      for await (const part of parts) yield* part;
    } finally {
      pool?.close();
    }
  }

  /** Both passes, the second's events to `out` (a subagent's header first). */
  private async *read<T>(out: EventOutput<T>, pool?: WorkerPool): AsyncGenerator<T> {
    const { header, plan, longest } = await this.plan(pool);
    // A record this big is mapped on this thread, and the workers' heaps would stand beside it: the second
    // pass goes without them.
    if (pool !== undefined && longest > SOLO_RECORD_BYTES) {
      pool.close();
      pool = undefined;
    }
    if (plan !== undefined) this.options.collect?.();
    const first = header !== undefined ? out.events([header]) : undefined;
    if (first !== undefined) yield first;
    if (plan === undefined) return;
    yield* secondPass(this.file, plan, out, pool !== undefined ? { pool, threading: this.threading } : undefined);
  }

  /**
   * The first pass, and what the second needs of it: the subagent header and, when there is a branch to read,
   * the mapper and the branch: by line in a file without damage (the index is let go before the second pass
   * starts), otherwise by record (the branch filter keeps the index).
   */
  private async plan(pool: WorkerPool | undefined): Promise<{ header: ContextEvent | undefined; plan?: SecondPassPlan; longest: number }> {
    const pass = await firstPass(this.file, false, pool);
    const { index, first, longest } = pass;
    const branch = this.options.branch;
    if (branch !== undefined && !index.has(branch)) throw new ReaderError(`${this.file.name}: no record with uuid ${JSON.stringify(branch)} (--branch)`);
    const selection = index.select(branch, this.file.warn);
    const header = this.subagent ? this.header(first) : undefined;
    if (selection.leaf === undefined) return { header, longest };
    const spillDir = this.spillDir();
    const mapper = new TranscriptEventMapper({
      ...(this.options.includeEvents ? { includeEvents: true } : {}),
      ...(this.subagent ? { agentId: this.subagent.agentId } : {}),
      ...(spillDir !== undefined ? { resolveSpill: spillResolver(spillDir) } : {}),
      ...(first !== undefined ? { now: first } : {}),
    });
    if (!pass.regular) {
      return { header, longest, plan: { mapper, bytes: pass.bytes, onBranch: branchFilter(index, selection) } };
    }
    const only = this.options.userRecordsOnly ? 'user' : undefined;
    return { header, longest, plan: { mapper, bytes: pass.bytes, selected: index.selectedLines(selection, pass.lines, only) } };
  }

  /** Worker threads for `ndjson()`, when it is asked for, the file is big enough and the worker module is there. */
  private workerPool(): WorkerPool | undefined {
    const threads = this.options.threads ?? defaultThreads();
    let size = 0;
    try {
      size = statSync(this.path).size;
    } catch {
      // Reported by the first pass, which opens the file.
    }
    const workerUrl = this.options.workerUrl ?? new URL('./read-worker.js', import.meta.url);
    // The module is missing when this file runs from its TypeScript source (a test): then it is all done here.
    if (threads <= 0 || size < (this.options.parallelMinBytes ?? PARALLEL_MIN_BYTES) || !existsSync(workerUrl)) return undefined;
    const spillDir = this.spillDir();
    return workerPool(workerUrl, threads, {
      includeEvents: this.options.includeEvents === true,
      ...(this.subagent ? { agentId: this.subagent.agentId } : {}),
      ...(spillDir !== undefined ? { spillDir } : {}),
    }, (message) => this.file.warn(undefined, `${message}; the rest is read on one thread`));
  }

  /** Where spilled output is looked for, or undefined when pointers are kept. */
  private spillDir(): string | undefined {
    return this.options.resolveSpills === false ? undefined : this.subagent?.projectDir ?? dirname(this.path);
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
    this.file.forEachAssistantRecord((record, line) => counter.add(record, (message) => this.file.warn(line, message)));
    return counter.totals();
  }

  /**
   * Each response of the file and of its subagents' files (they were billed too), counted once as `usage()`
   * counts it, with the time and model of the record counted: what `read --usage --by` groups.
   */
  async usageEntries(): Promise<UsageEntry[]> {
    const entries: UsageEntry[] = [];
    for (const reader of [this as ClaudeTranscriptReader, ...(this.subagent === undefined ? await this.subagents() : [])]) {
      const counter = new UsageCounter(true);
      reader.file.forEachAssistantRecord((record, line) => counter.add(record, (message) => reader.file.warn(line, message)));
      entries.push(...counter.entries());
    }
    return entries;
  }

  /** The branch structure: one entry per branch, the resumed one marked. */
  async tree(): Promise<TranscriptTree> {
    const { index } = await firstPass(this.file, true);
    return index.tree(this.file.warn);
  }

  /**
   * The transcripts of the agents this session spawned (`<session>/subagents/agent-<id>.jsonl`), as readers
   * of their own, in file-name order: a subagent's turns are not the parent's turns.
   */
  async subagents(): Promise<ClaudeTranscriptReader[]> {
    // `<session>` and `subagents` come with the transcript (a shared tarball): neither is followed as a link.
    const base = dirname(this.path);
    const found = lstatBelow(base, [this.sessionId, 'subagents'], 'directory');
    if (!found.ok) {
      if (found.link !== undefined) this.file.warn(undefined, `subagents are not read: ${found.reason}`);
      return [];
    }
    const dir = found.path;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const readers: ClaudeTranscriptReader[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const match = /^agent-(.+)\.jsonl$/.exec(entry.name);
      if (!match) continue;
      const file = lstatBelow(dir, [entry.name], 'file');
      if (!file.ok) {
        if (file.link !== undefined) this.file.warn(undefined, `a subagent is not read: ${file.reason}`);
        continue;
      }
      const agentId = match[1]!;
      const metaPath = join(dir, `agent-${agentId}.meta.json`);
      let meta: SubagentMeta = {};
      const read = readBelow(dir, [`agent-${agentId}.meta.json`], MAX_META_BYTES);
      if (read.ok) {
        try {
          const parsed: unknown = JSON.parse(read.text);
          if (isObject(parsed)) meta = parsed;
        } catch {
          this.file.warn(undefined, `${metaPath} is not JSON; the subagent is read without it`);
        }
      } else if (read.link !== undefined) {
        this.file.warn(undefined, `${metaPath} is not read: ${read.reason}; the subagent is read without it`);
      }
      const { branch: _branch, name: _name, ...options } = this.options;
      readers.push(new ClaudeTranscriptReader(file.path, options, {
        agentId, meta, projectDir: this.subagent?.projectDir ?? base, identity: { dev: file.stat.dev, ino: file.stat.ino },
      }));
    }
    return readers;
  }
}

/** Read the Claude Code transcript at `path` (nothing is read until a method is called). */
export function readClaudeTranscript(path: string, options: ReaderOptions = {}): ClaudeTranscriptReader {
  return new ClaudeTranscriptReader(path, options);
}

