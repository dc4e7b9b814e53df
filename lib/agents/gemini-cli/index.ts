// Google's Gemini CLI (0.61.0): everything this project knows about it lives in this folder. The writer
// (`--session-format gemini-cli`), the `gemini-chat` input format (read, convert), the `gemini-stream-json`
// input format (`gemini -p --output-format stream-json`), paths and the resume command.
export { FORMAT, createGeminiHarness, geminiCli } from './harness.js';
export { GeminiRecordMapper } from './records.js';
export { chatFileName, projectHash, resolveProjectSlug, slugify } from './paths.js';
export { INPUT_FORMAT, geminiChat } from './reader.js';
export { STREAM_FORMAT, geminiStreamJson } from './stream-json.js';

import type { Agent } from '../../session/types.js';
import { geminiCli as harness } from './harness.js';
import { geminiChat as chat } from './reader.js';
import { geminiStreamJson as stream } from './stream-json.js';
import { geminiSessions as sessions } from './sessions.js';

export const gemini: Agent = { harness, inputs: [chat, stream], sessionInput: chat.name, sessions };
