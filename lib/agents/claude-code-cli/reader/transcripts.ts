// How `asyncai-log read` reaches this reader (the registry's `Agent.transcripts`): a file is read by
// ClaudeTranscriptReader; sessions are found by id in locate.ts (`Agent.sessions`).
import type { TranscriptReader } from '../../../session/types.js';
import { claudeTranscript } from '../transcript-input.js';
import { ClaudeTranscriptReader } from './reader.js';
import { defaultThreads } from '../../../util/thread-pool.js';
import { FilePool } from '../../../session/file-pool.js';

export const claudeTranscripts: TranscriptReader = {
  name: 'Claude Code',
  input: claudeTranscript.name,
  open: (path, options) => new ClaudeTranscriptReader(path, options),
  usagePool: (threads, most) => FilePool.start(Math.min(threads ?? defaultThreads(), most), new URL('./usage-worker.js', import.meta.url)),
};
