// The first step of `sessions --grep` (list.ts, before the listing describes sessions): which session files hold
// the text in their bytes, passed through the prefilter (prefilter.ts) on worker threads (grep-worker.ts) when
// there are enough bytes, else on this thread.
import { passingOf, Prefilter, type GrepTask } from './prefilter.js';
import { eachInOrder, FilePool } from '../session/file-pool.js';

/** Bytes of session files below which this thread passes them all through the prefilter (a worker has its own start). */
const POOL_MIN_BYTES = 256 * 1024 * 1024;
/** A worker's task: files in order up to this many bytes (or one larger file), at most BATCH_FILES of them. */
const BATCH_BYTES = 16 * 1024 * 1024;
const BATCH_FILES = 256;
/** Batches a worker holds at a time: one in hand and the next. */
const BATCHES_PER_WORKER = 2;

/**
 * The indices of the `files` that pass the prefilter of `forms`, in order: on worker threads, in batches, when
 * there are enough bytes (`minBytes`; tests set it, and the worker module), else here, each as it is reached.
 * A worker lost, this thread passes what it held.
 */
export async function* passingFiles(files: readonly { path: string; bytes: number }[], forms: readonly string[],
  { minBytes = POOL_MIN_BYTES, workerUrl = new URL('./grep-worker.js', import.meta.url) } = {}): AsyncGenerator<number> {
  const filter = new Prefilter(forms);
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const pool = FilePool.forFiles<GrepTask, number[]>(files.length, bytes, minBytes, workerUrl, BATCHES_PER_WORKER);
  const batches: { start: number; paths: string[] }[] = [];
  let held = Infinity;
  for (const [i, file] of files.entries()) {
    const batch = batches.at(-1);
    if (batch === undefined || held + file.bytes > BATCH_BYTES || batch.paths.length >= BATCH_FILES) {
      batches.push({ start: i, paths: [file.path] });
      held = file.bytes;
    } else {
      batch.paths.push(file.path);
      held += file.bytes;
    }
  }
  let k = 0;
  for await (const passing of eachInOrder(pool, batches, (batch) => ({ forms, paths: batch.paths }), (batch) => passingOf(batch.paths, filter))) {
    const { start } = batches[k++]!;
    for (const i of passing) yield start + i;
  }
}
