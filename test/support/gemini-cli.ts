// The real `gemini` binary for tests: where it is (one function, so it can be repointed), the settings that keep
// it offline, and one run against a mock Gemini API with a fixed environment (reference: gemini-cli.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { cleanEnv, run, type RunResult } from './run.js';

/** The model every run names (without `-m` the CLI asks a model router first). */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** The real Gemini CLI entry point from the pinned test clients (`@google/gemini-cli`, test/clients/). */
export function geminiBinary(): string {
  return clientFile('@google', 'gemini-cli', 'bundle', 'gemini.js');
}

/**
 * A Gemini home for tests: `<home>/.gemini/settings.json` with API-key auth, folder trust, usage statistics,
 * telemetry, auto-update and IDE integration off. Returns the `.gemini` root.
 */
export function writeGeminiSettings(home: string): string {
  const root = join(home, '.gemini');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ide: { enabled: false },
  }));
  return root;
}

/** Run the real gemini with `args` from `cwd`, its home `home`, against the mock at `baseUrl`. */
export function runGemini(options: { home: string; cwd: string; baseUrl: string; args: string[] }): Promise<RunResult> {
  const missing = join(options.home, 'no-such-settings.json');
  return run(process.execPath, [geminiBinary(), ...options.args], {
    cwd: options.cwd,
    env: cleanEnv({
      HOME: options.home,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: options.baseUrl,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: missing,
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: missing,
      NO_COLOR: '1',
    }),
  });
}

/** `gemini -m <model> --resume <session> -p <prompt>`. */
export function resumeWithGemini(options: { home: string; cwd: string; baseUrl: string; session: string; prompt?: string }): Promise<RunResult> {
  return runGemini({ ...options, args: ['-m', GEMINI_MODEL, '--resume', options.session, '-p', options.prompt ?? 'Reply with exactly: resumed-ok'] });
}
