// Whole files handled on worker threads of the one ThreadPool (lib/util/thread-pool.ts), a few in flight: usage
// counted for `read --usage` of several transcripts (an agent's UsageTask and UsageReply) and `read --usage --by`
// (lib/read/usage-entries-task.ts), sessions described by a cold `sessions` listing (lib/sessions/describe.ts),
// files passed through `sessions --grep`'s prefilter (lib/sessions/prefilter.ts). The worker module is the
// caller's (it answers a task through serveTasks). A worker that fails costs speed, not results: every file it
// had not answered for is handled by the caller on its own thread.
import { existsSync } from 'node:fs';
import type { UsageReply, UsageTask } from './types.js';
import { defaultThreads, ThreadPool, WorkerLost } from '../util/thread-pool.js';

/** Old generation of a worker, in MB: it holds one file's responses, entries or reading at a time. */
const WORKER_OLD_MB = 96;

export class FilePool<T = UsageTask, R = UsageReply> {
  private readonly pool: ThreadPool<T, R>;

  /**
   * A pool of `size` workers of module `url`, or undefined when there is none to be had (0, or run from the
   * TypeScript source). `perWorker`: files a worker holds at a time (default: every file given, at once).
   */
  static start<T = UsageTask, R = UsageReply>(size: number, url: URL, perWorker?: number): FilePool<T, R> | undefined {
    return size > 0 && existsSync(url) ? new FilePool<T, R>(url, size, perWorker) : undefined;
  }

  /**
   * A pool of the default threads (thread-pool.ts `defaultThreads`) for `count` files of `bytes` in all, when
   * there are two or more and `minBytes` or more of them (below that, a worker's start costs more than it
   * shares out); each worker holds `perWorker` at a time.
   */
  static forFiles<T, R>(count: number, bytes: number, minBytes: number, url: URL, perWorker: number): FilePool<T, R> | undefined {
    return count >= 2 && bytes >= minBytes ? FilePool.start<T, R>(Math.min(defaultThreads(), count), url, perWorker) : undefined;
  }

  private constructor(url: URL, readonly size: number, perWorker: number | undefined) {
    this.pool = new ThreadPool(url, { size, oldMb: WORKER_OLD_MB, onLoss: 'stop', ...(perWorker !== undefined ? { perWorker } : {}) });
  }

  /** One file's task on the least busy worker: its reply, or undefined when the caller must do it itself. */
  async run(task: T): Promise<R | undefined> {
    const reply = await this.pool.run(task);
    return reply instanceof WorkerLost ? undefined : reply;
  }

  /** Stop the workers. */
  close(): void {
    void this.pool.close();
  }
}

/**
 * The result of each of `items`, in order: the reply to its task (`task`) on `pool`'s workers, all given at once
 * (the pool holds each worker to its share); without a pool, and for each item a lost worker held, `here`'s on
 * this thread, in its turn. The pool is closed at the end, or when the caller stops early.
 */
export async function* eachInOrder<I, T, R>(pool: FilePool<T, R> | undefined, items: readonly I[], task: (item: I) => T,
  here: (item: I) => R | Promise<R>): AsyncGenerator<R> {
  try {
    const replies = pool === undefined ? [] : items.map((item) => pool.run(task(item)));
    for (const [i, item] of items.entries()) yield (await replies[i]) ?? await here(item);
  } finally {
    pool?.close();
  }
}
