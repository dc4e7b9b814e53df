// The real agent CLIs the end-to-end tests run (claude, codex, gemini, opencode, pi, ccusage), pinned in this folder's
// package.json and package-lock.json and installed on demand into the git-ignored .cache/test-clients-<pins>/ by the
// test global setup: a plain `npm install` of the project never downloads them. The folder is named for the pins, so
// checkouts of the project with other pins (worktrees sharing one .cache) keep their own installs side by side
// instead of replacing each other's on every run.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePinnedInstall } from '../../scripts/pinned-install.mjs';

const SPEC_DIR = fileURLToPath(new URL('.', import.meta.url));
/** The first 12 hex digits of the pins' hash: what names their install. */
const PINS = createHash('sha256')
  .update(readFileSync(join(SPEC_DIR, 'package.json'))).update('\0')
  .update(readFileSync(join(SPEC_DIR, 'package-lock.json'))).digest('hex').slice(0, 12);
/** Where the pinned CLIs are installed (git-ignored). */
export const CLIENTS_DIR = fileURLToPath(new URL(`../../.cache/test-clients-${PINS}`, import.meta.url));

/** Install the pinned CLIs unless the cache already holds exactly them; says so on stderr when it installs. */
export function installTestClients() {
  return ensurePinnedInstall({
    specDir: SPEC_DIR,
    cacheDir: CLIENTS_DIR,
    onInstall: (dir) => process.stderr.write(`asyncai-log tests: installing the pinned agent CLIs (claude, codex, gemini, opencode, pi, ccusage) into ${dir} (once)\n`),
  });
}

function missing(what) {
  return new Error(`${what} is not installed: npm test installs it, and so does node test/clients/clients.mjs`);
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

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `node test/clients/clients.mjs`: install them now (and print where).
  process.stdout.write(`${installTestClients()}\n`);
}
