// Whole files handled on worker threads of the one ThreadPool (lib/util/thread-pool.ts), a few in flight: usage
// counted for `read --usage` of several transcripts (an agent's UsageTask and UsageReply) and `read --usage --by`
// (lib/read/usage-entries-task.ts), sessions described by a cold `sessions` listing (lib/sessions/describe.ts),
// files passed through `sessions --grep`'s prefilter (lib/sessions/prefilter.ts). The worker module is the
// caller's (it answers a task through serveTasks). A worker that fails costs speed, not results: every file it
// had not answered for is handled by the caller on its own thread.
import { existsSync } from 'node:fs';
import type { UsageReply, UsageTask } from './types.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

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
