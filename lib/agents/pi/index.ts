// Pi (`@mariozechner/pi-coding-agent` 0.73.1): everything this project knows about it lives in this folder. The
// writer (`--session-format pi`), the `pi-session` input format (its session files), their reader (`read --usage`,
// `--tree`, `--branch`), the lookup of sessions by id, paths and the resume command.
import type { Agent } from '../../session/types.js';
import { pi } from './harness.js';
import { piTranscripts } from './reader.js';
import { piSession } from './session-input.js';
import { piSessions } from './sessions.js';

export { FORMAT, pi } from './harness.js';
export { PiRecordMapper, toPiUsage } from './records.js';
export { INPUT_FORMAT, piSession } from './session-input.js';

export const piAgent: Agent = { harness: pi, inputs: [piSession], sessionInput: piSession.name, transcripts: piTranscripts, sessions: piSessions };
