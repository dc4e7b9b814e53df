// `read --usage` over many transcripts: each transcript's totals are counted on a worker thread of the one
// ThreadPool (lib/util/thread-pool.ts), whole files at a time, a few in flight; the caller prints them in input
// order. The worker module is the agent's (it answers a UsageTask with a UsageReply through serveTasks). A
// worker that fails costs speed, not totals: every transcript it had not answered for is counted on this thread.
import { existsSync } from 'node:fs';
import type { UsageCounting, UsageReply, UsageTask } from './types.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

/** Old generation of a worker, in MB: it holds one transcript's responses at a time. */
const WORKER_OLD_MB = 96;

export class UsagePool implements UsageCounting {
  private readonly pool: ThreadPool<UsageTask, UsageReply>;

  /** A pool of `size` workers of module `url`, or undefined when it is missing (run from the TypeScript source). */
  static start(size: number, url: URL): UsagePool | undefined {
    return size > 0 && existsSync(url) ? new UsagePool(url, size) : undefined;
  }

  private constructor(url: URL, readonly size: number) {
    this.pool = new ThreadPool(url, { size, oldMb: WORKER_OLD_MB, onLoss: 'stop' });
  }

  /** Count one transcript on the least busy worker: its reply, or undefined when the caller must count it. */
  async count(task: UsageTask): Promise<UsageReply | undefined> {
    const reply = await this.pool.run(task);
    return reply instanceof WorkerLost ? undefined : reply;
  }

  /** Stop the workers. */
  close(): void {
    void this.pool.close();
  }
}
