// Installing the package as a user would, into temporary prefixes: a copy of the checkout (what a fresh
// clone holds), npm run with the environment a user has (none of the npm settings of an npm that runs the
// tests), the local npm cache preferred so nothing is fetched that the registry already gave.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { nestedNpmEnv } from '../../scripts/pinned-install.mjs';
import { ROOT, run, tempDir, type RunResult } from '../support/run.js';

/** A copy of the checkout's files as a fresh clone has them (tracked and new, nothing git ignores: no node_modules, no dist). */
export function freshCheckout(): string {
  const dir = tempDir('asyncai-log-clone-');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

/** Run npm in `cwd` as a user would (preferring the local cache). */
export function npm(args: string[], cwd: string): Promise<RunResult> {
  return run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, env: nestedNpmEnv(process.env) as Record<string, string> });
}

/** npm's warnings in its output (`npm warn ...` lines). */
export function npmWarnings(result: RunResult): string[] {
  return `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /^npm warn/i.test(line));
}
