// The real `qwen` (Qwen Code) for tests: where it is, the settings that keep it offline and let it send images,
// and one run against the chat-completions mock with a fixed environment (reference: qwen-code.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { cleanEnv, run, type RunResult } from './run.js';

/** The model every run names (the mock answers any). */
export const QWEN_MODEL = 'mock-model';

/** The real Qwen Code entry point from the pinned test clients (`@qwen-code/qwen-code`, test/clients/). */
export function qwenBinary(): string {
  return clientFile('@qwen-code', 'qwen-code', 'cli.js');
}

/**
 * A Qwen home for tests: `<home>/.qwen/settings.json` with OpenAI auth, folder trust, usage statistics,
 * telemetry, auto-update and IDE integration off, and the image modality on (a model id it does not know
 * gets none, and an image becomes a placeholder text). Returns the `.qwen` root.
 */
export function writeQwenSettings(home: string): string {
  const root = join(home, '.qwen');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, disableAutoUpdate: true },
    ide: { enabled: false },
    model: { generationConfig: { modalities: { image: true } } },
  }));
  return root;
}

/**
 * Run the real qwen with `args` from `cwd`, its home `home`, against the mock at `baseUrl` (`.../v1`). A run of
 * the model (args starting with a flag) gets `--approval-mode yolo` first, so tools run headless; a subcommand
 * (`sessions list`) is run as it is.
 */
export function runQwen(options: { home: string; cwd: string; baseUrl: string; args: string[] }): Promise<RunResult> {
  const approval = options.args[0]?.startsWith('-') ? ['--approval-mode', 'yolo'] : [];
  return run(process.execPath, [qwenBinary(), ...approval, ...options.args], {
    cwd: options.cwd,
    env: cleanEnv({
      HOME: options.home,
      TERM: 'dumb',
      NO_COLOR: '1',
      OPENAI_API_KEY: 'sk-mock',
      OPENAI_BASE_URL: options.baseUrl,
      OPENAI_MODEL: QWEN_MODEL,
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    }),
    input: '',
  });
}

/** `qwen --resume <session> -p <prompt>`. */
export function resumeWithQwen(options: { home: string; cwd: string; baseUrl: string; session: string; prompt?: string }): Promise<RunResult> {
  return runQwen({ ...options, args: ['--resume', options.session, '-p', options.prompt ?? 'Reply with exactly: resumed-ok'] });
}
