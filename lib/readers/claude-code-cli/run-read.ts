// `asyncai-log read`: transcripts (paths, session uuids, `-` for stdin) in, NDJSON out: generic events by
// default, one usage object per transcript with `usage`, one line per branch with `tree`. What is not a Claude
// Code transcript but another format the filter reads is printed through its input adapter (../any-input.ts).
// Warnings go to stderr as `asyncai-log: <file>:<line>: <what>`; an input that cannot be read is reported
// and the rest go on.
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { InputFormat } from '../../input/types.js';
import { describeError } from '../../util/fs-errors.js';
import { keepStream, readAdapted, sniffFile, sniffStream } from '../any-input.js';
import { claudeCodeCli } from '../../harnesses/claude-code-cli/index.js';
import { findSessionTranscripts, isSessionUuid } from './locate.js';
import { ClaudeTranscriptReader, defaultThreads, ReaderError, type ReaderOptions, type ReaderWarning } from './reader.js';
import { UsagePool, usageReport } from './usage-pool.js';
import { drainedOrFailed } from '../../util/drain.js';

export interface ReadCommandOptions {
  /** Transcript paths, bare session uuids, or `-` (stdin). */
  inputs: string[];
  usage: boolean;
  tree: boolean;
  /** Also read subagent transcripts. */
  subagents: boolean;
  /** Also emit context events. */
  events: boolean;
  branch?: string;
  /** Resolve spilled output (default true). */
  spills: boolean;
  maxRecordBytes?: number;
  /** Worker threads for a large transcript (see ReaderOptions.threads; 0: one thread). */
  threads?: number;
  /** `--session-dir` values, parsed (only `claude-code-cli` is used). */
  sessionDirs: Record<string, string>;
  env: Record<string, string | undefined>;
  homedir: string;
  processCwd: string;
  /** Where a Claude Code transcript read from a stream is kept while it is read (default: the system's). */
  tmpdir?: string;
}

export interface ReadIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** What `-` reads (default: nothing). */
  stdin?: AsyncIterable<Buffer | string>;
}

/** NDJSON to stdout with backpressure; a closed stdout (EPIPE) ends the output quietly. */
class Output {
  closed = false;
  /** The transcript being written out, for the report of a value that cannot be serialised. */
  source = '';
  constructor(private readonly stream: NodeJS.WritableStream, private readonly report: (message: string) => void) {
    stream.on('error', () => {
      this.closed = true;
    });
  }

  async write(value: unknown): Promise<void> {
    await this.writeAll([value]);
  }

  /** Write values as NDJSON lines in one write (a value that cannot be serialised is reported and skipped). */
  async writeAll(values: readonly unknown[]): Promise<void> {
    let text = '';
    for (const value of values) {
      try {
        text += `${JSON.stringify(value)}\n`;
      } catch (error) {
        this.unwritable(value, error as Error);
      }
    }
    await this.writeText(text);
  }

  /** Report a value JSON.stringify could not write (nested too deeply): it is skipped; the output goes on. */
  unwritable(value: unknown, error: Error): void {
    const type = (value as { type?: unknown }).type;
    this.report(`${this.source}: ${typeof type === 'string' ? `a ${type} event` : 'a value'} cannot be written as JSON (${error.message}); skipped`);
  }

  /** Write NDJSON text as it is, in one write. */
  async writeText(text: string | Buffer): Promise<void> {
    if (this.closed || text.length === 0) return;
    let ok: boolean;
    try {
      ok = this.stream.write(text);
    } catch {
      this.closed = true;
      return;
    }
    if (ok) return;
    await drainedOrFailed(this.stream);
  }
}

/** Run the read command. Resolves with the exit code: 0, or 1 when any transcript could not be read. */
export async function runRead(options: ReadCommandOptions, io: ReadIO): Promise<number> {
  const report = (message: string) => {
    io.stderr.write(`asyncai-log: ${message}\n`);
  };
  const out = new Output(io.stdout, report);
  const onWarning = (w: ReaderWarning) => report(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`);
  const readerOptions: ReaderOptions = {
    onWarning,
    includeEvents: options.events,
    resolveSpills: options.spills,
    ...(options.branch !== undefined ? { branch: options.branch } : {}),
    ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
  };
  const root = resolve(options.processCwd,
    options.sessionDirs['claude-code-cli'] ?? claudeCodeCli.defaultRoot(options.env, options.homedir));
  let code = 0;
  const maxLineBytes = options.maxRecordBytes;
  /** Print a stream of another format through its adapter; 1 when it cannot be read as asked. */
  const adapted = async (chunks: AsyncIterable<Buffer>, format: InputFormat, name: string): Promise<number> => {
    if (options.usage || options.tree || options.branch !== undefined) {
      report(`${name}: --usage, --tree and --branch read Claude Code transcripts; this is ${format.name} input`);
      return 1;
    }
    try {
      await readAdapted(chunks, format, {
        name, events: options.events, ...(maxLineBytes !== undefined ? { maxLineBytes } : {}), report,
        write: (events) => out.writeAll(events), closed: () => out.closed,
      });
      return 0;
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      report(`${name}: cannot be read: ${describeError(error)}`);
      return 1;
    }
  };
  /** Read a stream (stdin, a FIFO): another format as it comes, a transcript from a private copy. */
  const stream = async (source: AsyncIterable<Buffer | string>, name: string): Promise<number> => {
    const head = await sniffStream(source, maxLineBytes);
    if (head.format) return adapted(head.chunks, head.format, name);
    const kept = await keepStream(head.chunks, head.sessionId ?? 'stdin', options.tmpdir ?? tmpdir());
    try {
      // Spilled output and subagents live beside a transcript's file: a copy has neither.
      const reader = new ClaudeTranscriptReader(kept.path, { ...readerOptions, name, resolveSpills: false });
      out.source = name;
      await readOne(reader, options, out);
      return 0;
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      report(error.message);
      return 1;
    } finally {
      await kept.remove();
    }
  };
  /** Read one transcript file here; 1 when it cannot be read. */
  const file = async (path: string): Promise<number> => {
    const reader = new ClaudeTranscriptReader(path, readerOptions);
    out.source = path;
    try {
      await readOne(reader, options, out);
      return 0;
    } catch (error) {
      if (!(error instanceof ReaderError)) throw error;
      report(error.message);
      return 1;
    }
  };
  // `--usage` over several transcripts: counted on worker threads, whole files at a time, printed in input
  // order (anything else waits until what is queued before it is printed).
  const pool = options.usage && options.inputs.length > 1 ? UsagePool.start(Math.min(options.threads ?? defaultThreads(), options.inputs.length)) : undefined;
  const queued: Promise<() => Promise<number>>[] = [];
  const settle = async (keep: number) => {
    while (queued.length > keep) code = Math.max(code, await (await queued.shift()!)());
  };
  const queue = (path: string) => {
    queued.push(pool!.count({ path, subagents: options.subagents, ...(maxLineBytes !== undefined ? { maxRecordBytes: maxLineBytes } : {}) })
      .then((reply) => async () => {
        if (reply === undefined) return file(path);
        for (const warning of reply.warnings) onWarning(warning);
        if ('error' in reply) {
          report(reply.error);
          return 1;
        }
        out.source = path;
        await out.write(reply.report);
        return 0;
      }));
  };
  try {
    for (const input of options.inputs) {
      if (out.closed) break;
      if (input === '-') {
        await settle(0);
        code = Math.max(code, await stream(io.stdin ?? Readable.from([]), 'stdin'));
        continue;
      }
      let path: string;
      if (isSessionUuid(input)) {
        const found = await findSessionTranscripts(root, input);
        if (found.length !== 1) await settle(0);
        if (found.length === 0) {
          report(`${input}: no transcript of this session under ${resolve(root, 'projects')}`);
          code = 1;
          continue;
        }
        if (found.length > 1) report(`${input}: ${found.length} transcripts of this session; reading ${found[0]}`);
        path = found[0]!;
      } else {
        path = resolve(options.processCwd, input);
      }
      const what = sniffFile(path, maxLineBytes);
      if (what.kind === 'adapted') {
        await settle(0);
        code = Math.max(code, await adapted(createReadStream(path), what.format, path));
        continue;
      }
      if (what.kind === 'stream') {
        await settle(0);
        code = Math.max(code, await stream(createReadStream(path), path));
        continue;
      }
      if (pool !== undefined) {
        queue(path);
        // A few in flight: enough to keep every worker busy, few enough to hold little.
        await settle(2 * pool.size);
        continue;
      }
      code = Math.max(code, await file(path));
    }
    await settle(0);
  } finally {
    pool?.close();
  }
  return code;
}

async function readOne(reader: ClaudeTranscriptReader, options: ReadCommandOptions, out: Output): Promise<void> {
  if (options.usage) {
    await out.write(await usageReport(reader, options.subagents));
    return;
  }
  const subagents = options.subagents ? await reader.subagents() : [];
  if (options.tree) {
    for (const sub of [reader, ...subagents]) {
      const tree = await sub.tree();
      for (const branch of tree.branches) {
        if (out.closed) return;
        await out.write({ session_id: reader.sessionId, ...(sub.agentId !== undefined ? { agent_id: sub.agentId } : {}), ...branch });
      }
    }
    return;
  }
  for (const source of [reader, ...subagents]) {
    for await (const text of source.ndjson((event, error) => out.unwritable(event, error))) {
      if (out.closed) return;
      await out.writeText(text);
    }
  }
}
