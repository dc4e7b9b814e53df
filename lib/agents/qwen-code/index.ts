// Qwen Code (0.24.4, `qwen`): everything this project knows about it lives in this folder. The writer
// (`--session-format qwen-code`), paths and the resume command. Its chats hold Gemini Content, shared with the
// Gemini folder through lib/gemini-content/.
export { FORMAT, createQwenHarness, qwenCode } from './harness.js';
export { QwenRecordMapper } from './records.js';
export { chatsDir, projectDirName, qwenRoot } from './paths.js';

import type { Agent } from '../../session/types.js';
import { qwenCode as harness } from './harness.js';

export const qwenAgent: Agent = { harness, inputs: [] };
