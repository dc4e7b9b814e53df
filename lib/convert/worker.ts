// A convert worker thread: receives one task at a time from the pool (lib/convert/pool.ts), converts the
// file with the run's settings (workerData) and posts progress and the outcome back.
import { parentPort, workerData } from 'node:worker_threads';
import { convertSource } from './convert-file.js';
import type { ConvertOutcome, ConvertSettings, ConvertTask, WorkerMessage } from './types.js';

/** Progress is posted in steps of this many bytes (and the rest with the outcome). */
const PROGRESS_STEP = 4 << 20;

const port = parentPort;
const settings = workerData as ConvertSettings;

port?.on('message', (task: ConvertTask) => {
  let pending = 0;
  const post = (message: WorkerMessage) => port.postMessage(message);
  const progress = (bytes: number) => {
    pending += bytes;
    if (pending < PROGRESS_STEP) return;
    post({ type: 'progress', bytes: pending });
    pending = 0;
  };
  convertSource(task, settings, { progress })
    .catch((error: Error): ConvertOutcome => ({
      index: task.index, status: 'failed', harnesses: [], records: 0, events: 0, warnings: 0, messages: [], bytes: 0,
      error: `converter failed: ${error.message}`,
    }))
    .then((outcome) => {
      if (pending > 0) post({ type: 'progress', bytes: pending });
      post({ type: 'done', outcome });
    });
});
