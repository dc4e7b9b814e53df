// Worker threads for `read`'s two passes over a big transcript (read-worker.ts). The main thread reads the
// file a chunk at a time and hands each chunk's lines to the next worker; the results come back in file
// order and the main thread settles them there: in the first pass it decodes the heads the workers scanned
// and builds the branch index; in the second it decides which events carry their response's model and usage,
// gives the once-only warnings and carries the mapper's state on (see second-pass.ts).
import type { Worker } from 'node:worker_threads';
import type { MapperCarry } from './map-record.js';
import { ThreadPool, WorkerLost } from '../../../util/thread-pool.js';

/** What every worker of one transcript's read is told once. */
export interface WorkerSettings {
  includeEvents: boolean;
  agentId?: string;
  /** The project directory spilled output is looked for in; unset: pointers are kept. */
  spillDir?: string;
}

/** Line flags in a task's line table. */
export const LINE_OVER_LONG = 1;
export const LINE_INVALID_UTF8 = 2;
export const LINE_LAST = 4;
/** Int32s per line in a task's line table: number, start, end (for an over-long line: -1, its byte count), flags. */
export const LINE_INTS = 4;

/**
 * The lines of one chunk: their bytes, and a line table into them. `heads`: scan each record's head (first
 * pass); `map`: map the records to NDJSON (second pass; only the lines on the branch are sent). Both lie in
 * SharedArrayBuffers: the worker reads them where they are, and this thread keeps them, so it can handle the
 * chunk itself whatever becomes of the worker.
 */
export interface ChunkTask {
  kind: 'heads' | 'map';
  seq: number;
  bytes: Uint8Array;
  lines: Int32Array;
}

/** A worker's first-pass reply: HEAD_INTS per line (record-head.ts), the first of them -1 for a line to parse. */
export interface HeadsReply {
  kind: 'heads';
  seq: number;
  /** Transferred. */
  heads: Int32Array;
}

/** A warning a worker met, in order; `key` for a once-only one. */
export interface MapLog {
  line: number;
  message: string;
  key?: string;
}

/**
 * A worker's second-pass reply: NDJSON bytes with holes where an event's model and usage would go, in order;
 * or `ok: false` when the main thread must map the chunk.
 */
export type MapReply = {
  kind: 'map';
  seq: number;
  ok: true;
  /** In a buffer the worker allocated for this reply alone, transferred. */
  bytes: Uint8Array;
  /** Byte offsets of the holes. */
  holes: Int32Array;
  /** The response id of each hole. */
  ids: string[];
  /** What each hole may get, as JSON members with their leading comma: its model, then its usage. */
  fills: string;
  /** Two per hole: the lengths of its model and usage members in `fills`, -1 when it can have none. */
  fillLengths: Int32Array;
  logs: MapLog[];
  carry: MapperCarry;
  /** A record without a usable time took the time from before the chunk. */
  leaned: boolean;
} | { kind: 'map'; seq: number; ok: false };

export type ChunkReply = HeadsReply | MapReply;

/** A reply with the task it answers (this thread's own). Heads empty: the main thread scans the chunk. */
export type HeadsResult = HeadsReply & { task: ChunkTask };
export type MapResult = MapReply & { task: ChunkTask };
export type ChunkResult = HeadsResult | MapResult;

/** Old generation of a worker, in MB. */
const WORKER_OLD_MB = 64;

/**
 * A few workers, each handling the chunks it is given in the order it gets them. When one fails (cannot
 * start, throws, runs out of memory, exits), all are stopped and every task given out and not answered
 * resolves as not handled: the main thread handles it, and every later one, itself (`onFailure` says so once).
 */
export class WorkerPool {
  private readonly pool: ThreadPool<ChunkTask, ChunkReply>;
  private seq = 0;

  /**
   * The workers start with the first task (a transcript of a few huge records never needs them).
   * @param onFailure called once, with what happened, when a worker fails (not when the pool is closed)
   */
  constructor(url: URL, readonly size: number, settings: WorkerSettings, onFailure: (message: string) => void) {
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
  get workers(): readonly { worker: Worker }[] {
    return this.pool.workers;
  }

  /** Handle one chunk on the next worker; `bytes` must lie in a SharedArrayBuffer (see ChunkTask). */
  run(kind: 'heads', bytes: Uint8Array, lines: Int32Array): Promise<HeadsResult>;
  run(kind: 'map', bytes: Uint8Array, lines: Int32Array): Promise<MapResult>;
  async run(kind: 'heads' | 'map', bytes: Uint8Array, lines: Int32Array): Promise<ChunkResult> {
    const task: ChunkTask = { kind, seq: this.seq, bytes, lines };
    this.seq += 1;
    if (this.broken) return unhandled(task);
    // The bytes and the line table are shared: nothing moves.
    const reply = await this.pool.run(task, []);
    // Every task given out is still this thread's (the bytes were shared, not handed over): it handles them.
    return reply instanceof WorkerLost ? unhandled(task) : { ...reply, task } as ChunkResult;
  }

  /** Stop the workers (what they still hold is dropped). */
  close(): void {
    void this.pool.close();
  }
}

/** The result of a task no worker handled: the main thread handles it. */
function unhandled(task: ChunkTask): ChunkResult {
  return task.kind === 'heads'
    ? { kind: 'heads', seq: task.seq, task, heads: new Int32Array(0) }
    : { kind: 'map', seq: task.seq, task, ok: false };
}
