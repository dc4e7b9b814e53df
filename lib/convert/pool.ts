// Where files are converted: inline on the calling thread (one job), or in a pool of worker threads (real
// parallelism: each worker has its own event loop and converts one file at a time). The pool hands out
// tasks as workers come free; a worker that dies fails its file and is replaced on the next task.
import { convertSource } from './convert-file.js';
import { emptyOutcome } from './outcome.js';
import type { ConvertOutcome, ConvertSettings, ConvertTask } from './types.js';
import { ThreadPool, WorkerLost } from '../util/thread-pool.js';

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

/**
 * Convert in up to `size` worker threads. `workerUrl` defaults to the compiled worker beside this module
 * (lib/convert/worker.js); the pool needs the built package, not the TypeScript sources.
 */
export function createWorkerRunner(size: number, settings: ConvertSettings, workerUrl = new URL('./worker.js', import.meta.url)): ConvertRunner {
  // Progress comes as notes: the bytes read since the last.
  const pool = new ThreadPool<ConvertTask, ConvertOutcome, number>(workerUrl, { size, workerData: settings, perWorker: 1, onLoss: 'replace' });
  return {
    async run(task, progress) {
      const outcome = await pool.run(task, [], progress);
      if (!(outcome instanceof WorkerLost)) return outcome;
      return { ...emptyOutcome(task.index), error: outcome.how === 'exit' ? `converter exited with code ${outcome.code}` : `converter failed: ${outcome.error?.message}` };
    },
    close: () => pool.close(),
  };
}
