// A worker thread of `read --usage --by` (see lib/session/file-pool.ts): counts whole session files through their
// agent's `usage.entries` (that agent's module alone loaded, lib/agents/usage-entries.ts), one task at a time,
// and answers with them merged (usage-rows.ts mergedEntries): the same rows, far fewer objects to copy.
import { loadUsageEntries } from '../agents/usage-entries.js';
import { ReaderError, type ReaderWarning } from '../session/types.js';
import { serveTasks } from '../util/thread-pool.js';
import type { EntriesReply, EntriesTask } from './usage-entries-task.js';
import { mergedEntries } from './usage-rows.js';

serveTasks<EntriesTask, EntriesReply>(async (task) => {
  const warnings: ReaderWarning[] = [];
  const entries = await loadUsageEntries(task.format);
  if (entries === undefined) throw new Error(`no usage entries for ${task.format}`);
  try {
    return {
      warnings,
      entries: mergedEntries(await entries(task.path, {
        onWarning: (warning) => warnings.push(warning),
        ...(task.maxRecordBytes !== undefined ? { maxRecordBytes: task.maxRecordBytes } : {}),
      })),
    };
  } catch (error) {
    // Anything but a file that cannot be read is a fault: the worker stops and the main thread counts.
    if (!(error instanceof ReaderError)) throw error;
    return { warnings, error: error.message };
  }
});
