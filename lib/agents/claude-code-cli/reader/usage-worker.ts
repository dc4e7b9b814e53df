// A worker thread of `read --usage` (lib/session/file-pool.ts): counts whole transcripts, one task at a time.
import { ClaudeTranscriptReader, ReaderError, type ReaderWarning } from './reader.js';
import { usageReport } from './usage-report.js';
import type { UsageReply, UsageTask } from '../../../session/types.js';
import { serveTasks } from '../../../util/thread-pool.js';

serveTasks<UsageTask, UsageReply>(async (task) => {
  const warnings: ReaderWarning[] = [];
  const reader = new ClaudeTranscriptReader(task.path, {
    onWarning: (warning) => warnings.push(warning),
    ...(task.maxRecordBytes !== undefined ? { maxRecordBytes: task.maxRecordBytes } : {}),
  });
  try {
    return { warnings, report: await usageReport(reader, task.subagents) };
  } catch (error) {
    // Anything but a transcript that cannot be read is a fault: the worker stops and the main thread counts.
    if (!(error instanceof ReaderError)) throw error;
    return { warnings, error: error.message };
  }
});
