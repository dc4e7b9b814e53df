// A worker thread of `read --usage` (see usage-pool.ts): counts whole transcripts, one task at a time.
import { parentPort } from 'node:worker_threads';
import { ClaudeTranscriptReader, ReaderError, type ReaderWarning } from './reader.js';
import { usageReport, type UsageReply, type UsageTask } from './usage-report.js';

parentPort!.on('message', (task: UsageTask) => {
  void (async () => {
    const warnings: ReaderWarning[] = [];
    const reader = new ClaudeTranscriptReader(task.path, {
      onWarning: (warning) => warnings.push(warning),
      ...(task.maxRecordBytes !== undefined ? { maxRecordBytes: task.maxRecordBytes } : {}),
    });
    let reply: UsageReply;
    try {
      reply = { seq: task.seq, warnings, report: await usageReport(reader, task.subagents) };
    } catch (error) {
      // Anything but a transcript that cannot be read is a fault: the worker stops and the main thread counts.
      if (!(error instanceof ReaderError)) throw error;
      reply = { seq: task.seq, warnings, error: error.message };
    }
    parentPort!.postMessage(reply);
  })();
});

parentPort!.postMessage({ ready: true });
