// Driving the real pi (`@mariozechner/pi-coding-agent`, pinned in test/clients/) offline: an agent dir of its own
// whose models.json names the loopback chat-completions mock (test/support/mock-chat-completions.ts) as provider
// `mock`, with a plain model and a reasoning one, both taking images; pi run with an isolated HOME, no update
// check or telemetry (PI_OFFLINE), stdin closed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { cleanEnv, run, tempDir, type RunResult } from './run.js';

/** The pinned pi's entry script (run with this node). */
export function piScript(): string {
  return clientFile('@mariozechner', 'pi-coding-agent', 'dist', 'cli.js');
}

export interface PiHome {
  /** `$PI_CODING_AGENT_DIR`: models.json, and sessions/ below it. */
  agentDir: string;
  env: Record<string, string>;
}

/** A fresh HOME and agent dir whose provider `mock` is the chat-completions mock at `baseUrl` (`http://127.0.0.1:<port>`). */
export function piHome(baseUrl: string): PiHome {
  const top = tempDir('asyncai-log-pi-');
  const agentDir = join(top, 'agent');
  mkdirSync(agentDir, { recursive: true, mode: 0o700 });
  const models = [
    { id: 'mock-model', input: ['text', 'image'] },
    { id: 'mock-think', reasoning: true, input: ['text', 'image'] },
  ];
  writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers: { mock: {
    baseUrl: `${baseUrl}/v1`, api: 'openai-completions', apiKey: 'sk-mock',
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models,
  } } }));
  return { agentDir, env: cleanEnv({ TERM: 'dumb', PI_OFFLINE: '1', PI_CODING_AGENT_DIR: agentDir }) };
}

/** Run pi with `args` from `cwd` (stdin closed: a question on it is answered no). */
export function runPi(home: PiHome, cwd: string, args: string[]): Promise<RunResult> {
  return run(process.execPath, [piScript(), ...args], { cwd, env: home.env });
}

/** Continue the session file `file` with the mock model, printing the answer. */
export function continueWithPi(home: PiHome, cwd: string, file: string, prompt = 'Reply with exactly: resumed-ok', model = 'mock-model'): Promise<RunResult> {
  return runPi(home, cwd, ['--provider', 'mock', '--model', model, '--session', file, '-p', prompt]);
}
