// The tests keep out of the user's HOME: the run's global setup points HOME at a new empty directory of its own
// and unsets the variables naming a place of the user's (test/support/sandbox-home.ts); at the end of the run,
// anything written there fails the run, named.
import { afterEach, expect, test } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { SANDBOX_HOME_PREFIX, sandboxHome } from '../support/sandbox-home.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  process.exitCode = undefined;
});

test('the tests run in the run\'s own HOME, with CODEX_HOME, CLAUDE_CONFIG_DIR and XDG_*_HOME unset', () => {
  expect(basename(homedir()).startsWith(SANDBOX_HOME_PREFIX)).toBe(true);
  for (const name of ['CODEX_HOME', 'CLAUDE_CONFIG_DIR', 'GEMINI_CLI_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME']) {
    expect(process.env[name], name).toBeUndefined();
  }
});

test('the check at the end passes an empty home, and fails naming every path written into one, then removes it', () => {
  const empty = sandboxHome();
  const first = homedir();
  expect(dirname(first)).toBe(tmpdir());
  expect(() => empty()).not.toThrow();
  expect(existsSync(first)).toBe(false);

  const written = sandboxHome();
  const home = homedir();
  mkdirSync(join(home, '.codex', 'tmp'), { recursive: true });
  writeFileSync(join(home, '.codex', 'tmp', 'arg0'), '');
  expect(() => written()).toThrow(/wrote into HOME[^]*\n {2}~\/\.codex\n {2}~\/\.codex\/tmp\n {2}~\/\.codex\/tmp\/arg0$/);
  expect(process.exitCode).toBe(1);
  expect(existsSync(home)).toBe(false);
});
