// The registry of transcript formats. Adding a format is one folder under lib/harnesses/ and one line here.
import { claudeCodeCli } from './claude-code-cli/index.js';
import { codexCli } from './codex-cli/index.js';
import { geminiCli } from '../agents/gemini-cli/index.js';
import { opencode } from '../agents/opencode/index.js';
import type { HarnessFactory } from './types.js';

export const HARNESSES: readonly HarnessFactory[] = [claudeCodeCli, codexCli, geminiCli, opencode];

/** The factory for a format name, or undefined. */
export function findHarness(format: string): HarnessFactory | undefined {
  return HARNESSES.find((h) => h.format === format);
}

export function knownFormats(): string[] {
  return HARNESSES.map((h) => h.format);
}
