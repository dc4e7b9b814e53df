// The real `kilo` binary for tests: where it is (one function, so it can be repointed), an isolated home (HOME,
// TMPDIR and the four XDG directories) with a config naming a loopback mock provider and the KILO_DISABLE_*
// variables and KILO_TELEMETRY_LEVEL that keep it offline, and one run with a fixed environment (reference: kilo.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { run, tempDir, type RunResult } from './run.js';

/** The model every run names: `<provider>/<model>` of the mock provider. */
export const KILO_MODEL = 'mock/mock-model';

/** The real Kilo binary from the pinned test clients (`@kilocode/cli`, its native `cli-linux-x64` package). */
export function kiloBinary(): string {
  return clientFile('@kilocode', `cli-${process.platform}-${process.arch}`, 'bin', 'kilo');
}

/** An isolated Kilo home: HOME, TMPDIR and the four XDG directories, and the environment that keeps it offline. */
export interface KiloHome {
  home: string;
  /** `$XDG_DATA_HOME/kilo`: where kilo.db is (the writer's `--session-dir kilo=`). */
  dataDir: string;
  env: Record<string, string>;
}

/** Create a home whose config points Kilo at the mock at `baseUrl` (`http://127.0.0.1:<port>`). */
export function kiloHome(baseUrl: string): KiloHome {
  const home = tempDir('asyncai-log-kilo-');
  const xdg = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), XDG_STATE_HOME: join(home, 'state') };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  // Kilo makes `$TMPDIR/kilo` at each start: inside the home, not the machine's /tmp.
  const tmp = join(home, 'tmp');
  mkdirSync(tmp);
  const config = join(xdg.XDG_CONFIG_HOME, 'kilo');
  mkdirSync(config, { recursive: true });
  const limit = { context: 100000, output: 4096 };
  writeFileSync(join(config, 'kilo.json'), JSON.stringify({
    autoupdate: false, share: 'disabled', model: KILO_MODEL, small_model: KILO_MODEL,
    provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: `${baseUrl}/v1`, apiKey: 'sk-mock' },
      models: {
        // Images reach the model only when it declares them (`attachment`, `modalities.input`).
        'mock-model': { name: 'Mock', tool_call: true, attachment: true, modalities: { input: ['text', 'image'], output: ['text'] }, limit },
      } } },
  }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TMPDIR: tmp, TERM: 'dumb', NO_COLOR: '1', ...xdg,
    KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_SHARE: '1', KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1', KILO_DISABLE_CLAUDE_CODE: '1', KILO_DISABLE_EXTERNAL_SKILLS: '1', KILO_DISABLE_SESSION_INGEST: '1',
    // Telemetry off (any level but `all`): else each run ends waiting 2 s for PostHog, which it cannot reach.
    KILO_TELEMETRY_LEVEL: 'off',
  };
  return { home, dataDir: join(xdg.XDG_DATA_HOME, 'kilo'), env };
}

/** Run the real kilo with `args` from `cwd` in `home`; stdin closed, as the CLI needs. */
export function runKilo(home: KiloHome, cwd: string, args: string[]): Promise<RunResult> {
  return run(kiloBinary(), args, { cwd, env: home.env });
}

/** `kilo run --dir <dir> --session <id> -m <model> <prompt words...>` (words apart: one with spaces is sent quoted). */
export function continueWithKilo(home: KiloHome, dir: string, session: string, prompt = 'Reply with exactly: resumed-ok',
  model = KILO_MODEL): Promise<RunResult> {
  return runKilo(home, dir, ['run', '--dir', dir, '--session', session, '-m', model, ...prompt.split(' ')]);
}
