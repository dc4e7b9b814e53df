// The real `droid` (Factory Droid, `@factory/cli`) for tests: where its binary is, a home whose settings name the
// chat-completions mock as a custom model, and one `droid exec` run with its own API and telemetry sent to the
// same loopback mock, so nothing leaves the machine (reference: droid.md). No Factory login is needed for exec.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { cleanEnv, run, type RunResult } from './run.js';

/** The id droid gives the first custom model of its settings (`custom:<displayName>-<index>`). */
export const DROID_MODEL = 'custom:Mock-0';

/**
 * The real droid binary: the platform package's (the launcher package `@factory/cli` only finds and runs it).
 * The launcher is pinned at 0.225.1, whose own platform package is not in the registry: 0.225.2's is pinned.
 */
export function droidBinary(): string {
  return clientFile('@factory', `cli-${process.platform}-${process.arch}`, 'bin', 'droid');
}

/**
 * A droid home: `<home>/.factory/settings.json` with one custom model at the mock (`baseUrl`, `.../v1`), images
 * on (`noImageSupport: false`; without it a custom model is sent a placeholder text for each image). Returns
 * the `.factory` root.
 */
export function writeDroidSettings(home: string, baseUrl: string): string {
  const root = join(home, '.factory');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  writeFileSync(join(root, 'settings.json'), JSON.stringify({ customModels: [{
    model: 'mock-model', displayName: 'Mock', baseUrl, apiKey: 'sk-mock', provider: 'generic-chat-completion-api',
    maxOutputTokens: 4096, noImageSupport: false,
  }] }));
  return root;
}

/**
 * Run the real droid with `args` from `cwd`, its home `home`; its own API (session sync, flags) and telemetry
 * go to the mock at `api` (`http://127.0.0.1:<port>`), stdin closed.
 */
export function runDroid(options: { home: string; cwd: string; api: string; args: string[] }): Promise<RunResult> {
  return run(droidBinary(), options.args, {
    cwd: options.cwd,
    env: cleanEnv({
      HOME: options.home,
      TERM: 'dumb',
      NO_COLOR: '1',
      FACTORY_API_BASE_URL: options.api,
      FACTORY_TELEMETRY_INGEST_BASE_URL: options.api,
    }),
    input: '',
  });
}

/** `droid exec -s <session>` (continue in place) or `--fork <session>` (a new session copying it), with the mock model. */
export function resumeWithDroid(options: { home: string; cwd: string; api: string; session: string; fork?: boolean; prompt?: string; json?: boolean }): Promise<RunResult> {
  return runDroid({ ...options, args: ['exec', '-m', DROID_MODEL, '--auto', 'low', ...(options.json === true ? ['-o', 'json'] : []),
    options.fork === true ? '--fork' : '-s', options.session, options.prompt ?? 'Reply with exactly: resumed-ok'] });
}
