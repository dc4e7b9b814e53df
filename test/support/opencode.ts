// The real `opencode` binary for tests: where it is (one function, so it can be repointed), an isolated home
// (HOME and the four XDG directories) with a config naming a loopback mock provider and the plugin-install stub
// that keeps it offline, and one run with a fixed environment (reference: opencode.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { run, tempDir, type RunResult } from './run.js';

/** The model every run names: `<provider>/<model>` of the mock provider. */
export const OPENCODE_MODEL = 'mock/mock-model';
/**
 * A model of the same mock configured to take images (`modalities.input` holds `image`): OpenCode sends image
 * file parts only to such a model; to others it sends a text saying the model cannot read the image.
 */
export const OPENCODE_VISION_MODEL = 'mock/mock-vision';
const VERSION = '1.18.33';

/** The real OpenCode binary from the pinned test clients (`opencode-ai`, its native `opencode-linux-x64` package). */
export function opencodeBinary(): string {
  return clientFile('opencode-linux-x64', 'bin', 'opencode');
}

/** An isolated OpenCode home: HOME and the four XDG directories, and the environment that keeps it offline. */
export interface OpencodeHome {
  home: string;
  /** `$XDG_DATA_HOME/opencode`: where opencode.db is (the writer's `--session-dir opencode=`). */
  dataDir: string;
  env: Record<string, string>;
}

/** Create a home whose config points OpenCode at the mock at `baseUrl` (`http://127.0.0.1:<port>`). */
export function opencodeHome(baseUrl: string): OpencodeHome {
  const home = tempDir('asyncai-log-opencode-');
  const xdg = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), XDG_STATE_HOME: join(home, 'state') };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  const config = join(xdg.XDG_CONFIG_HOME, 'opencode');
  mkdirSync(join(config, 'node_modules'), { recursive: true });
  writeFileSync(join(config, 'opencode.json'), JSON.stringify({
    autoupdate: false, share: 'disabled', model: OPENCODE_MODEL, small_model: OPENCODE_MODEL,
    provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: `${baseUrl}/v1`, apiKey: 'sk-mock' },
      models: {
        'mock-model': { name: 'Mock', tool_call: true, limit: { context: 100000, output: 4096 } },
        'mock-vision': { name: 'Mock vision', tool_call: true, attachment: true, modalities: { input: ['text', 'image'], output: ['text'] },
          limit: { context: 100000, output: 4096 } },
      } } },
  }));
  // The plugin install OpenCode runs at start is a no-op when this lock lists every dependency.
  writeFileSync(join(config, 'package.json'), JSON.stringify({ dependencies: { '@opencode-ai/plugin': VERSION } }));
  writeFileSync(join(config, 'package-lock.json'), JSON.stringify({ name: 'opencode', lockfileVersion: 3, requires: true,
    packages: { '': { dependencies: { '@opencode-ai/plugin': VERSION } } } }));
  const env: Record<string, string> = {
    // TMPDIR: the test run's own (test/support/global-setup.ts): opencode unpacks a 5 MB library there each start.
    PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TMPDIR: tmpdir(), ...xdg,
    OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
  };
  return { home, dataDir: join(xdg.XDG_DATA_HOME, 'opencode'), env };
}

/** Run the real opencode with `args` from `cwd` in `home`; stdin closed, as the CLI needs. */
export function runOpencode(home: OpencodeHome, cwd: string, args: string[]): Promise<RunResult> {
  return run(opencodeBinary(), args, { cwd, env: home.env });
}

/** `opencode run --dir <dir> --session <id> -m <model> <prompt words...>`. */
export function continueWithOpencode(home: OpencodeHome, dir: string, session: string, prompt = 'Reply with exactly: resumed-ok',
  model = OPENCODE_MODEL): Promise<RunResult> {
  return runOpencode(home, dir, ['run', '--dir', dir, '--session', session, '-m', model, ...prompt.split(' ')]);
}
