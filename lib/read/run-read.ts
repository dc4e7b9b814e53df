// `asyncai-log read`: transcripts (paths, session ids, `-` for stdin) in, NDJSON out: generic events by
// default, one usage object per transcript with `usage`, one line per branch with `tree`. A transcript is read
// by its agent's reader, reached through the registry (`Agent.transcripts`); what is another format the filter
// reads is printed through its input adapter (any-input.ts). Warnings go to stderr as
// `asyncai-log: <file>:<line>: <what>`; an input that cannot be read is reported and the rest go on.
import { createReadStream, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { agentOfInput, locateStore, TRANSCRIPT_READERS, type ReadableAgent, type StoreAgent } from '../agents/index.js';
import { findSessionsById, lookupProblem, mayBeSessionId, storeForId, storeSessionsById } from '../agents/find-sessions.js';
import {
  ReaderError, StoreError, type ReaderWarning, type StoreSession, type TranscriptReading, type TranscriptReadOptions, type UsageCounting,
} from '../session/types.js';
import type { InputFormat } from '../input/types.js';
import { findInputFormat } from '../agents/input-formats.js';
import { cannotBeRead, describeError } from '../util/fs-errors.js';
import { fidelityTargetProblem, writeFidelityFile } from '../session/fidelity.js';
import { UsageError } from '../session/options.js';
import { MAX_RECORD_BYTES } from '../util/record-limit.js';
import { keepStream, readAdapted, sniffFile, sniffStream } from './any-input.js';
import { openInputPath } from '../input/file-input.js';
import { orderedAccount, Output } from './output.js';
import { diagnosticLine } from '../util/shown-text.js';
import { groupsUsage, runUsageBy } from './usage-by.js';
import { inspectAdapted, inspectReading, shapeLine, type InspectedSession } from './inspect.js';
import type { ReadCommandOptions, ReadIO } from './read-options.js';
import { endsInNewline, readOne } from './read-one.js';

export type { ReadCommandOptions, ReadIO } from './read-options.js';

/** Run the read command. Resolves with the exit code: 0, or 1 when any transcript could not be read. */
export async function runRead(options: ReadCommandOptions, io: ReadIO): Promise<number> {
  if (options.fidelityJson !== undefined) {
    const problem = fidelityTargetProblem(options.fidelityJson);
    if (problem !== undefined) throw new UsageError(`--fidelity-json ${options.fidelityJson}: ${problem}`);
  }
  if (options.usage && groupsUsage(options)) {
    return runUsageBy(options, options.by ?? 'session', { stdout: io.stdout, stderr: io.stderr, table: options.table === true });
  }
  if (options.by !== undefined) throw new UsageError('--by needs --usage');
  const run = new ReadRun(options, io);
  let code = 0;
  try {
    for (const input of options.inputs) {
      if (run.out.closed) break;
      code = Math.max(code, await run.input(input));
    }
    await run.settle(0);
    code = Math.max(code, run.settledCode);
  } finally {
    run.close();
  }
  if (options.fidelityJson !== undefined) {
    try {
      writeFidelityFile(options.fidelityJson, { inputs: (run.out.accounts ?? []).map(orderedAccount) });
    } catch (error) {
      io.stderr.write(diagnosticLine(`--fidelity-json ${options.fidelityJson}: cannot be written: ${describeError(error)}`));
      code = 1;
    }
  }
  return code;
}

/** One `read` command: each input read in turn to one output; each method resolves with that input's exit code. */
class ReadRun {
  readonly out: Output;
  private readonly report: (message: string) => void;
  private readonly readOptions: TranscriptReadOptions;
  /**
   * `--usage` of several transcripts: counted on an agent's worker threads, whole files at a time, and printed
   * in input order (whatever is printed otherwise waits until what is queued before it is printed).
   */
  private readonly queued: Promise<() => Promise<number>>[] = [];
  private readonly pools = new Map<ReadableAgent, UsageCounting | undefined>();
  /** The worst exit code of the queued transcripts printed so far. */
  settledCode = 0;
  /** What the input being read was found as (`--inspect` says so): its session id, agent, whether a store's child session. */
  private found: Partial<Pick<InspectedSession, 'sessionId' | 'agent' | 'child'>> = {};

  constructor(private readonly options: ReadCommandOptions, private readonly io: ReadIO) {
    this.report = (message: string) => {
      const account = this.out.accounts?.at(-1);
      if (account !== undefined) account.warnings += 1;
      io.stderr.write(diagnosticLine(message));
    };
    this.out = new Output(io.stdout, this.report);
    if (options.fidelityJson !== undefined) this.out.accounts = [];
    this.readOptions = {
      onWarning: (w: ReaderWarning) => this.report(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`),
      includeEvents: options.events,
      resolveSpills: options.spills,
      ...(options.branch !== undefined ? { branch: options.branch } : {}),
      ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
      ...(options.tmpdir !== undefined ? { tmpdir: options.tmpdir } : {}),
      ...(options.collect !== undefined ? { collect: options.collect } : {}),
    };
  }

  /** One command-line input: `-`, a session id, or a path (its account, with --fidelity-json, begun here). */
  async input(input: string): Promise<number> {
    if (this.out.accounts !== undefined) await this.settle(0); // what is queued counts in its own account
    this.out.begin(input === '-' ? 'stdin' : input);
    this.found = {};
    if (input === '-') return this.after(() => this.stream(this.io.stdin ?? Readable.from([]), 'stdin'));
    let path: string;
    let agent: ReadableAgent | undefined;
    const keeper = storeForId(input, this.options);
    if (keeper !== undefined) return this.after(() => this.store(keeper.agent, keeper.db, input));
    path = resolve(this.options.processCwd, input);
    if (!existsSync(path) && mayBeSessionId(input)) {
      const found = await this.findSession(input);
      if (found === undefined) return 1;
      ({ path, agent } = found);
    } else {
      const store = locateStore(path);
      if (store !== undefined) return this.after(() => this.store(store.agent, store.db));
    }
    const what = sniffFile(path, this.options.maxRecordBytes ?? MAX_RECORD_BYTES);
    if (what.kind === 'bad') {
      await this.say(what.message);
      return 1;
    }
    if (what.kind === 'adapted') return this.after(() => this.adapted(createReadStream(path), what.format, path));
    if (what.kind === 'stream') return this.after(() => this.openedStream(path));
    const reader = agent ?? this.readerOf(what.input) ?? this.fallbackReader(path);
    if (reader === undefined) return 1;
    if (this.options.inspect === true) return this.after(() => this.inspectTranscript(reader, path, path));
    const pool = this.poolOf(reader);
    if (pool !== undefined) return this.queue(pool, reader, path);
    return this.after(() => this.transcript(reader.reader.open(path, this.readOptions), path));
  }

  /** Print what is queued, oldest first, until `keep` are left (their exit codes go to `settledCode`). */
  async settle(keep: number): Promise<void> {
    while (this.queued.length > keep) this.settledCode = Math.max(this.settledCode, await (await this.queued.shift()!)());
  }

  /** Stop the worker threads. */
  close(): void {
    for (const pool of this.pools.values()) pool?.close();
  }

  /** Print with `print` once what is queued before it is printed. */
  private async after(print: () => Promise<number>): Promise<number> {
    await this.settle(0);
    return print();
  }

  /** Report `message` once what is queued before it is printed (stderr in the order one thread gives). */
  private async say(message: string): Promise<void> {
    await this.settle(0);
    this.report(message);
  }

  /** The worker threads that count `agent`'s transcripts for `--usage` of several, when it has them. */
  private poolOf(agent: ReadableAgent): UsageCounting | undefined {
    const { options } = this;
    if (!options.usage || options.inputs.length < 2 || agent.reader.usagePool === undefined) return undefined;
    if (!this.pools.has(agent)) this.pools.set(agent, agent.reader.usagePool(options.threads, options.inputs.length));
    return this.pools.get(agent);
  }

  /** Queue transcript `path` to be counted on `pool`; keeps a few in flight, printing the oldest beyond them. */
  private async queue(pool: UsageCounting, agent: ReadableAgent, path: string): Promise<number> {
    const { options } = this;
    const task = { path, subagents: options.subagents, ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}) };
    this.queued.push(pool.run(task).then((reply) => async () => {
      // The workers failed: this thread counts it.
      if (reply === undefined) return this.transcript(agent.reader.open(path, this.readOptions), path);
      for (const warning of reply.warnings) this.readOptions.onWarning(warning);
      if ('error' in reply) {
        this.report(reply.error);
        return 1;
      }
      this.out.source = path;
      await this.out.write(reply.report);
      return 0;
    }));
    // A few in flight: enough to keep every worker busy, few enough to hold little.
    await this.settle(2 * pool.size);
    return 0;
  }

  /**
   * The file of session `id` (or id prefix), looked up under every agent's root, and its agent's reader when it
   * has one (else the file is printed as its format is); undefined, said in one line, when there is none or more than one.
   */
  private async findSession(id: string): Promise<{ path: string; agent: ReadableAgent | undefined } | undefined> {
    const found = await findSessionsById(id, this.options);
    const problem = lookupProblem(found.matches, `under ${found.searched.join(', ')}`);
    if (problem !== undefined) {
      await this.say(`${id}: ${problem}`);
      return undefined;
    }
    const match = found.matches[0]!;
    this.found = { sessionId: match.id, agent: match.format };
    if (match.files.length > 1) await this.say(`${id}: ${match.files.length} transcripts of this session; reading ${match.files[0]}`);
    return { path: match.files[0]!, agent: TRANSCRIPT_READERS.find((reader) => reader.format === match.format) };
  }

  /** The reader of transcripts of input format `input`, if one is registered. */
  private readerOf(input: string | undefined): ReadableAgent | undefined {
    return input === undefined ? undefined : TRANSCRIPT_READERS.find((agent) => agent.reader.input === input);
  }

  /**
   * The reader of a file that is no format an input adapter prints: the first registered reader's (it reports
   * what is wrong with the file, when it is not one of its transcripts).
   */
  private fallbackReader(name: string): ReadableAgent | undefined {
    const reader = TRANSCRIPT_READERS[0];
    if (reader === undefined) this.report(`${name}: not a transcript or log asyncai-log reads`);
    return reader;
  }

  /** Print a stream of another format through its adapter; 1 when it cannot be read as asked. */
  private async adapted(chunks: AsyncIterable<Buffer>, format: InputFormat, name: string): Promise<number> {
    const { options, out, report } = this;
    if (options.inspect === true) return this.inspectAdapted(chunks, format, name);
    if (options.usage || options.tree || options.branch !== undefined) {
      const readers = TRANSCRIPT_READERS.map((agent) => agent.reader.name).join(' and ');
      report(`${name}: --usage, --tree and --branch read ${readers} transcripts; this is ${format.name} input`);
      return 1;
    }
    const maxLineBytes = options.maxRecordBytes ?? MAX_RECORD_BYTES;
    const account = this.out.accounts?.at(-1);
    if (account !== undefined) chunks = endsInNewline(chunks, (ends) => { account.partial = !ends; });
    try {
      await readAdapted(chunks, format, {
        name, events: options.events, maxLineBytes, report,
        write: (events) => out.writeAll(events), closed: () => out.closed,
      });
      return 0;
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      report(`${name}: ${cannotBeRead(error)}`);
      return 1;
    }
  }

  /**
   * Print the sessions of the store whose database is `db` (only session `id`, when given), each through the
   * store's input adapter as its own input (named `<db>#<session id>`); 1 when the store or a session cannot be read.
   */
  private async store(agent: StoreAgent, db: string, id?: string): Promise<number> {
    const format = findInputFormat(agent.store.input)!;
    let opened;
    try {
      opened = await agent.store.open(db, { env: this.options.env, tmpdir: this.options.tmpdir ?? tmpdir() });
    } catch (error) {
      if (!(error instanceof StoreError) && typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      this.report(`${id ?? db}: ${error instanceof StoreError ? error.message : cannotBeRead(error)}`);
      return 1;
    }
    try {
      if (opened.odd > 0) this.report(`${db}: ${opened.odd} session${opened.odd === 1 ? '' : 's'} whose id is not of ${agent.store.name}'s shape, not read`);
      const wanted: StoreSession[] = id === undefined ? [...opened.sessions] : storeSessionsById(opened.sessions, id);
      const problem = id === undefined ? undefined : lookupProblem(wanted.map((s) => ({ id: s.id, format: agent.format })), `in ${db}`);
      if (problem !== undefined) {
        this.report(`${id}: ${problem}`);
        return 1;
      }
      let code = 0;
      for await (const { session, lines } of opened.read(wanted)) {
        if (this.out.closed) break;
        const chunks = (async function* () {
          for (const line of lines) yield Buffer.from(`${line}\n`);
        })();
        this.out.begin(`${db}#${session.id}`);
        this.found = { sessionId: session.id, agent: agent.format, child: session.child };
        code = Math.max(code, await this.adapted(chunks, format, `${db}#${session.id}`));
      }
      return code;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      this.report(`${db}: ${error.message}`);
      return 1;
    } finally {
      await opened.close();
    }
  }

  /** Read the FIFO or device at `path` as a stream (never waiting in its open: lib/input/file-input.ts). */
  private async openedStream(path: string): Promise<number> {
    let opened;
    try {
      opened = openInputPath(path);
    } catch (error) {
      this.report(`${path}: ${cannotBeRead(error)}`);
      return 1;
    }
    try {
      return await this.stream(opened.stream, path);
    } finally {
      opened.close();
    }
  }

  /** Read a stream (stdin, a FIFO): another format as it comes, a transcript from a private copy. */
  private async stream(source: AsyncIterable<Buffer | string>, name: string): Promise<number> {
    const head = await sniffStream(source, this.options.maxRecordBytes ?? MAX_RECORD_BYTES);
    if (head.unsupported !== undefined) {
      this.report(`${name}: ${head.unsupported}`);
      return 1;
    }
    if (head.problem !== undefined) {
      this.report(`${name}:${head.problem}`);
      return 1;
    }
    if (head.format) return this.adapted(head.chunks, head.format, name);
    const agent = this.readerOf(head.transcript) ?? this.fallbackReader(name);
    if (agent === undefined) return 1;
    const kept = await keepStream(head.chunks, head.sessionId ?? 'stdin', this.options.tmpdir ?? tmpdir());
    try {
      if (this.options.inspect === true) return await this.inspectTranscript(agent, kept.path, name);
      // Spilled output and subagents live beside a transcript's file: a copy has neither.
      return await this.transcript(agent.reader.open(kept.path, { ...this.readOptions, name, resolveSpills: false }), name);
    } finally {
      await kept.remove();
    }
  }

  /**
   * `--inspect` of the transcript at `path` (called `name`) read by `agent`'s reader: its shape, one line; 1
   * when it cannot be read. Its warnings are counted, never printed (they may quote its text): one line says how many.
   */
  private async inspectTranscript(agent: ReadableAgent, path: string, name: string): Promise<number> {
    let warnings = 0;
    const reading = agent.reader.open(path, {
      ...this.readOptions, includeEvents: true, resolveSpills: false, name, onWarning: () => { warnings += 1; },
    });
    try {
      const shape = await inspectReading(reading, path, findInputFormat(agent.reader.input), this.options.maxRecordBytes ?? MAX_RECORD_BYTES);
      const session = { sessionId: reading.sessionId, agent: agent.format, input: agent.reader.input, file: name };
      await this.out.write(shapeLine(session, { ...shape, partial: reading.partial === true, warnings }));
    } catch (error) {
      if (error instanceof ReaderError) this.report(error.message);
      else if (typeof (error as NodeJS.ErrnoException).syscall === 'string') this.report(`${name}: ${cannotBeRead(error)}`);
      else throw error;
      return 1;
    }
    this.warned(name, warnings);
    return 0;
  }

  /** `--inspect` of a stream read through `format`'s adapter: its shape, one line; 1 when it cannot be read. */
  private async inspectAdapted(chunks: AsyncIterable<Buffer>, format: InputFormat, name: string): Promise<number> {
    let warnings = 0;
    try {
      const maxLineBytes = this.options.maxRecordBytes ?? MAX_RECORD_BYTES;
      const shape = await inspectAdapted(chunks, format, { name, maxLineBytes, warn: () => { warnings += 1; } });
      const { sessionId, agent, child } = this.found;
      const session = { sessionId, agent: agent ?? agentOfInput(format.name), input: format.name, file: name, ...(child !== undefined ? { child } : {}) };
      await this.out.write(shapeLine(session, { ...shape, partial: shape.torn, warnings }));
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      this.report(`${name}: ${cannotBeRead(error)}`);
      return 1;
    }
    this.warned(name, warnings);
    return 0;
  }

  /** One line for the warnings `--inspect` counted of input `name` (what they say may quote the conversation). */
  private warned(name: string, warnings: number): void {
    if (warnings > 0) this.report(`${name}: ${warnings} warning${warnings === 1 ? '' : 's'} (read it without --inspect to see them)`);
  }

  /** Print one transcript as the command asks; 1 when it cannot be read. */
  private async transcript(reading: TranscriptReading, name: string): Promise<number> {
    this.out.source = name;
    try {
      await readOne(reading, this.options, this.out);
      const account = this.out.accounts?.at(-1);
      if (account !== undefined && reading.partial === true) account.partial = true;
      return 0;
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      this.report(error.message);
      return 1;
    }
  }
}
