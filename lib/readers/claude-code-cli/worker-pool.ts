// Worker threads for `read`'s two passes over a big transcript (read-worker.ts). The main thread reads the
// file a chunk at a time and hands each chunk's lines to the next worker; the results come back in file
// order and the main thread settles them there: in the first pass it decodes the heads the workers scanned
// and builds the branch index; in the second it decides which events carry their response's model and usage,
// gives the once-only warnings and carries the mapper's state on (see reader.ts).
import { Worker } from 'node:worker_threads';
import type { MapperCarry } from './map-record.js';

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
 * pass); `map`: map the records to NDJSON (second pass; only the lines on the branch are sent).
 */
export interface ChunkTask {
  kind: 'heads' | 'map';
  seq: number;
  bytes: Uint8Array;
  lines: Int32Array;
}

/** A first-pass chunk: HEAD_INTS per line (record-head.ts), the first of them -1 for a line to parse. */
export interface HeadsResult {
  kind: 'heads';
  seq: number;
  task: ChunkTask;
  heads: Int32Array;
}

/** A warning a worker met, in order; `key` for a once-only one. */
export interface MapLog {
  line: number;
  message: string;
  key?: string;
}

/**
 * A second-pass chunk: NDJSON bytes with holes where an event's model and usage would go, in order; or
 * `ok: false` when the main thread must map it. The task comes back either way (transferred, not copied).
 */
export type MapResult = {
  kind: 'map';
  seq: number;
  task: ChunkTask;
  ok: true;
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
} | { kind: 'map'; seq: number; task: ChunkTask; ok: false };

export type ChunkResult = HeadsResult | MapResult;

/** Heap limits of a worker, in MB. */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };

/** A task a worker did not give back: its buffers went with it (the worker died). */
export function isLost(task: ChunkTask): boolean {
  return task.lines.length === 0;
}

/** A few workers, each handling the chunks it is given in the order it gets them. */
export class WorkerPool {
  private readonly workers: { worker: Worker; ready: boolean; queued: ChunkTask[] }[] = [];
  /** Tasks given out, by sequence number; a worker that dies gives its tasks back through `fail`. */
  private readonly waiting = new Map<number, { task: ChunkTask; done: (result: ChunkResult) => void }>();
  private next = 0;
  private seq = 0;
  private broken = false;

  constructor(url: URL, readonly size: number, settings: WorkerSettings) {
    for (let i = 0; i < size; i += 1) {
      // Small heaps: a worker holds one chunk at a time (records over a megabyte stay on the main thread), and
      // two workers with the default heap sizes more than doubled the peak RSS of a read.
      const worker = new Worker(url, { workerData: settings, resourceLimits: WORKER_HEAP });
      const slot = { worker, ready: false, queued: [] as ChunkTask[] };
      worker.on('message', (message: ChunkResult | { ready: true }) => {
        if ('ready' in message) {
          // Tasks wait here until the worker has started: one that cannot start takes no chunk with it.
          slot.ready = true;
          for (const task of slot.queued) this.post(worker, task);
          slot.queued = [];
          return;
        }
        const waiting = this.waiting.get(message.seq);
        this.waiting.delete(message.seq);
        waiting?.done(message);
      });
      // A worker that dies (cannot start, runs out of memory) fails what it held.
      worker.on('error', () => this.fail());
      worker.on('exit', () => this.fail());
      this.workers.push(slot);
    }
  }

  /** Handle one chunk on the next worker (its buffers are transferred, and come back with the result). */
  run(kind: 'heads', bytes: Uint8Array, lines: Int32Array): Promise<HeadsResult>;
  run(kind: 'map', bytes: Uint8Array, lines: Int32Array): Promise<MapResult>;
  run(kind: 'heads' | 'map', bytes: Uint8Array, lines: Int32Array): Promise<ChunkResult> {
    const task: ChunkTask = { kind, seq: this.seq, bytes, lines };
    this.seq += 1;
    if (this.broken) return Promise.resolve(failed(task));
    return new Promise((resolve) => {
      this.waiting.set(task.seq, { task, done: resolve });
      const slot = this.workers[this.next % this.workers.length]!;
      this.next += 1;
      if (slot.ready) this.post(slot.worker, task);
      else slot.queued.push(task);
    });
  }

  private post(worker: Worker, task: ChunkTask): void {
    worker.postMessage(task, [task.bytes.buffer as ArrayBuffer, task.lines.buffer as ArrayBuffer]);
  }

  private fail(): void {
    this.broken = true;
    // A task not sent yet is whole and is handled on the main thread; a sent one went with its worker (lost).
    for (const { task, done } of this.waiting.values()) done(failed(task));
    this.waiting.clear();
    for (const slot of this.workers) slot.queued = [];
  }

  /** Stop the workers (what they still hold is dropped). */
  close(): void {
    this.broken = true;
    this.waiting.clear();
    for (const { worker } of this.workers) void worker.terminate();
  }
}

/** The result of a task no worker handled: the main thread handles it (or, if it was lost, gives up). */
function failed(task: ChunkTask): ChunkResult {
  return task.kind === 'heads'
    ? { kind: 'heads', seq: task.seq, task, heads: new Int32Array(0) }
    : { kind: 'map', seq: task.seq, task, ok: false };
}
