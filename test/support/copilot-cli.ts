// The real `copilot` (GitHub Copilot CLI) for tests: where it is, and one run against the chat-completions mock
// with a fixed environment (reference: copilot-cli.md). COPILOT_OFFLINE with a provider base URL needs no GitHub
// login; the runtime the npm loader unpacks on first start (about 235 MB) goes into the pinned clients' cache,
// once, rather than into each test's HOME.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENTS_DIR, clientBin } from '../clients/clients.mjs';
import { cleanEnv, run, type RunResult } from './run.js';

/** The model every run names (the mock answers any). */
export const COPILOT_MODEL = 'mock-model';

/** The real Copilot CLI's npm bin from the pinned test clients (`@github/copilot`, test/clients/). */
export function copilotBinary(): string {
  return clientBin('copilot');
}

/** Where the CLI unpacks its runtime (`COPILOT_PKG_CACHE_HOME`): beside the pinned install, git-ignored. */
function packageCache(): string {
  const dir = join(CLIENTS_DIR, 'copilot-pkg');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The CLI's root in `home` (`~/.copilot`, where it keeps `session-state/`). */
export function copilotRoot(home: string): string {
  return join(home, '.copilot');
}

/** What every run of copilot is given: offline, no updates, no colour, the mock at `baseUrl` as its provider. */
export function copilotVariables(baseUrl: string): Record<string, string> {
  return {
    NO_COLOR: '1',
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: baseUrl,
    COPILOT_PROVIDER_API_KEY: 'sk-mock',
    COPILOT_MODEL,
    COPILOT_PKG_CACHE_HOME: packageCache(),
  };
}

/**
 * Run the real copilot with `args` from `cwd`, its home `home`, against the mock at `baseUrl` (`.../v1`). A run
 * of the model (`-p`) gets `--allow-all-tools`, so tools run headless.
 */
export function runCopilot(options: { home: string; cwd: string; baseUrl: string; args: string[]; env?: Record<string, string> }): Promise<RunResult> {
  const tools = options.args.includes('-p') ? ['--allow-all-tools'] : [];
  return run(copilotBinary(), [...options.args, ...tools], {
    cwd: options.cwd,
    env: cleanEnv({ HOME: options.home, TERM: 'dumb', ...copilotVariables(options.baseUrl), ...(options.env ?? {}) }),
    input: '',
  });
}

/** `copilot --resume=<session> -p <prompt>` (the session: its id, or a prefix of it). */
export function resumeWithCopilot(options: { home: string; cwd: string; baseUrl: string; session: string; prompt?: string }): Promise<RunResult> {
  return runCopilot({ ...options, args: [`--resume=${options.session}`, '-p', options.prompt ?? 'Reply with exactly: resumed-ok'] });
}

/** The CLI's own context before a prompt it sends: `<current_datetime>…</current_datetime>` and a blank line. */
export function withoutDatetime(text: string): string {
  return text.replace(/^<current_datetime>[^<]*<\/current_datetime>\n\n/, '');
}
