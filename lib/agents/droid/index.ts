// Factory Droid (`@factory/cli` 0.225, `droid`): everything this project knows about it lives in this folder. The
// writer (`--session-format droid`), the `droid-session` input format (its session files), the
// `droid-stream-json` live input (`droid exec -o stream-json`), paths and the resume command. Its messages hold
// Anthropic-style content blocks, shared with the Claude Code folder through lib/anthropic-content/.
import type { Agent } from '../../session/types.js';
import { droid } from './harness.js';
import { droidSession } from './session-input.js';
import { droidStreamJson } from './stream-json.js';
import { droidSessions } from './sessions.js';
import { droidUsage } from './usage.js';

export { FORMAT, createDroidHarness, droid } from './harness.js';
export { DroidRecordMapper } from './records.js';
export { droidRoot, projectDirName, sessionsDir } from './paths.js';
export { INPUT_FORMAT, droidSession } from './session-input.js';
export { droidStreamJson } from './stream-json.js';

export const droidAgent: Agent = { harness: droid, inputs: [droidSession, droidStreamJson], sessionInput: droidSession.name, sessions: droidSessions, usage: droidUsage };
