// A worker thread of `sessions --grep` (passing.ts): passes batches of session files through the prefilter, one
// batch at a time, each read into the worker's own reused buffer; answers with those that passed. It loads the
// prefilter's module alone.
import { passingOf, Prefilter, type GrepTask } from './prefilter.js';
import { serveTasks } from '../util/thread-pool.js';

/** The prefilter of the last task's forms (a run searches for one text). */
let last: { forms: string; filter: Prefilter } | undefined;

serveTasks<GrepTask, number[]>((task) => {
  const forms = JSON.stringify(task.forms);
  if (last?.forms !== forms) last = { forms, filter: new Prefilter(task.forms) };
  return passingOf(task.paths, last.filter);
});
