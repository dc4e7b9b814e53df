// Helpers for the Codex harness tests: write a session with the built bin, resume it with the real `codex`
// against the Responses API mock, and pick the conversation out of the request Codex sent.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { MockOpenAI } from '../../support/mock-openai.js';
import { writeCodexConfig } from '../../support/mock-openai.js';
import { runBin, runCodex, sessionOf, tempDir, type RunResult } from '../../support/run.js';

export const ev = (o: object): string => `${JSON.stringify(o)}\n`;

export interface Written {
  /** The run of the bin. */
  run: RunResult;
  /** The codex-cli session: its uuid and rollout file. */
  session: string;
  file: string;
}

/** Write `input` for `cwd` with the bin into the Codex root `codexHome` (and any extra flags). */
export async function writeCodexSession(input: string, cwd: string, codexHome: string, extra: string[] = []): Promise<Written> {
  const run = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${codexHome}`, '--cwd', cwd, ...extra], { input });
  expect(run.code).toBe(0);
  const entry = sessionOf(run).harnesses.find((h) => h.format === 'codex-cli')!;
  return { run, session: entry.session_id, file: entry.session_file };
}

/** A fresh Codex home pointed at `mock`. */
export function codexHome(mock: MockOpenAI): string {
  const home = tempDir('asyncai-log-codex-home-');
  writeCodexConfig(home, mock.url);
  return home;
}

/** The `codex exec --json` events a run printed. */
export function execEvents(result: RunResult): any[] {
  return result.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

/**
 * Resume with the real codex (`codex exec --json --skip-git-repo-check resume ...args`), check it answered
 * from the mock, and return the `input` of the request it sent plus its `exec --json` events.
 */
export async function resumeWithCodex(mock: MockOpenAI, home: string, cwd: string, args: string[]): Promise<{ input: any[]; events: any[]; result: RunResult }> {
  const before = mock.requests.length;
  const result = await runCodex({ codexHome: home, cwd, args: ['resume', ...args] });
  const events = execEvents(result);
  expect(result.code, result.stderr).toBe(0);
  expect(events.find((e) => e.type === 'item.completed' && e.item.type === 'agent_message')?.item.text).toBe('resumed-ok');
  expect(mock.requests.length).toBeGreaterThan(before);
  return { input: mock.requests[before]!.body.input, events, result };
}

function textOf(item: any): string {
  return Array.isArray(item.content) ? item.content.map((c: any) => c.text ?? '').join('') : '';
}

/**
 * The conversation part of a request's input: without Codex's own instructions (its developer messages),
 * its environment context, and the item ids it adds. Monitor notifications (developer messages written
 * by this project) stay.
 */
export function conversation(input: any[]): any[] {
  return input
    .filter((item) => !(item.role === 'developer' && !textOf(item).startsWith('[SYSTEM NOTIFICATION')))
    .filter((item) => !(item.role === 'user' && textOf(item).startsWith('<environment_context>')))
    .map(({ id: _id, status: _status, ...rest }) => (Array.isArray(rest.content)
      ? { ...rest, content: rest.content.map(({ annotations: _a, ...part }: any) => part) }
      : rest));
}

/** The lines of a rollout file. */
export function rolloutLines(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

export const RESUME_PROMPT = 'Reply with exactly: resumed-ok';

/** The user message Codex sends for the resume prompt. */
export const PROMPT_ITEM = { type: 'message', role: 'user', content: [{ type: 'input_text', text: RESUME_PROMPT }] };
