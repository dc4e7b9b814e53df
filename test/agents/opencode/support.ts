// Shared by the OpenCode tests: events as NDJSON lines, and the built bin writing an OpenCode session in an
// isolated OpenCode home with the real program named.
import { opencodeBinary, type OpencodeHome } from '../../support/opencode.js';
import { chatConversation } from '../../support/store-cli.js';
import { flatten, runBin, sessionOf, type RunResult } from '../../support/run.js';

export { ev } from '../../support/growing-source.js';
export { projectDir } from '../../support/store-cli.js';

/** The bin's environment: the home's, with ASYNCAI_LOG_OPENCODE naming the real program. */
export function binEnv(home: OpencodeHome): Record<string, string> {
  return { ...home.env, ASYNCAI_LOG_OPENCODE: opencodeBinary() };
}

/** Write `input` as an OpenCode session of `dir`; returns the run and its session id. */
export async function writeOpencodeSession(home: OpencodeHome, dir: string, input: string, args: string[] = []): Promise<{ result: RunResult; id: string }> {
  const result = await runBin(['--session-format', 'opencode', '--cwd', dir, ...args], { input, env: binEnv(home), cwd: dir });
  return { result, id: result.code === 0 ? sessionOf(result).session_id : '' };
}

/** The request's messages as comparable items (system prompt left out). */
export const conversation = (body: any): unknown[] => chatConversation(body);

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
