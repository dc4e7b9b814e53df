// Claude Code's usage in the one shape (`read --usage --by`): each response counted once, as `read --usage`
// and ccusage count it, dated by the record counted; subagents' transcripts are counted with their session.
import type { SessionUsage } from '../../../session/types.js';
import { ClaudeTranscriptReader } from './reader.js';
import { claudeTokens } from './usage.js';

export const claudeUsage: SessionUsage = {
  tokens: claudeTokens,
  entries: (path, options) => new ClaudeTranscriptReader(path, options).usageEntries(),
  countedWithSession: (path) => /[\\/]subagents[\\/]agent-[^\\/]+\.jsonl$/.test(path),
};
