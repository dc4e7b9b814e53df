// The two ways onto PATH, run as a user runs them: `npm install -g .` from a fresh clone (npm links the clone
// as it is; the command builds it on its first run), and `npm pack` then `npm install -g <tarball>`. Each into
// a temporary --prefix, with no npm warning, and the installed command turns the quick-start example into a
// session with no devDependency installed beside it.
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { nestedNpmEnv } from '../../scripts/pinned-install.mjs';
import { ROOT, run, sessionOf, tempDir } from '../support/run.js';
import { freshCheckout, npm, npmWarnings } from './support.js';

const QUICKSTART = readFileSync(join(ROOT, 'fixtures', 'events', 'quickstart.ndjson'));
const INSTALL_TIMEOUT = 300_000;

/** Run the installed command on the quick-start example; returns the run and the transcript's records. */
async function quickStart(prefix: string) {
  const configDir = tempDir();
  const project = tempDir();
  // The user's environment (the first run of a clone builds it with npm, which needs the user's npm cache and
  // certificates: a Node from the registry has no global npmrc), with the session going to a temp directory.
  const r = await run(join(prefix, 'bin', 'asyncai-log'), ['--cwd', project], {
    input: QUICKSTART, env: { ...(nestedNpmEnv(process.env) as Record<string, string>), CLAUDE_CONFIG_DIR: configDir }, cwd: project,
  });
  const records = r.code === 0 ? readFileSync(sessionOf(r).session_file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  return { r, records };
}

describe('install', () => {
  test('npm install -g . from a fresh clone puts a working asyncai-log on PATH, with no warning and no devDependency', async () => {
    const clone = freshCheckout();
    const prefix = tempDir('asyncai-log-prefix-');
    const install = await npm(['install', '-g', '.', '--prefix', prefix], clone);
    expect(install.code, install.stderr).toBe(0);
    expect(npmWarnings(install)).toEqual([]);

    const first = await quickStart(prefix);
    expect(first.r.code, first.r.stderr).toBe(0);
    expect(first.r.stderr).toMatch(/^asyncai-log: first run from the checkout .*: building it \(once\)\n$/);
    expect(first.records.map((record) => record.type)).toEqual(['user', 'assistant', 'assistant', 'user', 'assistant']);
    // What runs is the clone's yargs; the build's devDependencies are gone again.
    const modules = readdirSync(join(clone, 'node_modules'));
    expect(modules).toContain('yargs');
    expect(modules.filter((name) => ['typescript', 'vitest', '@types'].includes(name))).toEqual([]);

    const second = await quickStart(prefix);
    expect(second.r.code).toBe(0);
    expect(second.r.stderr).toBe('');

    // npm links a man page only if it exists: the built clone has one, and installing it again links it.
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'asyncai-log.1'))).toBe(false);
    const again = await npm(['install', '-g', '.', '--prefix', prefix], clone);
    expect(again.code, again.stderr).toBe(0);
    expect(npmWarnings(again)).toEqual([]);
    expect(readFileSync(join(prefix, 'share', 'man', 'man1', 'asyncai-log.1'), 'utf8')).toMatch(/^\.TH ASYNCAI\\-LOG 1 /);
  }, INSTALL_TIMEOUT);

  test('npm pack then npm install -g <tarball> installs with no warning, no install script and no devDependency', async () => {
    // A clone with the project's dependencies installed (shared with this checkout), as npm pack needs them to build.
    const clone = freshCheckout();
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const packDir = tempDir('asyncai-log-pack-');
    const pack = await npm(['pack', '--pack-destination', packDir], clone);
    expect(pack.code, pack.stderr).toBe(0);
    expect(npmWarnings(pack)).toEqual([]);
    const tarball = join(packDir, readdirSync(packDir).find((name) => name.endsWith('.tgz'))!);

    const prefix = tempDir('asyncai-log-prefix-');
    const install = await npm(['install', '-g', tarball, '--prefix', prefix], packDir);
    expect(install.code, install.stderr).toBe(0);
    expect(npmWarnings(install)).toEqual([]);
    const installed = join(prefix, 'lib', 'node_modules', 'asyncai-log');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?install$|^prepare$/.test(name))).toEqual([]);
    expect(readdirSync(join(installed, 'node_modules')).filter((name) => ['typescript', 'vitest', '@types'].includes(name))).toEqual([]);
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);

    expect(readFileSync(join(prefix, 'share', 'man', 'man1', 'asyncai-log.1'), 'utf8')).toMatch(/^\.TH ASYNCAI\\-LOG 1 /);

    const { r, records } = await quickStart(prefix);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(records.map((record) => record.type)).toEqual(['user', 'assistant', 'assistant', 'user', 'assistant']);
  }, INSTALL_TIMEOUT);
});
