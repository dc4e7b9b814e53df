// `asyncai-log read` of anything the filter reads: a file or stream is recognised from its first line that is
// JSON as the filter recognises it (lib/agents/input-formats.ts); a damaged first line does not hide what follows it.
// A transcript with a reader of its own (Claude Code's, pi's: see `Agent.transcripts`) goes to that
// reader (which reads a file twice: a stream is first kept in a private temporary file); any other format
// (Codex rollouts, `codex exec --json`, Claude stream-json, generic events) goes through the filter's input
// adapter and comes out as the same generic events, line by line.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { readAsTranscript } from '../agents/index.js';
import { normalizeEvent, type GenericEvent } from '../events.js';
import { knownFromHead, LOOK_BYTES } from '../input/binary.js';
import { unsupportedInput } from '../agents/input-formats.js';
import { detectInputFormat } from '../agents/input-formats.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, type Line } from '../lines/lines.js';
import { LineValues, type LineValue } from '../input/pretty-document.js';
import { InputError, type InputFormat } from '../input/types.js';
import { makeTempDir, removeTempDir } from '../util/temp-dirs.js';

/** Bytes read at a time while looking for the first line. */
const HEAD_CHUNK_BYTES = 64 * 1024;

/** How far past a first line that is not JSON the first value is looked for (a damaged head, not a file of noise). */
const PAST_BAD_HEAD_BYTES = 1024 * 1024;

/**
 * The format to read with an input adapter when the first non-blank line parsed to `value`; undefined for a
 * transcript with a reader of its own and for what matches no format (the transcript reader reads it and says
 * what is wrong). A first line read as generic events must be a valid event: the records Claude Code writes first
 * (`summary`, `queue-operation`, ...) are objects with a string `type` too.
 */
export function adaptedFormat(value: unknown): InputFormat | undefined {
  const format = detectInputFormat(value);
  if (!format || readAsTranscript(format.name)) return undefined;
  if (format.name === 'events' && !normalizeEvent(value, new Date(0).toISOString()).ok) return undefined;
  return format;
}

/** The input format of a transcript with a reader of its own whose first line parsed to `value`, or undefined. */
export function transcriptInput(value: unknown): string | undefined {
  const format = detectInputFormat(value);
  return format && readAsTranscript(format.name) ? format.name : undefined;
}

/**
 * Feeds lines to `values` until the first value is complete: the first line's that is JSON (a damaged line
 * before it is the reader's to report, the filter's way), or a pretty-printed document's that opens the input.
 */
class FirstValue {
  private readonly values: LineValues;
  result: LineValue | undefined;
  /** Bytes of the lines read after a first line that is not JSON. */
  private pastBad: number | undefined;

  constructor(maxLineBytes: number) {
    this.values = new LineValues(maxLineBytes);
  }

  /** Lines read; true once the first value is known, or that there is none to know. */
  push(lines: readonly Line[]): boolean {
    for (const line of lines) {
      if (this.pastBad !== undefined && (this.pastBad += line.bytes) > PAST_BAD_HEAD_BYTES) return true;
      const read = this.values.next(line);
      if (!read) continue;
      if ('value' in read || this.values.opened) {
        this.result = read;
        return true;
      }
      this.pastBad ??= 0;
    }
    return false;
  }

  /** The first value, or undefined (none, too long, not JSON). */
  get value(): unknown {
    return this.result && 'value' in this.result ? this.result.value : undefined;
  }

  /**
   * The input ended (or was looked at as far as it may be): the diagnostic, located, of a pretty-printed
   * document that opened it and gave no value (cut short, not JSON, too long). Such input is nobody's.
   */
  documentProblem(ended: boolean, maxLineBytes: number): string | undefined {
    const open = this.values.end();
    // Looked at no further than the limit: the document is longer than that.
    if (open && !ended) return `${open.no}: JSON document over the limit of ${maxLineBytes} bytes`;
    if (open) return `${open.no}: ${open.bad}`;
    return this.values.opened && this.result && 'bad' in this.result ? `${this.result.no}: ${this.result.bad}` : undefined;
  }
}

/**
 * What the file at `path` is: `adapted` with its format, `transcript` (a Claude Code transcript, or a file
 * the transcript reader should look at and report on), or `stream` (a FIFO or device: read once, as stdin).
 */
export function sniffFile(path: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES):
  { kind: 'adapted'; format: InputFormat; input?: undefined } | { kind: 'transcript'; input?: string } | { kind: 'stream'; input?: undefined } | { kind: 'bad'; message: string; input?: undefined } {
  let fd: number;
  try {
    // Never blocking on a FIFO: whatever it is, it is only looked at here.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { kind: 'transcript' };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isCharacterDevice() || stat.isSocket()) return { kind: 'stream' };
    if (!stat.isFile()) return { kind: 'transcript' };
    const splitter = new LineSplitter({ maxLineBytes });
    const buf = Buffer.allocUnsafe(HEAD_CHUNK_BYTES);
    const first = new FirstValue(maxLineBytes);
    let ended = false;
    for (let read = 0; ; read += HEAD_CHUNK_BYTES) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const unsupported = read === 0 ? unsupportedInput(buf.subarray(0, n)) : undefined;
      if (unsupported !== undefined) return { kind: 'bad', message: `${path}: ${unsupported}` };
      ended = n === 0;
      // A value is looked for no further than the longest line accepted (+ one chunk).
      if (first.push(ended ? splitter.end() : splitter.push(Buffer.from(buf.subarray(0, n))))) break;
      if (ended || read > maxLineBytes) break;
    }
    const problem = first.documentProblem(ended, maxLineBytes);
    if (problem !== undefined) return { kind: 'bad', message: `${path}:${problem}` };
    const format = adaptedFormat(first.value);
    if (format) return { kind: 'adapted', format };
    const input = transcriptInput(first.value);
    return input !== undefined ? { kind: 'transcript', input } : { kind: 'transcript' };
  } catch {
    return { kind: 'transcript' };
  } finally {
    closeSync(fd);
  }
}

/** A stream looked at up to its first non-blank line: what it is, and all of its bytes still to be read. */
export interface StreamHead {
  format: InputFormat | undefined;
  /** The input format of a transcript with a reader of its own (undefined: the first reader's to look at). */
  transcript: string | undefined;
  /** The first line's value held a Claude Code `sessionId` (the name a kept copy gets). */
  sessionId: string | undefined;
  /** A pretty-printed document opened the stream and gave no value: where and why (`<line>: <message>`). */
  problem?: string;
  /** The stream is binary: what it looks like (`not a supported input: ...`). */
  unsupported?: string;
  chunks: AsyncIterable<Buffer>;
}

/** Read `stream` up to its first non-blank line (holding only what came before it) and say what it is. */
export async function sniffStream(stream: AsyncIterable<Buffer | string>, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<StreamHead> {
  const iterator = stream[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  const splitter = new LineSplitter({ maxLineBytes });
  const first = new FirstValue(maxLineBytes);
  let ended = false;
  let heldBytes = 0;
  let unsupported: string | undefined;
  let told = false;
  // Held no further than the longest line accepted: a first value longer than that is the reader's to report.
  while (heldBytes <= maxLineBytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      first.push(splitter.end());
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    held.push(chunk);
    if (!told && (heldBytes + chunk.length >= LOOK_BYTES || knownFromHead(Buffer.concat(held)))) {
      told = true;
      unsupported = unsupportedInput(Buffer.concat(held));
      if (unsupported !== undefined) break;
    }
    heldBytes += chunk.length;
    if (first.push(splitter.push(chunk))) break;
  }
  if (!told) unsupported = unsupportedInput(Buffer.concat(held));
  const value = first.value;
  const problem = first.documentProblem(ended, maxLineBytes);
  const id = (value as { sessionId?: unknown } | undefined)?.sessionId;
  async function* chunks(): AsyncGenerator<Buffer> {
    yield* held;
    held.length = 0;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  return {
    format: adaptedFormat(value),
    transcript: transcriptInput(value),
    sessionId: typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id) ? id : undefined,
    ...(problem !== undefined ? { problem } : {}),
    ...(unsupported !== undefined ? { unsupported } : {}),
    chunks: chunks(),
  };
}

/**
 * Keep a stream in a new private file (`<dir>/<name>.jsonl`, directory 0700, file 0600, under `tmpdir`) so
 * the transcript reader can read it twice; `remove` deletes both.
 */
export async function keepStream(chunks: AsyncIterable<Buffer>, name: string, tmpdir: string): Promise<{ path: string; remove: () => Promise<void> }> {
  // Listed while it exists: a signal that ends the process removes it too (lib/util/temp-dirs.ts).
  const dir = makeTempDir(tmpdir, 'asyncai-log-read-');
  const remove = () => removeTempDir(dir);
  try {
    const path = join(dir, `${name}.jsonl`);
    const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      for await (const chunk of chunks) {
        for (let at = 0; at < chunk.length;) at += (await file.write(chunk, at, chunk.length - at)).bytesWritten;
      }
    } finally {
      await file.close();
    }
    return { path, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

export interface AdaptedReadOptions {
  /** What diagnostics call the input (`stdin`, the file's path). */
  name: string;
  /** Also print `context` events (the adapters make them from the agent's own context). */
  events: boolean;
  maxLineBytes?: number;
  /** Write one chunk's events (in order); resolves when more may be written. */
  write(events: GenericEvent[]): Promise<void>;
  /** True once the output is closed: reading stops. */
  closed(): boolean;
  /** One located diagnostic, without the program prefix. */
  report(message: string): void;
  /** Optional: each parsed line (or document), before its adapter maps it (`read --inspect` counts its records). */
  onValue?(value: unknown): void;
  /** Optional: each line (or document) that gave no value (not JSON, over the limit), besides its report. */
  onBad?(): void;
}

/**
 * Print a stream of `format` as generic events: each line through the format's adapter, as the filter
 * maps it. Bad lines are reported (`<name>:<line>: ...`) and skipped.
 */
export async function readAdapted(chunks: AsyncIterable<Buffer>, format: InputFormat, options: AdaptedReadOptions): Promise<void> {
  const adapter = format.create();
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitter = new LineSplitter({ maxLineBytes: max });
  const values = new LineValues(max);
  const wanted = (event: GenericEvent) => options.events || event.type !== 'context';
  const map = (lines: readonly (Line | undefined)[], now: string): GenericEvent[] => {
    const out: GenericEvent[] = [];
    for (const line of lines) {
      // undefined: the input ended (a document left open is reported).
      const read: LineValue | undefined = line ? values.next(line) : values.end();
      if (!read) continue;
      if (read.before) {
        options.report(`${options.name}:${read.before.no}: ${read.before.bad}`);
        options.onBad?.();
      }
      const where = `${options.name}:${read.no}`;
      if ('bad' in read) {
        options.report(`${where}: ${read.bad}`);
        options.onBad?.();
        continue;
      }
      options.onValue?.(read.value);
      try {
        for (const event of adapter.map(read.value, now, (message) => options.report(`${where}: ${message}`))) {
          if (wanted(event)) out.push(event);
        }
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        options.report(`${where}: ${error.message}`);
      }
    }
    return out;
  };
  for await (const chunk of chunks) {
    if (options.closed()) return;
    await options.write(map(splitter.push(chunk), new Date().toISOString()));
  }
  const now = new Date().toISOString();
  const last = map([...splitter.end(), undefined], now);
  last.push(...adapter.end(now, (message) => options.report(`${options.name}: ${message}`)).filter(wanted));
  await options.write(last);
}
