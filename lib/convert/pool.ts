// Where files are converted: inline on the calling thread (one job), or in a pool of worker threads (real
// parallelism: each worker has its own event loop and converts one file at a time). The pool hands out
// tasks as workers come free; a worker that dies fails its file and is replaced on the next task.
import { Worker } from 'node:worker_threads';
import { convertSource } from './convert-file.js';
import type { ConvertOutcome, ConvertSettings, ConvertTask, WorkerMessage } from './types.js';
import { WORKER_YOUNG_MB } from '../util/worker-heap.js';

/** Converts files: `run` resolves with the file's outcome (never rejects). */
export interface ConvertRunner {
  /** `progress` receives the bytes read since its last call. */
  run(task: ConvertTask, progress: (bytes: number) => void): Promise<ConvertOutcome>;
  close(): Promise<void>;
}

/** Convert on the calling thread, one file at a time. */
export function createInlineRunner(settings: ConvertSettings): ConvertRunner {
  return {
    run: (task, progress) => convertSource(task, settings, { progress }),
    close: async () => {},
  };
}

interface Job {
  task: ConvertTask;
  progress: (bytes: number) => void;
  resolve: (outcome: ConvertOutcome) => void;
}

/**
 * Convert in up to `size` worker threads. `workerUrl` defaults to the compiled worker beside this module
 * (lib/convert/worker.js); the pool needs the built package, not the TypeScript sources.
 */
export function createWorkerRunner(size: number, settings: ConvertSettings, workerUrl = new URL('./worker.js', import.meta.url)): ConvertRunner {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let closed = false;

  const failed = (job: Job, error: string): ConvertOutcome => ({
    index: job.task.index, status: 'failed', harnesses: [], records: 0, events: 0, warnings: 0, messages: [], bytes: 0, error,
  });

  const lost = (worker: Worker, error: string) => {
    const job = busy.get(worker);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
    if (job) job.resolve(failed(job, error));
    next();
  };

  const spawn = (): Worker => {
    // The young generation the command gives every worker (lib/util/worker-heap.ts).
    const worker = new Worker(workerUrl, { workerData: settings, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    worker.on('message', (message: WorkerMessage) => {
      const job = busy.get(worker);
      if (!job) return;
      if (message.type === 'progress') {
        job.progress(message.bytes);
        return;
      }
      busy.delete(worker);
      idle.push(worker);
      job.resolve(message.outcome);
      next();
    });
    worker.on('error', (error) => lost(worker, `converter failed: ${error.message}`));
    worker.on('exit', (code) => {
      if (!closed) lost(worker, `converter exited with code ${code}`);
    });
    return worker;
  };

  const next = () => {
    while (queue.length > 0 && !closed) {
      let worker = idle.pop();
      if (!worker) {
        if (busy.size >= size) return;
        worker = spawn();
      }
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage(job.task);
    }
  };

  return {
    run(task, progress) {
      return new Promise((resolve) => {
        queue.push({ task, progress, resolve });
        next();
      });
    },
    async close() {
      closed = true;
      const all = [...idle, ...busy.keys()];
      idle.length = 0;
      await Promise.all(all.map((worker) => worker.terminate()));
    },
  };
}
