// The CLIs of OpenCode's store layout (OpenCode, Kilo: lib/opencode-store/) as their tests drive them: an
// isolated home, a project directory in it, and what a chat request sent, as comparable items. Their own
// modules (test/support/opencode.ts, kilo.ts) make the homes and run the programs.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type RunResult } from './run.js';

/** An isolated home of the CLI: where its data directory is, and its environment. */
export interface StoreHome {
  home: string;
  dataDir: string;
  env: Record<string, string>;
}

/** One CLI of OpenCode's layout, as its tests drive it. */
export interface StoreCli<Home extends StoreHome> {
  /** Its `--session-format`. */
  format: string;
  /** What the test names call it ("OpenCode"). */
  name: string;
  /** A home whose config points the CLI at the mock at `baseUrl`. */
  home(baseUrl: string): Home;
  /** Run the CLI with `args` from `cwd`. */
  run(home: Home, cwd: string, args: string[]): Promise<RunResult>;
  /** `<cli> run --session <session>` in `dir`, with the prompt "Reply with exactly: resumed-ok". */
  continueWith(home: Home, dir: string, session: string): Promise<RunResult>;
  /** The bin's environment: the home's, with the real program named. */
  binEnv(home: Home): Record<string, string>;
  /** A plain project directory in the home. */
  projectDir(home: Home, name: string): string;
  /** A chat request's messages as comparable items (what the CLI adds of its own left out). */
  conversation(body: unknown): unknown[];
}

/** A project directory in `home`: a git repository with an origin remote, or a plain directory. */
export function projectDir(home: Pick<StoreHome, 'home' | 'env'>, name: string, git: boolean): string {
  const dir = join(home.home, name);
  mkdirSync(dir, { recursive: true });
  if (git) {
    const run = (args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...home.env, GIT_CONFIG_NOSYSTEM: '1' } });
    run(['init', '-q']);
    run(['remote', 'add', 'origin', 'git@github.com:example/Proj.git']);
  }
  return dir;
}

/**
 * A chat-completions request's messages as comparable items: the system prompt left out, and the content parts
 * `skipPart` says are the CLI's own.
 */
export function chatConversation(body: any, skipPart: (part: any) => boolean = () => false): unknown[] {
  return body.messages.filter((m: any) => m.role !== 'system').map((m: any) => {
    const text = typeof m.content === 'string' ? m.content
      : Array.isArray(m.content) ? m.content.filter((c: any) => !skipPart(c)).map((c: any) => c.text ?? `[${c.type}]`).join('') : m.content;
    return {
      role: m.role,
      ...(text ? { text } : {}),
      ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
      ...(m.tool_calls ? { calls: m.tool_calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)]) } : {}),
      ...(m.tool_call_id ? { result: m.tool_call_id } : {}),
    };
  });
}

/** A program that notes each start (a line in its log) and runs `real`: how a test sees that the store's CLI ran. */
export function recordingProgram(real: string): { program: string; starts: () => number } {
  const dir = tempDir('asyncai-log-shim-');
  const log = join(dir, 'starts.log');
  const program = join(dir, 'program');
  writeFileSync(program, `#!/bin/sh\necho "$1" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`);
  chmodSync(program, 0o755);
  return { program, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').length : 0) };
}
