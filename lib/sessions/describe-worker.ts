// A worker thread of a listing (lib/sessions/list.ts): describes whole session files, one task at a time, as the
// main thread would (describe.ts: the head and end, the agent's own facts, the user turns). A task that
// throws ends the worker; the listing describes what it held on its own thread.
import { findAgent } from '../agents/index.js';
import { serveTasks } from '../util/thread-pool.js';
import type { IndexEntry } from './cache.js';
import { describeFile, type DescribeTask } from './describe.js';

serveTasks<DescribeTask, IndexEntry>((task) => {
  const agent = findAgent(task.format);
  if (agent === undefined) throw new Error(`no agent ${task.format}`);
  return describeFile({ format: task.format, agent, id: task.id, files: task.files }, task.stamp);
});
