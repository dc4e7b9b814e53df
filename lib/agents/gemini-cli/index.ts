// Google's Gemini CLI (0.61.0): everything this project knows about it lives in this folder. The writer
// (`--session-format gemini-cli`), the `gemini-chat` input format (read, convert), paths and the resume command.
export { FORMAT, createGeminiHarness, geminiCli } from './harness.js';
export { GeminiRecordMapper } from './records.js';
export { chatFileName, projectHash, resolveProjectSlug, slugify } from './paths.js';
export { INPUT_FORMAT, geminiChat } from './reader.js';

import type { Agent } from '../types.js';
import { geminiCli as harness } from './harness.js';
import { geminiChat as chat } from './reader.js';

export const gemini: Agent = { harness, inputs: [chat], sessionInput: chat.name };
