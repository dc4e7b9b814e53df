// Helpers for the Gemini CLI tests: write a chat with the built bin into a fresh Gemini home, read a chat file,
// and pick the conversation out of the request the real gemini sent (without its own `<session_context>`).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { writeGeminiSettings } from '../../support/gemini-cli.js';
import { runBin, sessionOf, tempDir, type RunResult } from '../../support/run.js';

export const ev = (o: object): string => `${JSON.stringify(o)}\n`;

// A 1x1 PNG.
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export interface GeminiHome {
  /** HOME for the real gemini. */
  home: string;
  /** `<home>/.gemini`: the `--session-dir gemini-cli=` root. */
  root: string;
}

/** A fresh home with offline settings (one per test: the CLI's cleanup bugs never reach another test). */
export function geminiHome(): GeminiHome {
  const home = tempDir('asyncai-log-gemini-home-');
  return { home, root: writeGeminiSettings(home) };
}

export interface Written {
  run: RunResult;
  session: string;
  file: string;
}

/** Write `input` for `cwd` with the bin into the Gemini root (and any extra flags). */
export async function writeGeminiSession(input: string, cwd: string, root: string, extra: string[] = []): Promise<Written> {
  const run = await runBin(['--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`, '--cwd', cwd, ...extra], { input });
  expect(run.code, run.stderr).toBe(0);
  const entry = sessionOf(run).harnesses.find((h) => h.format === 'gemini-cli')!;
  return { run, session: entry.session_id, file: entry.session_file };
}

/** The lines of a chat file, parsed. */
export function chatLines(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/**
 * The conversation of a `:streamGenerateContent` request body: its `contents` without the CLI's own
 * `<session_context>` text and the thought signatures it adds to function calls.
 */
export function conversation(body: any): any[] {
  return (body.contents as any[])
    .map((turn) => ({
      role: turn.role,
      parts: (turn.parts as any[])
        .filter((p) => !(typeof p.text === 'string' && p.text.startsWith('<session_context>')))
        .map(({ thoughtSignature: _signature, ...part }) => part),
    }))
    .filter((turn) => turn.parts.length > 0);
}
