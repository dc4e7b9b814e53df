// The build: TypeScript to dist/ (tsc), the bin bundled into a few files (scripts/bundle.mjs: a short run
// spent most of its CPU loading modules one by one), then the man page rendered from the built bin's --help
// (scripts/man-page.mjs). Run by `npm run build`, by prepack before a pack or publish, by the test global
// setup, and by bin/launch.mjs the first time a checkout that was never built runs (`npm install -g .` links
// a fresh clone as it is and runs nothing). Dependency-free: a checkout without its devDependencies gets
// them from the lockfile for the build, and loses them again after it, keeping only what runs (yargs).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeManPage } from './man-page.mjs';
import { runNpm } from './pinned-install.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const BUNDLE = join(ROOT, 'scripts', 'bundle.mjs');

/** npm prune leaves the emptied scope folders (@types, ...) behind. */
function removeEmptyFolders(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && readdirSync(join(dir, entry.name)).length === 0) rmdirSync(join(dir, entry.name));
  }
}

/**
 * Compile, bundle the bin, then write dist/man/asyncai-log.1. Without the devDependencies installed, install the locked
 * dependencies first (scripts off) and prune the devDependencies after. `stdio` is where tsc's report goes
 * (the launcher sends it to stderr: its stdout carries data).
 */
export function build({ stdio = 'inherit' } = {}) {
  const bare = !existsSync(TSC);
  if (bare) runNpm(['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], ROOT);
  const output = stdio === 'inherit' ? 'inherit' : ['ignore', 2, 2];
  execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: ROOT, stdio: output });
  // rolldown's API is asynchronous, and this build is not (the launcher builds before it imports the bin).
  execFileSync(process.execPath, [BUNDLE], { cwd: ROOT, stdio: output });
  writeManPage(ROOT);
  if (bare) {
    runNpm(['prune', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], ROOT);
    removeEmptyFolders(join(ROOT, 'node_modules'));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build();
