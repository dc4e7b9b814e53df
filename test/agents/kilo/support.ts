// Shared by the Kilo tests: events as NDJSON lines, a project directory, and the built bin writing a Kilo session
// in an isolated Kilo home with the real program named.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { kiloBinary, type KiloHome } from '../../support/kilo.js';
import { runBin, sessionOf, type RunResult } from '../../support/run.js';

export const ev = (event: Record<string, unknown>): string => `${JSON.stringify(event)}\n`;

/** The bin's environment: the home's, with ASYNCAI_LOG_KILO naming the real program. */
export function binEnv(home: KiloHome): Record<string, string> {
  return { ...home.env, ASYNCAI_LOG_KILO: kiloBinary() };
}

/** Write `input` as a Kilo session of `dir`; returns the run and its session id. */
export async function writeKiloSession(home: KiloHome, dir: string, input: string, args: string[] = []): Promise<{ result: RunResult; id: string }> {
  const result = await runBin(['--session-format', 'kilo', '--cwd', dir, ...args], { input, env: binEnv(home), cwd: dir });
  return { result, id: result.code === 0 ? sessionOf(result).session_id : '' };
}

/** A project directory in `home`: a git repository with an origin remote, or a plain directory. */
export function projectDir(home: KiloHome, name: string, git: boolean): string {
  const dir = join(home.home, name);
  mkdirSync(dir, { recursive: true });
  if (git) {
    const run = (args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...home.env, GIT_CONFIG_NOSYSTEM: '1' } });
    run(['init', '-q']);
    run(['remote', 'add', 'origin', 'git@github.com:example/Proj.git']);
  }
  return dir;
}

/** Whether a content part is the `<environment_details>` text Kilo adds to each user message it sends. */
const isEnvironment = (c: any): boolean => c.type === 'text' && /^\s*<environment_details>/.test(c.text);

/** The request's messages as comparable items (system prompt and Kilo's environment details left out). */
export function conversation(body: any): unknown[] {
  return body.messages.filter((m: any) => m.role !== 'system').map((m: any) => {
    const text = typeof m.content === 'string' ? m.content
      : Array.isArray(m.content) ? m.content.filter((c: any) => !isEnvironment(c)).map((c: any) => c.text ?? `[${c.type}]`).join('') : m.content;
    return {
      role: m.role,
      ...(text ? { text } : {}),
      ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
      ...(m.tool_calls ? { calls: m.tool_calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)]) } : {}),
      ...(m.tool_call_id ? { result: m.tool_call_id } : {}),
    };
  });
}
