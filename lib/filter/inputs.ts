// The filter's inputs: stdin, or files named on the command line read in order as one stream (as cat does),
// each opened as it is reached, split into line batches (one per chunk read, each line numbered within its
// own input). A file that cannot be read is reported and the others are read.
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { knownFromHead, LOOK_BYTES } from '../input/binary.js';
import { unsupportedInput } from '../agents/input-formats.js';
import { openInputPath } from '../input/file-input.js';
import { LineSplitter, type LineBatch } from '../lines/lines.js';
import { cannotBeRead } from '../util/fs-errors.js';
import type { FilterSession } from './session.js';
import type { FilterIO, FilterOptions } from './types.js';

/** The lines of one chunk of one input, and the input's name for diagnostics. */
export interface InputBatch extends LineBatch {
  name: string;
}

/** One input, open: stdin, or a file named on the command line. */
export interface OpenInput {
  /** The name its lines are reported under. */
  name: string;
  /** Its bytes (undefined: nothing more to read, stdin named a second time). */
  stream: Readable | undefined;
  close?(): Promise<void>;
}

export class FilterInputs {
  /** The input being read (the last one, at the end): where what is not a line's is located. */
  current: string;
  private readonly sources: string[];
  private stdinTaken = false;
  /** The stream being read: an abort destroys it, which is what wakes a read waiting on it. */
  private reading: Readable | undefined;

  constructor(
    private readonly options: FilterOptions,
    private readonly io: FilterIO,
    private readonly session: FilterSession,
    private readonly inputName: string,
  ) {
    this.current = inputName;
    this.sources = options.files !== undefined && options.files.length > 0 ? options.files : ['-'];
    io.signal?.addEventListener('abort', () => this.reading?.destroy(), { once: true });
  }

  /** Every input in turn, as line batches: one per chunk read, each line numbered within its own input. */
  async* batches(): AsyncGenerator<InputBatch> {
    const { io, options } = this;
    for (let i = 0; i < this.sources.length; i += 1) {
      if (io.signal?.aborted) return;
      const input = await this.open(this.sources[i]!);
      if (!input) continue;
      this.current = input.name;
      this.reading = input.stream;
      const splitter = new LineSplitter(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {});
      // The input's start is held until it is known whether it is binary (said once, not as a bad line per
      // newline in it): a first line of text, a `{"`, or a KiB.
      let head: Buffer[] | undefined = [];
      let headBytes = 0;
      const decide = (): Buffer | undefined => {
        const held = Buffer.concat(head!);
        head = undefined;
        const unsupported = unsupportedInput(held);
        if (unsupported === undefined) return held;
        this.session.result.code = 1;
        this.session.unsupported = true;
        this.session.report(`${input.name}: ${unsupported}`);
        return undefined;
      };
      let refused = false;
      try {
        for await (const chunk of input.stream ?? []) {
          let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk as Buffer;
          if (head !== undefined) {
            head.push(buf);
            headBytes += buf.length;
            if (headBytes < LOOK_BYTES && !knownFromHead(Buffer.concat(head))) continue;
            const held = decide();
            if (held === undefined) {
              refused = true;
              break;
            }
            buf = held;
          }
          yield { lines: splitter.push(buf), chunk: buf, name: input.name };
        }
        if (head !== undefined && headBytes > 0) {
          const held = decide();
          if (held === undefined) refused = true;
          else yield { lines: splitter.push(held), chunk: held, name: input.name };
        }
        if (refused) continue;
        const last = splitter.end();
        if (last.length > 0) yield { lines: last, chunk: undefined, name: input.name };
      } catch (error) {
        // The read an abort destroyed ends here (Node 22+ says "Premature close"): the signal is the news.
        if (io.signal?.aborted) return;
        // A file that fails part way (EIO) is reported like one that cannot be opened; the next is read.
        if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
        this.cannotRead(input.name, error);
      } finally {
        await input.close?.();
      }
    }
  }

  /** Open input `source` (`-`: stdin); undefined when it cannot be read (said, and the run exits 1). */
  private async open(source: string): Promise<OpenInput | undefined> {
    if (source === '-') {
      // Read once: `-` named again reads nothing more, as cat's second `-` meets end of file.
      const taken = this.stdinTaken;
      this.stdinTaken = true;
      const { io } = this;
      return { name: this.inputName, stream: taken ? undefined : io.stdin };
    }
    try {
      return await openInputFile(resolve(this.options.processCwd, source), source);
    } catch (error) {
      this.cannotRead(source, error);
      return undefined;
    }
  }

  private cannotRead(name: string, error: unknown): void {
    this.session.result.code = 1;
    this.session.report(`${name}: ${cannotBeRead(error)}`);
  }
}

/** Open an input file (lib/input/file-input.ts: a FIFO never holds this thread or the thread pool). */
async function openInputFile(path: string, name: string): Promise<OpenInput> {
  const opened = openInputPath(path);
  return { name, stream: opened.stream, close: async () => opened.close() };
}
