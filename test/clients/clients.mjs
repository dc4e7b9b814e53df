// The real agent CLIs the end-to-end tests run (claude, codex, gemini, opencode, qwen, pi, droid, copilot, kilo, ccusage), pinned in this folder's package.json
// and package-lock.json and installed on demand into the git-ignored .cache/test-clients/ by the test global
// setup: a plain `npm install` of the project never downloads them. ASYNCAI_LOG_TEST_CLIENTS_SPEC (a folder
// holding another package.json and package-lock.json) and ASYNCAI_LOG_TEST_CLIENTS_DIR (another cache) let a
// run try another pin without reinstalling the shared cache (docs/development.md).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePinnedInstall } from '../../scripts/pinned-install.mjs';

const SPEC_DIR = process.env.ASYNCAI_LOG_TEST_CLIENTS_SPEC || fileURLToPath(new URL('.', import.meta.url));
/** Where the pinned CLIs are installed (git-ignored). */
export const CLIENTS_DIR = process.env.ASYNCAI_LOG_TEST_CLIENTS_DIR || fileURLToPath(new URL('../../.cache/test-clients', import.meta.url));

/** Install the pinned CLIs unless the cache already holds exactly them; says so on stderr when it installs. */
export function installTestClients() {
  return ensurePinnedInstall({
    specDir: SPEC_DIR,
    cacheDir: CLIENTS_DIR,
    onInstall: (dir) => process.stderr.write(`asyncai-log tests: installing the pinned agent CLIs (claude, codex, gemini, opencode, qwen, pi, droid, copilot, kilo, ccusage) into ${dir} (once)\n`),
  });
}

function missing(what) {
  return new Error(`${what} is not installed: npm test installs it, and so does node scripts/pinned-install.mjs test/clients .cache/test-clients`);
}

/** The path of a file inside the pinned clients' node_modules (`'@google', 'gemini-cli', 'bundle', 'gemini.js'`). */
export function clientFile(...parts) {
  const path = join(CLIENTS_DIR, 'node_modules', ...parts);
  if (!existsSync(path)) throw missing(parts.join('/'));
  return path;
}

/** The path of a pinned CLI's command (`codex`, `ccusage`) in the cache. */
export function clientBin(name) {
  const path = join(CLIENTS_DIR, 'node_modules', '.bin', name);
  if (!existsSync(path)) throw missing(`the real ${name}`);
  return path;
}

/**
 * The real Claude Code binary: the native file of the platform package. The wrapper package's bin/claude.exe
 * is a stub until its postinstall copies the native file over it, and the cache installs without scripts.
 */
export function claudeBinary() {
  const modules = join(CLIENTS_DIR, 'node_modules', '@anthropic-ai');
  const candidates = [join(modules, `claude-code-${process.platform}-${process.arch}`, 'claude'), join(modules, 'claude-code', 'bin', 'claude.exe')];
  for (const path of candidates) {
    if (existsSync(path) && statSync(path).size > 1_000_000) return path;
  }
  throw missing('the real claude binary');
}
