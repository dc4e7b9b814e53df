// How `asyncai-log read` reaches this reader (the registry's `Agent.transcripts`): sessions are found by uuid
// under `<root>/projects/`, a file is read by ClaudeTranscriptReader.
import { resolve } from 'node:path';
import type { TranscriptReader } from '../../../session/types.js';
import { claudeTranscript } from '../transcript-input.js';
import { findSessionTranscripts, isSessionUuid } from './locate.js';
import { ClaudeTranscriptReader, defaultThreads } from './reader.js';
import { UsagePool } from './usage-pool.js';

export const claudeTranscripts: TranscriptReader = {
  name: 'Claude Code',
  input: claudeTranscript.name,
  isSessionId: isSessionUuid,
  find: findSessionTranscripts,
  sessionsDir: (root) => resolve(root, 'projects'),
  open: (path, options) => new ClaudeTranscriptReader(path, options),
  usagePool: (threads, most) => UsagePool.start(Math.min(threads ?? defaultThreads(), most)),
};
