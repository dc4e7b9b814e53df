// Claude Code's writer on worker threads, as the registry offers it (`Agent.threaded`): a session of the
// Claude harness takes records serialised on the workers (lib/agents/claude-code-cli/segments.ts).
import type { ThreadedWriter } from '../../types.js';
import { isSegmentTarget } from '../segments.js';
import { runParallel } from './run.js';

export const claudeThreaded: ThreadedWriter = {
  accepts: isSegmentTarget,
  run(harness, run) {
    if (!isSegmentTarget(harness)) return Promise.reject(new Error(`a ${harness.format} session takes no records made on threads`));
    return runParallel({
      fd: run.fd,
      head: run.head,
      threads: run.threads,
      setup: { mapper: harness.segmentOptions(), ...(run.maxLineBytes !== undefined ? { maxLineBytes: run.maxLineBytes } : {}) },
      target: harness,
      sink: run.sink,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.workerUrl !== undefined ? { workerUrl: run.workerUrl } : {}),
    });
  },
};
