// Qwen Code (0.24.4, `qwen`): everything this project knows about it lives in this folder. The writer
// (`--session-format qwen-code`), the `qwen-chat` input format (read, convert), paths and the resume command. Its chats hold Gemini Content, shared with the
// Gemini folder through lib/gemini-content/.
export { FORMAT, createQwenHarness, qwenCode } from './harness.js';
export { QwenRecordMapper } from './records.js';
export { chatsDir, projectDirName, qwenRoot } from './paths.js';
export { INPUT_FORMAT, qwenChat } from './reader.js';

import type { Agent } from '../../session/types.js';
import { qwenCode as harness } from './harness.js';
import { qwenChat as chat } from './reader.js';
import { qwenSessions as sessions } from './sessions.js';

export const qwenAgent: Agent = { harness, inputs: [chat], sessionInput: chat.name, sessions };
