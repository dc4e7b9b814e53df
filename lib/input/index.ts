// The registry of input formats and auto-detection from the first non-blank line. Adding a format is one
// adapter file under lib/input/ and one entry here. Detection order matters: the most specific first.
import { claudeStreamJson } from './claude-stream-json.js';
import { claudeTranscript } from './claude-transcript.js';
import { codexExecJson } from './codex-exec-json.js';
import { codexRollout } from './codex-rollout.js';
import { genericEvents } from './generic-events.js';
import { geminiChat } from '../agents/gemini-cli/index.js';
import { opencodeExport } from '../agents/opencode/index.js';
import type { InputFormat } from './types.js';

/** `events` stays last: it accepts any object with a string `type`, so every foreign format goes before it. */
export const INPUT_FORMATS: readonly InputFormat[] = [geminiChat, opencodeExport, codexRollout, claudeStreamJson, codexExecJson, claudeTranscript, genericEvents];

/** Names accepted by `--from` (besides `auto`). */
export function inputFormatNames(): string[] {
  return INPUT_FORMATS.map((f) => f.name);
}

export function findInputFormat(name: string): InputFormat | undefined {
  return INPUT_FORMATS.find((f) => f.name === name);
}

/** The format of a stream whose first non-blank line parsed to `value`, or undefined. */
export function detectInputFormat(value: unknown): InputFormat | undefined {
  return INPUT_FORMATS.find((f) => f.detect(value));
}
