// Installs a pinned package set (a folder holding only package.json and package-lock.json) into a git-ignored
// cache folder, once: later calls find it there and return at once, until either file changes. Dependency-free
// so it runs before anything else is installed; the tests use it for the real agent CLIs (test/clients/).
// Usage as a command: node scripts/pinned-install.mjs <spec-dir> <cache-dir>
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = '.pinned-install';
const SPEC_FILES = ['package.json', 'package-lock.json'];
/** npm settings a nested npm may inherit from the npm that runs us; any other npm_config_* (global, prefix, omit...) would redirect it. */
const KEPT_NPM_CONFIG = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig', 'npm_config_offline', 'npm_config_prefer_offline', 'npm_config_prefer_online']);

/** The environment for an npm run from inside another npm's script: without the settings that would make it global or elsewhere. */
export function nestedNpmEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_config_/i.test(key) || KEPT_NPM_CONFIG.has(key.toLowerCase())));
}

/** Run npm with `args` in `cwd`; throws with npm's own output when it fails. */
export function runNpm(args, cwd, env = process.env) {
  const result = spawnSync('npm', args, { cwd, env: nestedNpmEnv(env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return result;
}

/** What identifies an install: the two spec files and the platform (optional native packages differ per platform). */
function stampOf(specDir) {
  const hash = createHash('sha256');
  for (const file of SPEC_FILES) hash.update(readFileSync(join(specDir, file))).update('\0');
  return hash.update(`${process.platform}-${process.arch}`).digest('hex');
}

/** Whether `cacheDir` holds the install that `specDir` pins. */
export function isPinnedInstallCurrent(specDir, cacheDir) {
  const stamp = join(cacheDir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === stampOf(specDir);
}

/**
 * Make `cacheDir/node_modules` hold what `specDir`'s lockfile pins, unless it already does: `npm install
 * --no-save` from the lockfile, preferring the local npm cache (not `npm ci`, which refuses a lockfile that
 * lacks optional platform packages the registry does not have). The install goes to a sibling folder that replaces `cacheDir` only
 * once complete, so an interrupted install is never taken for a finished one. Install scripts do not run
 * unless `scripts` is true. `onInstall` is told before an install starts (it takes a while). Returns cacheDir.
 */
export function ensurePinnedInstall({ specDir, cacheDir, scripts = false, onInstall = () => {} }) {
  specDir = resolve(specDir);
  cacheDir = resolve(cacheDir);
  if (isPinnedInstallCurrent(specDir, cacheDir)) return cacheDir;
  onInstall(cacheDir);
  const staging = `${cacheDir}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    for (const file of SPEC_FILES) copyFileSync(join(specDir, file), join(staging, file));
    runNpm(['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...(scripts ? [] : ['--ignore-scripts'])], staging);
    writeFileSync(join(staging, STAMP), stampOf(specDir));
    rmSync(cacheDir, { recursive: true, force: true });
    try {
      renameSync(staging, cacheDir);
    } catch (error) {
      // Another process installed the same set first: keep theirs.
      if (!isPinnedInstallCurrent(specDir, cacheDir)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return cacheDir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [specDir, cacheDir] = process.argv.slice(2);
  if (specDir === undefined || cacheDir === undefined) {
    process.stderr.write(`usage: node ${join(basename(dirname(process.argv[1])), basename(process.argv[1]))} <spec-dir> <cache-dir>\n`);
    process.exit(2);
  }
  ensurePinnedInstall({ specDir, cacheDir, onInstall: (dir) => process.stderr.write(`installing ${specDir} into ${dir}\n`) });
}
