// Worker threads for `read`'s two passes over a big transcript (read-worker.ts). The main thread reads the
// file a chunk at a time and hands each chunk's lines to the next worker; the results come back in file
// order and the main thread settles them there: in the first pass it decodes the heads the workers scanned
// and builds the branch index; in the second it decides which events carry their response's model and usage,
// gives the once-only warnings and carries the mapper's state on (see second-pass.ts).
import { Worker } from 'node:worker_threads';
import type { MapperCarry } from './map-record.js';
import { startWithSemiSpace } from '../../../util/worker-heap.js';

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
  /** A reply buffer of this kind the main thread is done with, handed over (transferred) for this task's reply. */
  spare?: ArrayBuffer;
}

/** A worker's first-pass reply: HEAD_INTS per line (record-head.ts), the first of them -1 for a line to parse. */
export interface HeadsReply {
  kind: 'heads';
  seq: number;
  /** In the task's spare buffer if it was big enough, else in one allocated for it; transferred. */
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

/**
 * Semi-spaces of a worker, in MB: 1, where the process's other isolates have 4. A worker's young garbage is
 * one chunk's records at a time: a lower peak RSS for a long read at the same speed (figures:
 * docs/performance.md).
 */
const WORKER_SEMI_SPACE_MB = 1;

/** Heap limits of a worker, in MB (the young generation is two semi-spaces: lib/util/worker-heap.ts). */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 2 * WORKER_SEMI_SPACE_MB };

/**
 * A few workers, each handling the chunks it is given in the order it gets them. When one fails (cannot
 * start, throws, runs out of memory, exits), all are stopped and every task given out and not answered
 * resolves as not handled: the main thread handles it, and every later one, itself (`onFailure` says so once).
 */
export class WorkerPool {
  private readonly workers: { worker: Worker; ready: boolean; queued: ChunkTask[] }[] = [];
  /** Tasks given out, by sequence number. */
  private readonly waiting = new Map<number, { task: ChunkTask; done: (result: ChunkResult) => void }>();
  private next = 0;
  private seq = 0;
  /** Set once a worker failed or the pool was closed: no task goes to a worker any more. */
  broken = false;
  /** Reply buffers given back, by kind, handed to the next tasks of that kind to be filled again. */
  private readonly spares = { heads: [] as ArrayBuffer[], map: [] as ArrayBuffer[] };

  /**
   * The workers start with the first task (a transcript of a few huge records never needs them).
   * @param onFailure called once, with what happened, when a worker fails (not when the pool is closed)
   */
  constructor(
    private readonly url: URL, readonly size: number, private readonly settings: WorkerSettings,
    private readonly onFailure: (message: string) => void,
  ) {}

  /** Whether the workers were started (by a first task). */
  get started(): boolean {
    return this.workers.length > 0;
  }

  private start(): void {
    const { url, settings } = this;
    // Small heaps: a worker holds one chunk at a time (records over a megabyte stay on the main thread), and
    // two workers with the default heap sizes more than doubled the peak RSS of a read.
    const workers = startWithSemiSpace(WORKER_SEMI_SPACE_MB, () => Array.from(
      { length: this.size }, () => new Worker(url, { workerData: settings, resourceLimits: WORKER_HEAP }),
    ));
    for (const worker of workers) {
      const slot = { worker, ready: false, queued: [] as ChunkTask[] };
      worker.on('message', (message: ChunkReply | { ready: true }) => {
        if ('ready' in message) {
          // Tasks wait here until the worker has started.
          slot.ready = true;
          for (const task of slot.queued) this.post(worker, task);
          slot.queued = [];
          return;
        }
        const waiting = this.waiting.get(message.seq);
        this.waiting.delete(message.seq);
        waiting?.done({ ...message, task: waiting.task } as ChunkResult);
      });
      worker.on('error', (error) => this.fail(`a worker thread failed: ${error.message}`));
      worker.on('exit', (code) => this.fail(`a worker thread exited (code ${code})`));
      // A reply that cannot be read here would leave its task waiting for ever.
      worker.on('messageerror', (error) => this.fail(`a worker thread's reply could not be read: ${error.message}`));
      this.workers.push(slot);
    }
  }

  /** Handle one chunk on the next worker; `bytes` must lie in a SharedArrayBuffer (see ChunkTask). */
  run(kind: 'heads', bytes: Uint8Array, lines: Int32Array): Promise<HeadsResult>;
  run(kind: 'map', bytes: Uint8Array, lines: Int32Array): Promise<MapResult>;
  run(kind: 'heads' | 'map', bytes: Uint8Array, lines: Int32Array): Promise<ChunkResult> {
    const task: ChunkTask = { kind, seq: this.seq, bytes, lines };
    const spare = this.spares[kind].pop();
    if (spare !== undefined) task.spare = spare;
    this.seq += 1;
    if (this.broken) return Promise.resolve(unhandled(task));
    if (!this.started) this.start();
    return new Promise((resolve) => {
      this.waiting.set(task.seq, { task, done: resolve });
      const slot = this.workers[this.next % this.workers.length]!;
      this.next += 1;
      if (slot.ready) this.post(slot.worker, task);
      else slot.queued.push(task);
    });
  }

  private post(worker: Worker, task: ChunkTask): void {
    // The bytes and the line table are shared; only a spare reply buffer moves.
    worker.postMessage(task, task.spare !== undefined ? [task.spare] : []);
  }

  /**
   * A reply's buffer the main thread is done with (nothing refers to it any more): the next reply of its kind
   * is written into it. A buffer allocated per reply on a worker and freed here, on another thread, left the
   * allocator's per-thread arenas fragmented, and RSS grew over a long read.
   */
  giveBack(kind: ChunkTask['kind'], buffer: ArrayBuffer): void {
    const spares = this.spares[kind];
    if (spares.length < this.size + 1) spares.push(buffer);
  }

  private fail(message: string): void {
    if (this.broken) return;
    this.onFailure(message);
    this.stop();
    // Every task given out is still this thread's (the bytes were shared, not handed over): it handles them.
    for (const { task, done } of this.waiting.values()) done(unhandled(task));
    this.waiting.clear();
  }

  private stop(): void {
    this.broken = true;
    for (const slot of this.workers) {
      slot.queued = [];
      // Its listeners stay: the exit this causes, or an error it still reports while it stops, is one already
      // answered for (fail does nothing once the pool is broken). They are not removed, as the exit is also
      // what sets V8's flag back when a worker is stopped before it came online (startWithSemiSpace).
      void slot.worker.terminate();
    }
  }

  /** Stop the workers (what they still hold is dropped). */
  close(): void {
    if (!this.broken) this.stop();
    this.waiting.clear();
  }
}

/** The result of a task no worker handled: the main thread handles it. */
function unhandled(task: ChunkTask): ChunkResult {
  return task.kind === 'heads'
    ? { kind: 'heads', seq: task.seq, task, heads: new Int32Array(0) }
    : { kind: 'map', seq: task.seq, task, ok: false };
}
