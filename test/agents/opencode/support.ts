// Shared by the OpenCode tests: events as NDJSON lines, and the built bin writing an OpenCode session in an
// isolated OpenCode home with the real program named.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { opencodeBinary, type OpencodeHome } from '../../support/opencode.js';
import { flatten, runBin, sessionOf, type RunResult } from '../../support/run.js';

export const ev = (event: Record<string, unknown>): string => `${JSON.stringify(event)}\n`;

/** The bin's environment: the home's, with ASYNCAI_LOG_OPENCODE naming the real program. */
export function binEnv(home: OpencodeHome): Record<string, string> {
  return { ...home.env, ASYNCAI_LOG_OPENCODE: opencodeBinary() };
}

/** Write `input` as an OpenCode session of `dir`; returns the run and its session id. */
export async function writeOpencodeSession(home: OpencodeHome, dir: string, input: string, args: string[] = []): Promise<{ result: RunResult; id: string }> {
  const result = await runBin(['--session-format', 'opencode', '--cwd', dir, ...args], { input, env: binEnv(home), cwd: dir });
  return { result, id: result.code === 0 ? sessionOf(result).session_id : '' };
}

/** A project directory in `home`: a git repository with an origin remote, or a plain directory. */
export function projectDir(home: OpencodeHome, name: string, git: boolean): string {
  const dir = join(home.home, name);
  mkdirSync(dir, { recursive: true });
  if (git) {
    const run = (args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...home.env, GIT_CONFIG_NOSYSTEM: '1' } });
    run(['init', '-q']);
    run(['remote', 'add', 'origin', 'git@github.com:example/Proj.git']);
  }
  return dir;
}

/** The request's messages as comparable items (system prompt left out). */
export function conversation(body: any): unknown[] {
  return body.messages.filter((m: any) => m.role !== 'system').map((m: any) => {
    const text = typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((c: any) => c.text ?? `[${c.type}]`).join('') : m.content;
    return {
      role: m.role,
      ...(text ? { text } : {}),
      ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
      ...(m.tool_calls ? { calls: m.tool_calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)]) } : {}),
      ...(m.tool_call_id ? { result: m.tool_call_id } : {}),
    };
  });
}

/**
 * The conversation of a Messages API request the real claude sent, as [role, block type, content] rows: text,
 * image data, tool calls as [id, name, input], results as [id, is_error, content]; Claude Code's own
 * reminders left out.
 */
export function claudeConversation(body: any): unknown[] {
  return flatten(body.messages).flatMap((m) => m.blocks
    .filter((b: any) => !(b.type === 'text' && /^<system-reminder>|deferred tools are now available/.test(String(b.text))))
    .map((b: any) => [m.role, b.type, b.type === 'text' ? b.text : b.type === 'image' ? b.source.data
      : b.type === 'tool_use' ? [b.id, b.name, b.input] : b.type === 'tool_result' ? [b.tool_use_id, b.is_error ?? false, b.content] : null]));
}
