// The test run's HOME: a new empty directory for the whole run, so that no test (nor any program one starts:
// the real claude, codex, gemini, opencode, npm) can write into the user's own. `npm test` once left symlinks
// in ~/.codex/tmp/arg0-linux/ pointing into the clone's .cache, dangling once the clone was gone. A test that
// needs a home makes its own under its temporary directory; at the end this one must still be empty.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The variables naming a place of the user's that programs write to, unset for the run: a test that needs one
 * sets it under its own temporary directory (cleanEnv, the drivers' homes).
 */
const HOME_VARIABLES = [
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  'CODEX_HOME', 'CLAUDE_CONFIG_DIR', 'GEMINI_CLI_HOME',
];

/** How the run's HOME is named (`<tmpdir>/<prefix>XXXXXX`): a test can see that it runs in it. */
export const SANDBOX_HOME_PREFIX = 'asyncai-log-tests-home-';

/** At most this many paths are named when the home is not empty at the end. */
const NAMED_PATHS = 40;

/** Every path under `dir`, relative to it (directories too, symlinks not followed). */
function pathsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * Point HOME at a new empty directory for the rest of the run (this process and every test process started
 * after it) and unset HOME_VARIABLES. npm keeps the cache and user config it had (it finds both through HOME):
 * the tests that run npm install from that cache, offline-first, as a user would. Returns the check for the
 * end of the run: it removes the directory and, when it was not empty, throws naming what was written and
 * makes the run exit 1.
 */
export function sandboxHome(): () => void {
  const userHome = homedir();
  process.env.npm_config_cache ??= process.env.NPM_CONFIG_CACHE ?? join(userHome, '.npm');
  process.env.npm_config_userconfig ??= process.env.NPM_CONFIG_USERCONFIG ?? join(userHome, '.npmrc');
  const home = mkdtempSync(join(tmpdir(), SANDBOX_HOME_PREFIX));
  process.env.HOME = home;
  for (const name of HOME_VARIABLES) delete process.env[name];
  return () => {
    const written = pathsUnder(home);
    rmSync(home, { recursive: true, force: true });
    if (written.length === 0) return;
    const named = written.slice(0, NAMED_PATHS).map((path) => `  ~/${path}`).join('\n');
    const more = written.length > NAMED_PATHS ? `\n  ... and ${written.length - NAMED_PATHS} more` : '';
    // vitest only prints what a global teardown throws ("error during close") and exits 0: the code says it.
    process.exitCode = 1;
    throw new Error(`the tests wrote into HOME (${home}), which must stay empty: a test, or a program it started, `
      + `used the run's HOME instead of a home under its own temporary directory (set HOME, CODEX_HOME, XDG_*):\n${named}${more}`);
  };
}
