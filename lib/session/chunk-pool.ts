// A file's chunks on their way to worker threads and back, in order: the one ordered pool a reader of big
// session files starts from. The main thread reads the file a chunk at a time (lib/lines/file-lines.ts) and
// hands each chunk's wanted lines, copied once into shared memory, to the next worker of a ThreadPool
// (lib/util/thread-pool.ts); the results come back in file order, one chunk per worker in flight and one
// more, so memory stays flat whatever the consumer does. The main thread keeps every chunk it handed out: when
// a worker fails, it handles the chunk itself. What a worker does with a chunk is the format's (Claude Code's
// read: lib/agents/claude-code-cli/reader/read-worker.ts).
import type { FileLine } from '../lines/file-lines.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

/** Line flags in a task's line table. */
export const LINE_OVER_LONG = 1;
export const LINE_INVALID_UTF8 = 2;
export const LINE_LAST = 4;
/** Int32s per line in a task's line table: number, start, end (for an over-long line: -1, its byte count), flags. */
export const LINE_INTS = 4;

/**
 * The lines of one chunk: their bytes, and a line table into them, for the work `kind` names. Both lie in
 * SharedArrayBuffers: the worker reads them where they are, and this thread keeps them, so it can handle the
 * chunk itself whatever becomes of the worker.
 */
export interface ChunkTask<K extends string = string> {
  kind: K;
  seq: number;
  bytes: Uint8Array;
  lines: Int32Array;
}

/** A file read a chunk at a time, as a pass over it reads it. */
export interface ChunkedLines<L extends FileLine> {
  /** Bytes read at a time. */
  readonly chunkBytes: number;
  /** Read one chunk, hand over the lines it completes, then call onChunkEnd; false once the file is done. */
  readChunk(onLine: (line: L) => void, onChunkEnd: () => void): boolean;
  /** Keep the bytes of this chunk's lines valid after it (see FileLines.keepBuffer). */
  keepBuffer(): void;
}

/** Old generation of a chunk worker, in MB. */
const WORKER_OLD_MB = 64;

/**
 * A few workers, each handling the chunks it is given in the order it gets them. When one fails (cannot
 * start, throws, runs out of memory, exits), all are stopped and every task given out and not answered
 * resolves as `unhandled` says: the main thread handles it, and every later one, itself (`onFailure` says so once).
 * `R`: a worker's reply, with the task it answers.
 */
export class ChunkPool<K extends string, R> {
  private readonly pool: ThreadPool<ChunkTask<K>, R>;
  private seq = 0;

  /**
   * The workers (of module `url`, told `settings` once) start with the first task: a file of a few huge
   * records never needs them.
   * @param unhandled what a task no worker answered resolves to (the main thread then handles it)
   * @param onFailure called once, with what happened, when a worker fails (not when the pool is closed)
   */
  constructor(
    url: URL, readonly size: number, settings: unknown,
    private readonly unhandled: (task: ChunkTask<K>) => R & { task: ChunkTask<K> }, onFailure: (message: string) => void,
  ) {
    // Small heaps: a worker holds one chunk at a time (records over a megabyte stay on the main thread), and
    // two workers with the default heap sizes more than doubled the peak RSS of a read.
    this.pool = new ThreadPool(url, {
      size, workerData: settings, oldMb: WORKER_OLD_MB, onLoss: 'stop',
      lost: (loss) => onFailure(loss.how === 'exit' ? `a worker thread exited (code ${loss.code})`
        : loss.how === 'error' ? `a worker thread failed: ${loss.error?.message}`
          : `a worker thread's reply could not be read: ${loss.error?.message}`),
    });
  }

  /** Whether the workers were started (by a first task). */
  get started(): boolean {
    return this.pool.started;
  }

  /** Set once a worker failed or the pool was closed: no task goes to a worker any more. */
  get broken(): boolean {
    return this.pool.broken !== undefined || this.pool.closed;
  }

  /** The workers (started by the first task). */
  get workers(): readonly { worker: import('node:worker_threads').Worker }[] {
    return this.pool.workers;
  }

  /** Handle one chunk on the next worker; `bytes` must lie in a SharedArrayBuffer (see ChunkTask). */
  async run(kind: K, bytes: Uint8Array, lines: Int32Array): Promise<R & { task: ChunkTask<K> }> {
    const task: ChunkTask<K> = { kind, seq: this.seq, bytes, lines };
    this.seq += 1;
    if (this.broken) return this.unhandled(task);
    // The bytes and the line table are shared: nothing moves.
    const reply = await this.pool.run(task, []);
    // Every task given out is still this thread's (the bytes were shared, not handed over): it handles them.
    return reply instanceof WorkerLost ? this.unhandled(task) : { ...reply, task };
  }

  /** Stop the workers (what they still hold is dropped). */
  close(): void {
    void this.pool.close();
  }
}

/** Lines longer than this are handled on the main thread (a worker's heap is kept small: see ChunkPool). */
export const WORKER_MAX_LINE_BYTES = 1024 * 1024;

/**
 * Read the file a chunk at a time, hand each chunk's wanted lines to the pool, and yield the results in
 * file order (one chunk per worker in flight and one more). A chunk holding a line over WORKER_MAX_LINE_BYTES,
 * and a small chunk before the workers started, are the main thread's: they come back as `unhandled`, with the
 * bytes of the buffer they were read into (kept for them, not copied).
 */
export async function* pipeline<K extends string, R, L extends FileLine>(
  file: ChunkedLines<L>, pool: ChunkPool<K, R>, kind: K, wanted: (line: L) => boolean,
  unhandled: (task: ChunkTask<K>) => R & { task: ChunkTask<K> },
): AsyncGenerator<R & { task: ChunkTask<K> }> {
  const chunk = new ChunkBuilder();
  const inFlight: Promise<R & { task: ChunkTask<K> }>[] = [];
  let task: { bytes: Uint8Array; lines: Int32Array } | undefined;
  const onLine = (line: L) => {
    if (wanted(line)) chunk.add(line);
  };
  let local = false;
  const onChunkEnd = () => {
    local = chunk.longest > WORKER_MAX_LINE_BYTES;
    // Nor is a small chunk worth starting the workers for (before they are needed, they cost memory only).
    const small = !pool.started && chunk.bytes < file.chunkBytes / 4;
    task = chunk.take(!local && !small);
    local ||= small;
    if (local && task !== undefined) file.keepBuffer();
  };
  let more = true;
  while (more) {
    more = file.readChunk(onLine, onChunkEnd);
    if (task !== undefined) {
      inFlight.push(local ? Promise.resolve(unhandled({ kind, seq: -1, ...task })) : pool.run(kind, task.bytes, task.lines));
      task = undefined;
    }
    while (inFlight.length > (more ? pool.size + 1 : 0)) {
      const result = await inFlight.shift()!;
      yield result;
    }
  }
}

/**
 * The wanted lines of one chunk, copied in one piece when the chunk is done into shared memory: a worker
 * reads them there, and this thread still has them if it must handle the chunk itself.
 */
class ChunkBuilder {
  /** The longest line added since the last take. */
  longest = 0;
  /** Bytes of the lines added since the last take. */
  bytes = 0;
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
    this.bytes += line.end - line.start;
    if (line.end - line.start > this.longest) this.longest = line.end - line.start;
  }

  /**
   * The chunk's bytes and line table (undefined when no line was wanted); the builder starts over. `share`:
   * copied into shared memory for a worker; else a view of the buffer they were read into (to be kept).
   */
  take(share: boolean): { bytes: Uint8Array; lines: Int32Array } | undefined {
    if (this.lines.length === 0) return undefined;
    const size = this.to - this.from;
    let bytes: Uint8Array;
    if (!share) {
      bytes = this.source !== undefined ? this.source.subarray(this.from, this.to) : new Uint8Array(0);
    } else {
      bytes = new Uint8Array(new SharedArrayBuffer(size));
      if (this.source !== undefined) bytes.set(this.source.subarray(this.from, this.to));
    }
    const table = this.lines;
    const lines = share ? new Int32Array(new SharedArrayBuffer(table.length * 4)) : new Int32Array(table.length);
    for (let i = 0; i < table.length; i += LINE_INTS) {
      const overLong = table[i + 1]! < 0;
      lines[i] = table[i]!;
      lines[i + 1] = overLong ? table[i + 1]! : table[i + 1]! - this.from;
      lines[i + 2] = overLong ? table[i + 2]! : table[i + 2]! - this.from;
      lines[i + 3] = table[i + 3]!;
    }
    this.lines = [];
    this.source = undefined;
    this.from = 0;
    this.to = 0;
    this.longest = 0;
    this.bytes = 0;
    return { bytes, lines };
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * The lines of a task, as the file's pass made them: one object, reused, `line` itself when given (a format's
 * line type with fields of its own, which do not travel with the chunk).
 */
export function forEachTaskLine<L extends FileLine = FileLine>(
  task: ChunkTask, onLine: (line: L, index: number) => void, line = { no: 0, start: 0, end: 0, bytes: 0, overLong: false, invalidUtf8: false, last: false } as L,
): void {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const { lines } = task;
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
