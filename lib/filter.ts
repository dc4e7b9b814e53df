// The filter: bytes on stdin -> lines -> (adapter) generic events -> every harness, one write per input
// chunk, the session line first on stdout. Bad lines are reported and skipped (or, with `strict`, end the
// run after what came before is written). Also the place where monitor sources join the same ordered queue.
import { fstatSync, readSync, statSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolve } from 'node:path';
import type { GenericEvent } from './events.js';
import { findHarness, knownFormats } from './harnesses/index.js';
import type { SessionHarness } from './harnesses/types.js';
import { detectInputFormat, findInputFormat, inputFormatNames } from './input/index.js';
import { LineSplitter, type Line, type LineBatch } from './input/lines.js';
import { fileInput } from './input/file-input.js';
import { describeError } from './util/fs-errors.js';
import { jsonSourceOf, readLineValue, type JsonSource } from './input/raw-json.js';
import { InputError, type InputAdapter } from './input/types.js';
import { SessionLogger, sessionLine } from './session/logger.js';
import { MonitorGroup, MonitorSource, STDIN_DESCRIPTION, type MonitorSink, type MonitorSpec } from './monitor/index.js';
import { drainedOrFailed } from './util/drain.js';
import { ONCE_WARNINGS } from './harnesses/claude-code-cli/records.js';
import { isSegmentTarget } from './harnesses/claude-code-cli/segments.js';
import { runParallel } from './parallel/run.js';
import { LineValues } from './input/pretty-document.js';
import { ALSO_INVALID_UTF8, INVALID_UTF8_NOTE, overLongMessage, preview } from './input/line-messages.js';

/** A usage error: reported as it is, exit 2, nothing written. */
export class UsageError extends Error {}

export interface SessionOptions {
  /** Transcript formats to write (default: claude-code-cli). */
  formats: string[];
  /** Per-format storage roots (`--session-dir format=path`). */
  sessionDirs: Record<string, string>;
  /** The project directory; default: the foreign stream's cwd, else `processCwd`. */
  cwd?: string;
  model?: string;
  agentName: string;
  /** Extra fields stamped on every record (used by convert to mark converted sessions). */
  provenance?: Record<string, unknown>;
  env: Record<string, string | undefined>;
  homedir: string;
  processCwd: string;
}

export interface FilterOptions extends SessionOptions {
  noSession: boolean;
  echo: boolean;
  strict: boolean;
  /** Input format name or 'auto'. */
  from: string;
  /** A first user turn the foreign stream does not echo (`--prompt`). */
  prompt?: string;
  maxLineBytes?: number;
  /**
   * Input files, read in order as one stream (`-`: `io.stdin`); default: `io.stdin` alone. Each file's
   * lines are its own (numbered from 1, a missing final newline ends its last line). A file that cannot be
   * read is reported, the others are read, and the run exits 1.
   */
  files?: string[];
  /** The name stdin's bad input is reported under (`stdin`); a file's is its path as given. */
  inputName?: string;
  /**
   * Monitors (`--monitor`): commands whose stdout lines become monitor events, and at most one spec
   * without a command, which makes stdin a plain-text monitored stream. The session then opens at start.
   */
  monitors?: MonitorSpec[];
  /** The shell monitor commands run in, as `<shell> -c <command>` (default /bin/sh; the bin passes $SHELL). */
  shell?: string;
  /** Grace between SIGTERM and SIGKILL when monitors are stopped (default 1000 ms). */
  monitorKillGraceMs?: number;
  /**
   * Worker threads for a large regular file of generic events on stdin (default 2; 0: never). See
   * `parallelPlan` for when they are used.
   */
  threads?: number;
  /** The smallest file (bytes) worth starting worker threads for (default 8 MiB). */
  threadsMinBytes?: number;
  /** Where the worker threads' module is (default: lib/parallel/worker.js of the build; tests point at one that fails). */
  threadWorkerUrl?: URL;
}

export interface FilterIO {
  stdin: Readable;
  /**
   * The descriptor `stdin` reads, when it is a regular file read from its current position
   * (lib/input/file-input.ts): the filter may then read it itself, on several threads.
   */
  stdinFd?: number;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborting stops reading; what was read is written and the run resolves. */
  signal?: AbortSignal;
}

export interface FilterResult {
  /** 0 success, 1 failure at run time. */
  code: number;
  harnesses: SessionHarness[];
  /** Lines skipped as bad input. */
  badLines: number;
  /** Events written (handed to the harnesses). */
  events: number;
  warnings: number;
  aborted: boolean;
  /** Worker threads the input was handled on (0: this thread only). */
  threads: number;
}

/**
 * Validate formats, roots and the project directory up front: an unknown format, a malformed dir, a format
 * whose program is missing (`preflight`), or a `cwd` that is empty or names something other than a directory
 * is a usage error. A `cwd` that does not exist is accepted: the session only records it (it may be a project
 * on another machine, or one made later).
 */
export function checkSessionOptions(
  options: Pick<SessionOptions, 'formats' | 'sessionDirs' | 'cwd'> & { processCwd?: string; env?: SessionOptions['env'] },
): void {
  if (options.cwd !== undefined) {
    if (options.cwd === '') throw new UsageError('--cwd wants a directory, got ""');
    let directory = true;
    try {
      directory = statSync(resolve(options.processCwd ?? '/', options.cwd)).isDirectory();
    } catch (error) {
      // Missing (or out of reach): only recorded. A file on the way makes it impossible.
      directory = (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
    }
    if (!directory) throw new UsageError(`--cwd ${options.cwd}: not a directory`);
  }
  for (const format of options.formats) {
    const factory = findHarness(format);
    if (!factory) {
      throw new UsageError(`unknown session format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
    const missing = factory.preflight?.(options.env ?? {});
    if (missing !== undefined) throw new UsageError(missing);
  }
  for (const format of Object.keys(options.sessionDirs)) {
    if (!findHarness(format)) {
      throw new UsageError(`--session-dir names unknown format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
  }
}

/** Parse `format=path` values of `--session-dir`. */
export function parseSessionDirs(values: readonly string[]): Record<string, string> {
  const dirs: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0 || eq === value.length - 1) {
      throw new UsageError(`--session-dir wants <format>=<path>, got ${JSON.stringify(value)}`);
    }
    dirs[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return dirs;
}

/**
 * Open one new session per configured format. `startedAt` (RFC 3339) is when the session started, for the
 * formats that file sessions by date; default: now.
 */
export function openSessions(
  options: SessionOptions, cwd: { path: string; fromInput: boolean }, warn: (message: string) => void, startedAt?: string,
): SessionHarness[] {
  return options.formats.map((format) => {
    const factory = findHarness(format)!;
    const root = resolve(options.processCwd, options.sessionDirs[format] ?? factory.defaultRoot(options.env, options.homedir));
    return factory.create({
      root,
      cwd: cwd.path,
      cwdFromInput: cwd.fromInput,
      env: options.env,
      homedir: options.homedir,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
      ...(startedAt !== undefined ? { startedAt } : {}),
      warn,
    });
  });
}

class StrictStop extends Error {}

/** Writes stdout without ever failing the run: a closed stdout (EPIPE) only stops what goes there. */
class Stdout {
  closed = false;
  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', () => {
      this.closed = true;
    });
  }
  write(data: string | Buffer): boolean {
    if (this.closed) return true;
    try {
      return this.stream.write(data);
    } catch {
      this.closed = true;
      return true;
    }
  }
  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return drainedOrFailed(this.stream);
  }
}

/**
 * Run the filter over `io.stdin`. Resolves with the exit code; rejects only with UsageError
 * (bad options, or a session that cannot be created).
 */
export async function runFilter(options: FilterOptions, io: FilterIO): Promise<FilterResult> {
  checkSessionOptions(options);
  const inputName = options.inputName ?? 'stdin';
  let warnings = 0;
  const report = (message: string) => {
    warnings += 1;
    io.stderr.write(`asyncai-log: ${message}\n`);
  };
  let adapter: InputAdapter | undefined;
  if (options.from !== 'auto') {
    const format = findInputFormat(options.from);
    if (!format) {
      throw new UsageError(`unknown input format ${JSON.stringify(options.from)} (known: auto, ${inputFormatNames().join(', ')})`);
    }
    adapter = format.create();
  }
  // Warnings a session gives once: with worker threads, more than one mapper may give them.
  const saidOnce = new Set<string>();
  /** True when `message` is a once-only warning said before. */
  const sayingOnce = (message: string) => {
    for (const once of ONCE_WARNINGS) {
      if (!message.endsWith(once)) continue;
      if (saidOnce.has(once)) return true;
      saidOnce.add(once);
    }
    return false;
  };
  const stdout = new Stdout(io.stdout);
  // With --echo, bytes read before the session line could be printed wait here (only until the first line).
  let held: Buffer[] = [];
  const release = () => {
    for (const chunk of held) stdout.write(chunk);
    held = [];
  };
  const result: FilterResult = { code: 0, harnesses: [], badLines: 0, events: 0, warnings: 0, aborted: false, threads: 0 };
  let logger: SessionLogger | undefined;
  /** The session could not be created (said once): the end of the run does not say more about it. */
  let refused = false;

  const open = () => {
    if (logger || options.noSession) return;
    const facts = adapter?.facts() ?? {};
    const cwd = options.cwd !== undefined
      ? { path: resolve(options.processCwd, options.cwd), fromInput: false }
      : facts.cwd !== undefined && facts.cwd.startsWith('/')
        ? { path: facts.cwd, fromInput: true }
        : { path: options.processCwd, fromInput: false };
    let harnesses: SessionHarness[];
    try {
      harnesses = openSessions(options, cwd, (message) => {
        if (!sayingOnce(message)) report(message);
      });
    } catch (error) {
      refused = true;
      throw new OpenFailed(`cannot create the session: ${(error as Error).message}`);
    }
    logger = new SessionLogger(harnesses, report);
    result.harnesses = harnesses;
    stdout.write(`${sessionLine(harnesses, options.agentName)}\n`);
    if (options.prompt !== undefined) {
      write({ type: 'user', text: options.prompt, timestamp: new Date().toISOString() }, 'prompt');
      logger.flush();
    }
  };

  const write = (event: GenericEvent, where: string, source?: JsonSource) => {
    result.events += 1;
    if (!logger) return;
    const rejected = logger.write(event, where, source);
    if (rejected !== undefined) bad(where, rejected);
  };

  // Set while a line that held invalid UTF-8 is handled: a skipped line still gets one diagnostic, saying so.
  let invalidUtf8 = false;
  const bad = (where: string, message: string) => {
    result.badLines += 1;
    report(`${where}: ${message}${invalidUtf8 ? ALSO_INVALID_UTF8 : ''}`);
    invalidUtf8 = false;
    if (options.strict) throw new StrictStop(message);
  };

  // The session line comes before any input is read whenever the input cannot change where the session goes.
  const eager = options.cwd !== undefined || options.from === 'events';
  if (eager) {
    try {
      open();
    } catch (error) {
      report((error as Error).message);
      return { ...result, code: 1, warnings };
    }
  }

  // Monitors: every source writes through the same logger as the input, from the same (single) thread, so
  // records land in arrival order and each source's chunk is flushed at once. They write from the start,
  // so the session opens before any input is read (in --cwd, else the current directory).
  const monitorSpecs = options.monitors ?? [];
  const stdinSpec = monitorSpecs.find((spec) => spec.command === undefined);
  const stdinMonitor = stdinSpec ? new MonitorSource(stdinSpec.description ?? STDIN_DESCRIPTION) : undefined;
  const monitorSink: MonitorSink = {
    write(event, where) {
      result.events += 1;
      const rejected = logger?.write(event, where);
      if (rejected !== undefined) report(`${where}: ${rejected}`);
    },
    flush: () => logger?.flush(),
  };
  let monitors: MonitorGroup | undefined;
  if (monitorSpecs.length > 0) {
    try {
      open();
    } catch (error) {
      report((error as Error).message);
      return { ...result, code: 1, warnings };
    }
    const commands = monitorSpecs.flatMap((spec) => (spec.command !== undefined
      ? [{ command: spec.command, ...(spec.description !== undefined ? { description: spec.description } : {}) }]
      : []));
    if (commands.length > 0) {
      monitors = new MonitorGroup(commands, {
        shell: options.shell ?? '/bin/sh',
        cwd: options.processCwd,
        env: options.env,
        sink: monitorSink,
        stderr: io.stderr,
        report,
        ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
        ...(options.monitorKillGraceMs !== undefined ? { killGraceMs: options.monitorKillGraceMs } : {}),
      });
    }
  }

  /** The input being read (the last one, at the end): where what is not a line's is located. */
  let current = inputName;

  /** The input's values: lines, or a pretty-printed document gathered whole. */
  const values = new LineValues(options.maxLineBytes);
  /** Where the document being gathered began. */
  let documentAt: string | undefined;
  /** One line of input `name`; `lineBase` lines came before the splitter that made it. */
  const handle = (line: Line, now: string, lineBase: number, name: string) => {
    let where = `${name}:${lineBase + line.no}`;
    if (stdinMonitor) {
      // Monitor mode: stdin is plain text, each line one monitor event (never a user turn).
      if (line.text === undefined) {
        report(`${where}: ${overLongMessage(line.bytes, options.maxLineBytes)}`);
        return;
      }
      if (line.invalidUtf8) report(`${where}: ${INVALID_UTF8_NOTE}`);
      const event = stdinMonitor.event(line.text, now);
      if (event) monitorSink.write(event, where);
      return;
    }
    invalidUtf8 = line.invalidUtf8 === true;
    // A huge line is parsed from its bytes, never held whole as a string (see parseLine).
    const read = values.next(line);
    if (!read) {
      documentAt ??= where;
      return;
    }
    documentAt = undefined;
    where = `${name}:${lineBase + read.no}`;
    if ('bad' in read) {
      bad(where, read.bad);
      return;
    }
    const { value } = read;
    if (!adapter) {
      const format = detectInputFormat(value);
      if (!format) {
        const text = read.no === line.no ? line.text ?? '' : JSON.stringify(value);
        throw new DetectFailed(`${where}: input matches no known format (expected one of: ${inputFormatNames().join(', ')}): ${preview(text)}`);
      }
      adapter = format.create();
    }
    let events: GenericEvent[];
    try {
      events = adapter.map(value, now, (message) => report(`${where}: ${message}`));
    } catch (error) {
      if (error instanceof InputError) {
        bad(where, error.message);
        return;
      }
      throw error;
    }
    if (!logger && (events.length > 0 || !adapter.waitsForFacts?.())) open();
    // Long lines: the harnesses may copy the line's long strings as they are instead of serialising them again.
    const source = events.length > 0 && read.no === line.no ? jsonSourceOf(line, value) : undefined;
    for (const event of events) write(event, where, source);
    // Kept: the replacement is noted, once (a rejected event's diagnostic has said so already).
    if (invalidUtf8) report(`${where}: ${INVALID_UTF8_NOTE}`);
    invalidUtf8 = false;
  };

  const sink = new Writable({
    objectMode: true,
    write(batch: InputBatch, _encoding, callback) {
      const now = new Date().toISOString();
      let failure: Error | undefined;
      try {
        for (const line of batch.lines) handle(line, now, 0, batch.name);
      } catch (error) {
        failure = error as Error;
      }
      // Everything this chunk produced goes out now, in one write per harness, before more input is read.
      logger?.flush();
      if (failure) {
        callback(failure);
        return;
      }
      // Tee after the records: the session line is already on stdout when the first input line is echoed.
      if (options.echo && batch.chunk) {
        if (!logger && !options.noSession) {
          held.push(batch.chunk);
        } else {
          release();
          if (!stdout.write(batch.chunk)) {
            void stdout.drain().then(() => callback());
            return;
          }
        }
      }
      callback();
    },
    final(callback) {
      try {
        const unended = values.end();
        if (unended && 'bad' in unended) bad(documentAt ?? current, unended.bad);
        if (adapter) {
          const events = adapter.end(new Date().toISOString(), (message) => report(`${current}: ${message}`));
          if (events.length > 0 && !logger) open();
          for (const event of events) write(event, current);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });

  // The inputs, opened one at a time as they are reached (as cat does); a sole input is opened now, so a
  // large file of it may go to the worker threads.
  const sources = options.files !== undefined && options.files.length > 0 ? options.files : ['-'];
  let stdinTaken = false;
  const openSource = async (source: string): Promise<OpenInput | undefined> => {
    if (source === '-') {
      // Read once: `-` named again reads nothing more, as cat's second `-` meets end of file.
      const taken = stdinTaken;
      stdinTaken = true;
      return { name: inputName, stream: taken ? undefined : io.stdin, ...(io.stdinFd !== undefined && !taken ? { fd: io.stdinFd } : {}) };
    }
    try {
      return await openInputFile(resolve(options.processCwd, source), source);
    } catch (error) {
      result.code = 1;
      report(`${source}: cannot be read: ${describeError(error)}`);
      return undefined;
    }
  };
  const first = sources.length === 1 ? await openSource(sources[0]!) : undefined;
  if (first) current = first.name;

  // A large file of generic events: parsed and serialised on worker threads (lib/parallel/).
  const plan = first?.fd !== undefined ? parallelPlan(options, first.fd) : undefined;
  let threaded = false;
  if (plan) {
    if (plan.threads > 0) try {
      adapter ??= findInputFormat('events')!.create();
      open();
      const target = logger?.harnesses[0];
      if (logger && target && isSegmentTarget(target)) {
        threaded = true;
        result.threads = plan.threads;
        const active = logger;
        await runParallel({
          fd: first!.fd!,
          head: plan.head,
          threads: plan.threads,
          setup: { mapper: target.segmentOptions(), ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}) },
          target,
          ...(io.signal ? { signal: io.signal } : {}),
          ...(options.threadWorkerUrl !== undefined ? { workerUrl: options.threadWorkerUrl } : {}),
          sink: {
            active: () => active.isActive(target),
            diagnostic(line, message, isBad) {
              if (sayingOnce(message)) return;
              if (isBad) result.badLines += 1;
              report(`${current}:${line}: ${message}`);
            },
            event: (event, line) => write(event, `${current}:${line}`),
            mapped(count) {
              result.events += count;
            },
            flush: () => active.flush(),
            warn: report,
            mainLines(lineBase, atStart = false) {
              const splitter = new LineSplitter({ atStart, ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}) });
              const now = new Date().toISOString();
              return {
                push(chunk) {
                  for (const line of splitter.push(chunk)) handle(line, now, lineBase, current);
                },
                end() {
                  for (const line of splitter.end()) handle(line, now, lineBase, current);
                  active.flush();
                  return splitter.lineCount;
                },
              };
            },
          },
        });
        if (io.signal?.aborted) result.aborted = true;
      }
    } catch (error) {
      threaded = true;
      result.code = 1;
      report(error instanceof OpenFailed ? error.message : `${current}: ${(error as Error).message}`);
    }
    if (!threaded && plan.head.length > 0) first!.stream?.unshift(plan.head);
  }

  // An abort ends the read under way: the generator below waits on it, and only a destroyed stream wakes it.
  let reading: Readable | undefined;
  io.signal?.addEventListener('abort', () => reading?.destroy(), { once: true });
  /** Every input in turn, as line batches: one per chunk read, each line numbered within its own input. */
  async function* batches(): AsyncGenerator<InputBatch> {
    for (let i = 0; i < sources.length; i += 1) {
      if (io.signal?.aborted) return;
      const input = i === 0 && sources.length === 1 ? first : await openSource(sources[i]!);
      if (!input) continue;
      current = input.name;
      reading = input.stream;
      const splitter = new LineSplitter(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {});
      try {
        for await (const chunk of input.stream ?? []) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk as Buffer;
          yield { lines: splitter.push(buf), chunk: buf, name: input.name };
        }
        const last = splitter.end();
        if (last.length > 0) yield { lines: last, chunk: undefined, name: input.name };
      } catch (error) {
        // The read an abort destroyed ends here (Node 22+ says "Premature close"): the signal is the news.
        if (io.signal?.aborted) return;
        // A file that fails part way (EIO) is reported like one that cannot be opened; the next is read.
        if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
        result.code = 1;
        report(`${input.name}: cannot be read: ${describeError(error)}`);
      } finally {
        await input.close?.();
      }
    }
  }

  if (!threaded) try {
    await pipeline(batches, sink, io.signal ? { signal: io.signal } : {});
  } catch (error) {
    if (error instanceof StrictStop) {
      result.code = 1;
    } else if (error instanceof DetectFailed || error instanceof OpenFailed) {
      result.code = 1;
      report(error.message);
    } else if ((error as Error).name === 'AbortError') {
      result.aborted = true;
    } else {
      result.code = 1;
      report(`${current}: ${(error as Error).message}`);
    }
  }
  if (threaded) await first?.close?.();
  if (stdinMonitor) {
    monitorSink.write(stdinMonitor.end(result.code === 0 ? 0 : 1, result.aborted, new Date().toISOString()), inputName);
    monitorSink.flush();
  }
  if (monitors) {
    // When the input ends, command monitors run on until they exit; a signal (or a failed run) stops them,
    // and what they printed until then is still written.
    if (result.aborted || result.code !== 0) monitors.stop();
    await monitors.wait(io.signal);
    if (io.signal?.aborted) result.aborted = true;
  }
  release();
  // A run that wrote no record keeps no session: no empty transcript is left to be listed or resumed.
  const removed = logger?.finish(true) ?? [];
  if (logger?.failed) result.code = 1;
  const kept = result.harnesses.filter((harness) => !removed.includes(harness));
  // Said once, unless the session could not be created or written (that was said).
  if (!options.noSession && kept.length === 0 && !refused && !logger?.failed) {
    io.stderr.write(removed.length === 0
      ? 'asyncai-log: no events to write, so no session was made\n'
      : `asyncai-log: no events to write, so the session was not kept (removed ${removed.map((h) => h.sessionFile).join(', ')})\n`);
  }
  result.harnesses = kept;
  result.warnings = warnings;
  return result;
}

class OpenFailed extends Error {}
class DetectFailed extends Error {}

/** The lines of one chunk of one input, and the input's name for diagnostics. */
interface InputBatch extends LineBatch {
  name: string;
}

/** One input, open: stdin, or a file named on the command line. */
interface OpenInput {
  /** The name its lines are reported under. */
  name: string;
  /** Its bytes (undefined: nothing more to read, stdin named a second time). */
  stream: Readable | undefined;
  /** The descriptor of a regular file, read from its current position (the worker threads may read it). */
  fd?: number;
  close?(): Promise<void>;
}

/**
 * Open an input file without blocking this thread (a FIFO waits for its writer on the thread pool, where a
 * signal can still end the run). A regular file is read on this thread (lib/input/file-input.ts); a pipe,
 * FIFO or device through Node's stream. A directory is refused.
 */
async function openInputFile(path: string, name: string): Promise<OpenInput> {
  const handle = await openFile(path, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const stream = stat.isFile() ? fileInput(handle.fd) : handle.createReadStream({ autoClose: false });
    return { name, stream, ...(stat.isFile() ? { fd: handle.fd } : {}), close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Files smaller than this are not worth starting threads for. */
const THREADS_MIN_BYTES = 8 * 1024 * 1024;
/** Bytes read to see what the input is. */
const HEAD_BYTES = 64 * 1024;

/**
 * When the filter runs on worker threads: its only input (stdin or one file argument) is a regular file of at
 * least `threadsMinBytes`, its first line is a generic event (or `--from events` says so), the only transcript
 * is Claude Code's, and nothing needs the input line by line on this thread (no monitor, `--echo` or
 * `--strict`). Reads the head of the file to decide; when the answer is no, the caller puts the head back.
 */
function parallelPlan(options: FilterOptions, fd: number): { head: Buffer; threads: number } | undefined {
  const threads = options.threads ?? 2;
  if (threads <= 0 || options.noSession || options.echo || options.strict) return undefined;
  if ((options.monitors ?? []).length > 0 || options.formats.length !== 1 || options.formats[0] !== 'claude-code-cli') return undefined;
  if (options.from !== 'auto' && options.from !== 'events') return undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size < (options.threadsMinBytes ?? THREADS_MIN_BYTES)) return undefined;
  } catch {
    return undefined;
  }
  const buf = Buffer.allocUnsafeSlow(HEAD_BYTES);
  let got = 0;
  try {
    got = readSync(fd, buf, 0, HEAD_BYTES, null);
  } catch {
    // The stream reads it again and reports what fails.
  }
  const head = buf.subarray(0, got);
  if (options.from === 'events' || firstLineIsEvent(head, got < HEAD_BYTES)) return { head, threads };
  return { head, threads: 0 };
}

/**
 * Whether the first non-blank line of `head` is a generic event (as the auto detection decides). Its lines
 * end with a newline, or at the end of `head` when it is `whole` (the input ended there).
 */
function firstLineIsEvent(head: Buffer, whole: boolean): boolean {
  const splitter = new LineSplitter();
  const [first] = [...splitter.push(head), ...(whole ? splitter.end() : [])];
  if (first?.text === undefined) return false;
  try {
    return detectInputFormat(JSON.parse(first.text))?.name === 'events';
  } catch {
    return false;
  }
}

