// The Claude Code transcript reader's public surface (re-exported from lib/index.ts): the reader, session
// lookup by uuid, and the pure pieces worth testing on their own (the `read` command runner is lib/read/).
export { ClaudeTranscriptReader, readClaudeTranscript, ReaderError } from './reader.js';
export type { ReaderOptions, ReaderWarning, SubagentMeta } from './reader.js';
export type { BranchInfo, TranscriptTree } from './branch.js';
export type { UsageTotals } from './usage.js';
export { claudeSessions, findSessionTranscripts, isSessionUuid, SESSION_UUID } from './locate.js';
export { recoverRecords, DEFAULT_MAX_RECORD_BYTES } from './scan.js';
export { MAX_SPILL_BYTES, readSpillFile } from './spill.js';
export { parseMonitorNotification } from '../../../monitor/task-notification.js';
export { STATE_TYPES, CONTEXT_TYPES, CONVERSATION_TYPES } from './record-types.js';
