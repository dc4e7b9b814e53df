// scripts/pinned-install.mjs: a pinned package set is installed into its cache folder once, reused while its
// package.json and lockfile stay the same, installed again when they change or when the cache holds no
// finished install; and test/clients/ pins the real CLIs exactly, which the cache then holds.
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePinnedInstall, nestedNpmEnv } from '../../scripts/pinned-install.mjs';
import { CLIENTS_DIR, claudeBinary, clientBin } from '../clients/clients.mjs';
import { geminiBinary } from '../support/gemini-cli.js';
import { opencodeBinary } from '../support/opencode.js';
import { droidBinary } from '../support/droid.js';
import { qwenBinary } from '../support/qwen-code.js';
import { copilotBinary } from '../support/copilot-cli.js';
import { cleanEnv, ROOT, tempDir } from '../support/run.js';

/** A spec folder pinning `dependencies`, with the lockfile npm makes for it (from the local cache). */
function pinnedSet(dir: string, dependencies: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pinned-set', private: true, dependencies }));
  execFileSync('npm', ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir, env: nestedNpmEnv(process.env), stdio: 'ignore',
  });
}

const installedVersion = (cache: string, name: string) => JSON.parse(readFileSync(join(cache, 'node_modules', name, 'package.json'), 'utf8')).version;

describe('pinned install', () => {
  test('installs once, reuses the install, and installs again when the pins change', () => {
    const spec = join(tempDir(), 'spec');
    const cache = join(tempDir(), 'cache', 'set');
    const installs: string[] = [];
    const ensure = () => ensurePinnedInstall({ specDir: spec, cacheDir: cache, onInstall: (dir: string) => installs.push(dir) });
    pinnedSet(spec, { y18n: '5.0.8' });

    expect(ensure()).toBe(cache);
    expect(installs).toEqual([cache]);
    expect(installedVersion(cache, 'y18n')).toBe('5.0.8');
    // Nothing is left of the staging folder the install went to first.
    expect(readdirSync(dirname(cache))).toEqual(['set']);

    ensure();
    expect(installs).toHaveLength(1);

    pinnedSet(spec, { y18n: '5.0.8', escalade: '3.2.0' });
    ensure();
    expect(installs).toHaveLength(2);
    expect(installedVersion(cache, 'escalade')).toBe('3.2.0');
  });

  test('a cache folder without a finished install is installed again', () => {
    const spec = join(tempDir(), 'spec');
    const cache = join(tempDir(), 'set');
    pinnedSet(spec, { y18n: '5.0.8' });
    ensurePinnedInstall({ specDir: spec, cacheDir: cache });
    rmSync(join(cache, '.pinned-install'));
    rmSync(join(cache, 'node_modules', 'y18n'), { recursive: true });
    let installed = 0;
    ensurePinnedInstall({ specDir: spec, cacheDir: cache, onInstall: () => { installed += 1; } });
    expect(installed).toBe(1);
    expect(installedVersion(cache, 'y18n')).toBe('5.0.8');
  });
});

describe('the real CLIs the tests run', () => {
  test('are pinned to exact versions in test/clients/, not in the project\'s dependencies', () => {
    const clients = JSON.parse(readFileSync(join(ROOT, 'test', 'clients', 'package.json'), 'utf8'));
    expect(clients.dependencies).toEqual({
      '@anthropic-ai/claude-code': '2.1.328', '@factory/cli': '0.225.1', '@factory/cli-linux-x64': '0.225.2', '@github/copilot': '1.0.102', '@google/gemini-cli': '0.61.0', '@kilocode/cli': '7.7.7', '@mariozechner/pi-coding-agent': '0.73.1', '@openai/codex': '0.171.0',
      '@qwen-code/qwen-code': '0.24.4', ccusage: '20.0.24', 'opencode-ai': '1.18.33',
    });
    const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const all = { ...project.dependencies, ...project.devDependencies };
    for (const name of Object.keys(clients.dependencies)) expect(all).not.toHaveProperty(name);
  });

  test('are installed in the cache at those versions (the global setup installs them)', () => {
    expect(claudeBinary().startsWith(CLIENTS_DIR)).toBe(true);
    // Each in a home of its own: codex --version alone leaves symlinks in $CODEX_HOME/tmp/arg0-linux/.
    const env = cleanEnv();
    expect(execFileSync(claudeBinary(), ['--version'], { encoding: 'utf8', env })).toMatch(/^2\.1\.328 /);
    expect(execFileSync(clientBin('codex'), ['--version'], { encoding: 'utf8', env }).trim()).toBe('codex-cli 0.171.0');
    expect(execFileSync(clientBin('ccusage'), ['--version'], { encoding: 'utf8', env }).trim()).toBe('ccusage 20.0.24');
    expect(geminiBinary().startsWith(CLIENTS_DIR)).toBe(true);
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@google', 'gemini-cli', 'package.json'), 'utf8')).version).toBe('0.61.0');
    // Package versions, not `--version` runs: those two write to the home they start in.
    expect(opencodeBinary().startsWith(CLIENTS_DIR)).toBe(true);
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', 'opencode-linux-x64', 'package.json'), 'utf8')).version).toBe('1.18.33');
    expect(qwenBinary().startsWith(CLIENTS_DIR)).toBe(true);
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@qwen-code', 'qwen-code', 'package.json'), 'utf8')).version).toBe('0.24.4');
    // The launcher package is 0.225.1; the binary that runs is its platform package's, 0.225.2 (docs/droid.md).
    expect(droidBinary().startsWith(CLIENTS_DIR)).toBe(true);
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@factory', 'cli', 'package.json'), 'utf8')).version).toBe('0.225.1');
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@factory', 'cli-linux-x64', 'package.json'), 'utf8')).version).toBe('0.225.2');
    expect(copilotBinary().startsWith(CLIENTS_DIR)).toBe(true);
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@kilocode', 'cli', 'package.json'), 'utf8')).version).toBe('7.7.7');
    expect(JSON.parse(readFileSync(join(CLIENTS_DIR, 'node_modules', '@github', 'copilot-linux-x64', 'package.json'), 'utf8')).version).toBe('1.0.102');
  });
});
