// Usage counted on worker threads of the one ThreadPool (lib/util/thread-pool.ts), whole files at a time, a few
// in flight, for `read --usage` of several transcripts (an agent's UsageTask and UsageReply) and `read --usage
// --by` (lib/read/usage-entries-task.ts). The worker module is the caller's (it answers a task through
// serveTasks). A worker that fails costs speed, not totals: every file it had not answered for is counted by the
// caller on its own thread.
import { existsSync } from 'node:fs';
import type { UsageReply, UsageTask } from './types.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

/** Old generation of a worker, in MB: it holds one file's responses or entries at a time. */
const WORKER_OLD_MB = 96;

export class UsagePool<T = UsageTask, R = UsageReply> {
  private readonly pool: ThreadPool<T, R>;

  /**
   * A pool of `size` workers of module `url`, or undefined when there is none to be had (0, or run from the
   * TypeScript source). `perWorker`: files a worker holds at a time (default: every file given, at once).
   */
  static start<T = UsageTask, R = UsageReply>(size: number, url: URL, perWorker?: number): UsagePool<T, R> | undefined {
    return size > 0 && existsSync(url) ? new UsagePool<T, R>(url, size, perWorker) : undefined;
  }

  private constructor(url: URL, readonly size: number, perWorker: number | undefined) {
    this.pool = new ThreadPool(url, { size, oldMb: WORKER_OLD_MB, onLoss: 'stop', ...(perWorker !== undefined ? { perWorker } : {}) });
  }

  /** Count one file on the least busy worker: its reply, or undefined when the caller must count it. */
  async count(task: T): Promise<R | undefined> {
    const reply = await this.pool.run(task);
    return reply instanceof WorkerLost ? undefined : reply;
  }

  /** Stop the workers. */
  close(): void {
    void this.pool.close();
  }
}
