// Shared by the Kilo tests: events as NDJSON lines, a project directory, and the built bin writing a Kilo session
// in an isolated Kilo home with the real program named.
import { kiloBinary, type KiloHome } from '../../support/kilo.js';
import { chatConversation } from '../../support/store-cli.js';
import { runBin, sessionOf, type RunResult } from '../../support/run.js';

export { ev } from '../../support/growing-source.js';
export { projectDir } from '../../support/store-cli.js';

/** The bin's environment: the home's, with ASYNCAI_LOG_KILO naming the real program. */
export function binEnv(home: KiloHome): Record<string, string> {
  return { ...home.env, ASYNCAI_LOG_KILO: kiloBinary() };
}

/** Write `input` as a Kilo session of `dir`; returns the run and its session id. */
export async function writeKiloSession(home: KiloHome, dir: string, input: string, args: string[] = []): Promise<{ result: RunResult; id: string }> {
  const result = await runBin(['--session-format', 'kilo', '--cwd', dir, ...args], { input, env: binEnv(home), cwd: dir });
  return { result, id: result.code === 0 ? sessionOf(result).session_id : '' };
}

/** Whether a content part is the `<environment_details>` text Kilo adds to each user message it sends. */
const isEnvironment = (c: any): boolean => c.type === 'text' && /^\s*<environment_details>/.test(c.text);

/** The request's messages as comparable items (system prompt and Kilo's environment details left out). */
export const conversation = (body: any): unknown[] => chatConversation(body, isEnvironment);
