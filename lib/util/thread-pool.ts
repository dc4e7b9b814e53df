// The one pool of worker threads (convert --jobs, read of a big transcript, read --usage of several): workers
// started from one module with the same workerData, each task given to the least busy and answered, after any
// notes, by its own reply. A worker lost fails the tasks it held: it is replaced, or every worker is stopped
// and the caller does the rest itself. The worker side is serveTasks.
import { availableParallelism } from 'node:os';
import type { TransferListItem, Worker } from 'node:worker_threads';
import { WORKER_YOUNG_MB } from './worker-heap.js';

/** Worker threads a pool has by default: two when there are two cores to run them on, else none. */
export function defaultThreads(): number {
  return availableParallelism() >= 2 ? 2 : 0;
}

/** How a worker was lost: an error it threw (at start, or out of memory), its exit, or a reply that could not be read. */
export class WorkerLost {
  constructor(readonly how: 'error' | 'exit' | 'unreadable', readonly error?: Error, readonly code?: number) {}
}

export interface ThreadPoolOptions {
  size: number;
  workerData?: unknown;
  /** Old generation of a worker, in MB; unset: V8's. */
  oldMb?: number;
  /** Tasks a worker holds at a time; more wait here for the first to come free. Default: no limit. */
  perWorker?: number;
  /**
   * `replace`: a lost worker's tasks fail, and a task that finds no worker free starts another. `stop`: every
   * worker is stopped, and every task not answered fails, as does every later one.
   */
  onLoss: 'replace' | 'stop';
  /** Told of each worker lost (`stop`: of the first), never of one `close` stops. */
  lost?: (loss: WorkerLost) => void;
}

/** A task given to the pool, until it is answered. */
export interface Held<T, R, N> {
  task: T;
  transfer: readonly TransferListItem[];
  note: ((note: N) => void) | undefined;
  done: (reply: R | WorkerLost) => void;
}

/** A worker, and its tasks in the order given (it answers them in that order; posted once it is ready). */
export interface Slot<T, R, N> {
  worker: Worker;
  ready: boolean;
  held: Held<T, R, N>[];
}

/**
 * Up to `size` workers of module `url`, started with the first task. A worker with nothing to do is unref'd:
 * a pool never keeps the process alive.
 */
export class ThreadPool<T, R, N = never> {
  /** The workers, in the order started (those lost under `replace` are dropped). */
  readonly workers: Slot<T, R, N>[] = [];
  private readonly queue: Held<T, R, N>[] = [];
  /** Whether the workers were started (by a first task), and whether `close` was called. */
  started = false;
  closed = false;
  /** Set under `stop` once a worker was lost: what every later task gets. */
  broken: WorkerLost | undefined;

  constructor(private readonly url: URL, private readonly options: ThreadPoolOptions) {}

  /** Task `task` (its `transfer` moved to the worker): the reply, or how the worker holding it was lost. */
  run(task: T, transfer: readonly TransferListItem[] = [], note?: (note: N) => void): Promise<R | WorkerLost> {
    if (this.broken) return Promise.resolve(this.broken);
    return new Promise((done) => {
      this.queue.push({ task, transfer, note, done });
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (!this.started) this.start();
    const most = this.options.perWorker ?? Infinity;
    while (this.queue.length > 0 && !this.closed && !this.broken) {
      let slot = this.workers.reduce<Slot<T, R, N> | undefined>((a, b) => (a === undefined || b.held.length < a.held.length ? b : a), undefined);
      if (slot === undefined || slot.held.length >= most) {
        if (this.workers.length >= this.options.size) return;
        slot = this.watch(this.spawn());
      }
      const held = this.queue.shift()!;
      if (slot.held.length === 0) slot.worker.ref();
      slot.held.push(held);
      if (slot.ready) slot.worker.postMessage(held.task, held.transfer);
    }
  }

  private start(): void {
    this.started = true;
    for (let i = 0; i < this.options.size; i += 1) this.watch(this.spawn());
  }

  private spawn(): Worker {
    const { workerData, oldMb } = this.options;
    const worker = new (process.getBuiltinModule('node:worker_threads').Worker)(this.url, {
      workerData,
      // The young generation is two semi-spaces (lib/util/worker-heap.ts).
      resourceLimits: {
        maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
        ...(oldMb !== undefined ? { maxOldGenerationSizeMb: oldMb } : {}),
      },
    });
    worker.unref();
    return worker;
  }

  private watch(worker: Worker): Slot<T, R, N> {
    const slot: Slot<T, R, N> = { worker, ready: false, held: [] };
    this.workers.push(slot);
    worker.on('message', (message: { ready: true } | { note: N } | { reply: R }) => {
      if (this.closed || this.broken || !this.workers.includes(slot)) return;
      if ('ready' in message) {
        slot.ready = true;
        for (const held of slot.held) worker.postMessage(held.task, held.transfer);
        return;
      }
      const held = slot.held[0];
      if (held === undefined) return;
      if ('note' in message) {
        held.note?.(message.note);
        return;
      }
      slot.held.shift();
      if (slot.held.length === 0) worker.unref();
      held.done(message.reply);
      this.dispatch();
    });
    // The listeners stay after a loss or close: a later error or exit of the worker is one already answered for.
    worker.on('error', (error) => this.lose(slot, new WorkerLost('error', error)));
    worker.on('exit', (code) => this.lose(slot, new WorkerLost('exit', undefined, code)));
    // A reply that cannot be read would leave its task waiting for ever.
    worker.on('messageerror', (error) => this.lose(slot, new WorkerLost('unreadable', error)));
    return slot;
  }

  private lose(slot: Slot<T, R, N>, loss: WorkerLost): void {
    if (this.closed || this.broken || !this.workers.includes(slot)) return;
    this.options.lost?.(loss);
    let failed: Held<T, R, N>[];
    if (this.options.onLoss === 'stop') {
      this.broken = loss;
      failed = [...this.workers.flatMap((s) => s.held), ...this.queue.splice(0)];
      this.stop();
    } else {
      this.workers.splice(this.workers.indexOf(slot), 1);
      failed = slot.held;
      void slot.worker.terminate();
    }
    for (const held of failed) held.done(loss);
    this.dispatch();
  }

  private stop(): Promise<unknown> {
    return Promise.all(this.workers.map((slot) => {
      slot.held = [];
      return slot.worker.terminate();
    }));
  }

  /** Stop every worker; a task not answered yet is dropped (its promise never settles). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    await this.stop();
  }
}

/**
 * The worker side of a ThreadPool: each task is answered by `handle`'s reply (with `transfer`'s buffers
 * moved), one task at a time in the order they came; `note` sends the pool a note about the task in hand.
 * A `handle` that throws ends the worker: the pool fails what it held. Says it is ready once called.
 */
export function serveTasks<T, R, N = never>(
  handle: (task: T, note: (note: N) => void) => R | Promise<R>,
  transfer: (reply: R) => readonly TransferListItem[] = () => [],
): void {
  const port = process.getBuiltinModule('node:worker_threads').parentPort!;
  const note = (value: N) => port.postMessage({ note: value });
  let last = Promise.resolve();
  port.on('message', (task: T) => {
    // A rejection here is unhandled, which ends the worker with its error.
    last = last.then(async () => {
      const reply = await handle(task, note);
      port.postMessage({ reply }, transfer(reply));
    });
  });
  port.postMessage({ ready: true });
}
