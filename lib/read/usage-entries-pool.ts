// `read --usage --by` over many session files: the files of agents that count their own entries (`Agent.usage.
// entries`: Claude Code, Codex, Droid) are counted on worker threads (usage-entries-worker.ts), whole files at a
// time, while this thread reads the others. A worker that fails costs speed, not totals: every file it had not
// answered for is counted on this thread.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { EntriesReply, EntriesTask } from './usage-entries-task.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

/** Old generation of a worker, in MB: it holds one file's entries at a time. */
const WORKER_OLD_MB = 96;

/** Worker threads by default: 2 on a machine of 2 cores or more, else none. */
export function defaultUsageThreads(): number {
  return availableParallelism() >= 2 ? 2 : 0;
}

export class EntriesPool {
  private readonly pool: ThreadPool<EntriesTask, EntriesReply>;

  /** A pool of `size` workers, or undefined when there is none to be had (0, or run from the TypeScript source). */
  static start(size: number, url = new URL('./usage-entries-worker.js', import.meta.url)): EntriesPool | undefined {
    return size > 0 && existsSync(url) ? new EntriesPool(url, size) : undefined;
  }

  private constructor(url: URL, readonly size: number) {
    this.pool = new ThreadPool(url, { size, oldMb: WORKER_OLD_MB, onLoss: 'stop' });
  }

  /** Count one file on the least busy worker: its reply, or undefined when the caller must count it. */
  async count(task: EntriesTask): Promise<EntriesReply | undefined> {
    const reply = await this.pool.run(task);
    return reply instanceof WorkerLost ? undefined : reply;
  }

  close(): void {
    void this.pool.close();
  }
}
