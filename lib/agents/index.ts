// The registry of agents. Adding an agent is one folder under lib/agents/ and one line here; the generic
// layers (filter, convert, read, bin) reach agents only through this file.
import { claudeCode } from './claude-code-cli/index.js';
import { codex } from './codex-cli/index.js';
import { gemini } from './gemini-cli/index.js';
import { opencodeAgent } from './opencode/index.js';
import type { Agent, HarnessFactory } from './types.js';

export const AGENTS: readonly Agent[] = [claudeCode, codex, gemini, opencodeAgent];

/** The writers, in registry order (the first is the default `--session-format`). */
export const HARNESSES: readonly HarnessFactory[] = AGENTS.map((agent) => agent.harness);

/** The factory for a format name, or undefined. */
export function findHarness(format: string): HarnessFactory | undefined {
  return HARNESSES.find((h) => h.format === format);
}

export function knownFormats(): string[] {
  return HARNESSES.map((h) => h.format);
}

/** The agent that writes `format`, or undefined. */
export function findAgent(format: string): Agent | undefined {
  return AGENTS.find((agent) => agent.harness.format === format);
}

/** The writer format whose own session files come in input format `input`, or undefined. */
export function sessionFormatOf(input: string): string | undefined {
  return AGENTS.find((agent) => agent.sessionInput === input)?.harness.format;
}
