// Claude Code (2.1.328): everything this project knows about it lives in this folder. The writer
// (`--session-format claude-code-cli`), the `claude-stream-json` and `claude-transcript` input formats, the
// transcript reader (reader/) and the project-directory rule.
import type { Agent } from '../../session/types.js';
import { claudeCodeCli } from './harness.js';
import { claudeSessions } from './reader/locate.js';
import { claudeTranscripts } from './reader/transcripts.js';
import { claudeUsage } from './reader/usage-entries.js';
import { claudeStreamJson } from './stream-json.js';
import { claudeTranscript } from './transcript-input.js';

export { FORMAT, claudeCodeCli } from './harness.js';
export { claudeStreamJson } from './stream-json.js';
export { claudeTranscript } from './transcript-input.js';

export const claudeCode: Agent = {
  harness: claudeCodeCli,
  inputs: [claudeStreamJson, claudeTranscript],
  sessionInput: claudeTranscript.name,
  transcripts: claudeTranscripts,
  sessions: claudeSessions,
  usage: claudeUsage,
};
