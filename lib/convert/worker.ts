// A convert worker thread: receives one task at a time from the pool (lib/convert/pool.ts), converts the
// file with the run's settings (workerData) and posts progress and the outcome back.
import { workerData } from 'node:worker_threads';
import { convertSource } from './convert-file.js';
import { emptyOutcome } from './outcome.js';
import type { ConvertOutcome, ConvertSettings, ConvertTask } from './types.js';
import { serveTasks } from '../util/thread-pool.js';

/** Progress is posted in steps of this many bytes (and the rest with the outcome). */
const PROGRESS_STEP = 4 << 20;

const settings = workerData as ConvertSettings;

serveTasks<ConvertTask, ConvertOutcome, number>(async (task, note) => {
  let pending = 0;
  const progress = (bytes: number) => {
    pending += bytes;
    if (pending < PROGRESS_STEP) return;
    note(pending);
    pending = 0;
  };
  const outcome = await convertSource(task, settings, { progress })
    .catch((error: Error): ConvertOutcome => ({ ...emptyOutcome(task.index), error: `converter failed: ${error.message}` }));
  if (pending > 0) note(pending);
  return outcome;
});
