// Spawning helpers for end-to-end tests: the built bin and the real `claude` binary, with fixed environments.
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeBinary, clientBin } from '../clients/clients.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'dist', 'bin', 'asyncai-log.js');
export const FIXTURES = join(ROOT, 'fixtures');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A fresh temp directory. */
export function tempDir(prefix = 'asyncai-log-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A minimal, fixed environment: nothing of the developer's (HOME, CLAUDE_CONFIG_DIR) leaks in. TMPDIR is the
 * test run's own (test/support/global-setup.ts), so what a spawned CLI leaves there is removed with it.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir('asyncai-log-home-'), LANG: 'C.UTF-8', TMPDIR: tmpdir(), ...extra,
  };
}

export function run(command: string, args: string[], options: SpawnOptions & { input?: string | Buffer } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({
      code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'),
    }));
    child.stdin!.on('error', () => {});
    if (options.input !== undefined) child.stdin!.end(options.input);
    else child.stdin!.end();
  });
}

/** Run the built bin. */
export function runBin(args: string[], options: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {}): Promise<RunResult> {
  return run(process.execPath, [BIN, ...args], {
    env: options.env ?? cleanEnv(),
    cwd: options.cwd ?? ROOT,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}

/**
 * Poll until `check` holds: a test waits for what it needs to see, never for a fixed time. At most `limitMs`
 * (then the caller's assertion reports what was there).
 */
export async function until(check: () => boolean, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The session line (first stdout line) of a run. */
export function sessionOf(result: RunResult): { session_id: string; session_file: string; harnesses: { format: string; session_id: string; session_file: string }[] } {
  const first = result.stdout.split('\n')[0] ?? '';
  return JSON.parse(first).result;
}

/** The real Claude Code binary, from the pinned test clients (test/clients/). */
export { claudeBinary };

/** Run the real `claude -p --resume` against a mock on `baseUrl`, from `cwd`. */
export function resumeWithClaude(options: {
  configDir: string; cwd: string; session: string; baseUrl: string; prompt?: string; extraArgs?: string[];
}): Promise<RunResult> {
  return run(claudeBinary(), ['-p', '--resume', options.session, ...(options.extraArgs ?? []), '--', options.prompt ?? 'Reply with exactly: resumed-ok'], {
    cwd: options.cwd,
    env: cleanEnv({
      CLAUDE_CONFIG_DIR: options.configDir,
      ANTHROPIC_BASE_URL: options.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    }),
  });
}

/** The conversation messages (role and flattened content blocks) of the last request a mock received. */
export function flatten(messages: any[]): { role: string; blocks: any[] }[] {
  return messages.map((m) => ({
    role: m.role,
    blocks: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content,
  }));
}

/** The real Codex CLI, from the pinned test clients (test/clients/). */
export function codexBinary(): string {
  return clientBin('codex');
}

/** Run the real `codex exec --json` with `CODEX_HOME` set up for a mock (see writeCodexConfig). */
export function runCodex(options: { codexHome: string; cwd: string; args: string[] }): Promise<RunResult> {
  return run(codexBinary(), ['exec', '--json', '--skip-git-repo-check', ...options.args], {
    cwd: options.cwd,
    env: cleanEnv({ CODEX_HOME: options.codexHome, MOCK_API_KEY: 'sk-test' }),
  });
}
