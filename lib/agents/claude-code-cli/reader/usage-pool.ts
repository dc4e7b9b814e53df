// `read --usage` over many transcripts: each transcript's totals are counted on a worker thread
// (usage-worker.ts), whole files at a time, a few in flight; the caller prints them in input order. A worker
// that fails costs speed, not totals: every transcript it had not answered for is counted on this thread.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ReaderWarning, UsageCounting } from '../../../session/types.js';
import type { UsageReply, UsageTask } from './usage-report.js';
import { WORKER_YOUNG_MB } from '../../../util/worker-heap.js';

/** Heap limits of a worker, in MB: it holds one transcript's responses at a time (young: lib/util/worker-heap.ts). */
const WORKER_HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: WORKER_YOUNG_MB };

export class UsagePool implements UsageCounting {
  private readonly workers: { worker: Worker; ready: boolean; queued: UsageTask[]; busy: number }[] = [];
  private readonly waiting = new Map<number, (reply: UsageReply | undefined) => void>();
  private seq = 0;
  private broken = false;

  /** A pool of `size` workers, or undefined when the worker module is missing (run from the TypeScript source). */
  static start(size: number, url = new URL('./usage-worker.js', import.meta.url)): UsagePool | undefined {
    return size > 0 && existsSync(url) ? new UsagePool(url, size) : undefined;
  }

  private constructor(url: URL, readonly size: number) {
    for (let i = 0; i < size; i += 1) {
      const worker = new Worker(url, { resourceLimits: WORKER_HEAP });
      const slot = { worker, ready: false, queued: [] as UsageTask[], busy: 0 };
      worker.on('message', (message: UsageReply | { ready: true }) => {
        if ('ready' in message) {
          slot.ready = true;
          for (const task of slot.queued) worker.postMessage(task);
          slot.queued = [];
          return;
        }
        slot.busy -= 1;
        const done = this.waiting.get(message.seq);
        this.waiting.delete(message.seq);
        done?.(message);
      });
      worker.on('error', () => this.fail());
      worker.on('exit', () => this.fail());
      worker.on('messageerror', () => this.fail());
      this.workers.push(slot);
    }
  }

  /** Count one transcript on the least busy worker: its reply, or undefined when the caller must count it. */
  count(task: Omit<UsageTask, 'seq'>): Promise<UsageReply | undefined> {
    if (this.broken) return Promise.resolve(undefined);
    const full: UsageTask = { ...task, seq: (this.seq += 1) };
    return new Promise((resolve) => {
      this.waiting.set(full.seq, resolve);
      const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
      slot.busy += 1;
      if (slot.ready) slot.worker.postMessage(full);
      else slot.queued.push(full);
    });
  }

  private fail(): void {
    if (this.broken) return;
    this.close();
    for (const done of this.waiting.values()) done(undefined);
    this.waiting.clear();
  }

  /** Stop the workers. */
  close(): void {
    this.broken = true;
    for (const slot of this.workers) {
      slot.worker.removeAllListeners('exit');
      slot.worker.removeAllListeners('error');
      slot.worker.on('error', () => {});
      void slot.worker.terminate();
    }
  }
}
