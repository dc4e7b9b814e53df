// One wording for an input that cannot be read, in every command: `asyncai-log: <name>: cannot be read: <why>`
// for a missing file, a directory where a file is wanted, permission denied and what is not a regular file,
// exit 1 (the filter names the input as given, `read` the path it opened, convert the input as given).
import { afterAll, describe, expect, test } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, cleanEnv, run, tempDir, type RunResult } from '../support/run.js';

const isRoot = process.getuid?.() === 0;
/** Root reads any file: permission is tested as `nobody` through setpriv, when there is one. */
const setpriv = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();

// The test run's temporary directory is root's alone: what nobody reads lives in one of its own, under /tmp.
const shared: string[] = [];
afterAll(() => {
  for (const dir of shared) rmSync(dir, { recursive: true, force: true });
});
function sharedDir(): string {
  const dir = mkdtempSync('/tmp/asyncai-log-perm-');
  shared.push(dir);
  chmodSync(dir, 0o755);
  return dir;
}

/** The bin run as `command` over `file` in `dir` (as nobody when `asNobody`). */
async function runOver(command: string[], file: string, dir: string, asNobody = false): Promise<RunResult> {
  const home = asNobody && isRoot ? join(dir, 'home') : tempDir();
  mkdirSync(home, { recursive: true });
  chmodSync(home, 0o777);
  const env = cleanEnv({ HOME: home, CLAUDE_CONFIG_DIR: home, CODEX_HOME: home, TMPDIR: home });
  const argv = [BIN, ...command, file];
  if (asNobody && isRoot) {
    return run(setpriv!, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...argv], { cwd: dir, env });
  }
  return run(process.execPath, argv, { cwd: dir, env, input: '' });
}

/** A directory holding each kind of input that cannot be read (one nobody may enter, for `asNobody`). */
function inputs(asNobody: boolean): string {
  const dir = asNobody && isRoot ? sharedDir() : tempDir();
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'locked.jsonl'), '{"type":"user","text":"hi"}\n', { mode: 0o000 });
  execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
  return dir;
}

// [command, how the file is named in the diagnostic: as given, or as the path opened]
const COMMANDS: [string[], (dir: string, file: string) => string][] = [
  [[], (_dir, file) => file],
  [['read'], (dir, file) => join(dir, file)],
  [['convert', '--dry-run'], (_dir, file) => file],
];

// [file, why, asNobody, the commands it is an error for]: a directory is convert's input, and a FIFO the
// filter's and read's (read as a stream, as cat reads one).
const CASES: [string, string, boolean, string[]][] = [
  ['missing.jsonl', 'no such file', false, ['', 'read', 'convert']],
  ['missing/below.jsonl', 'no such file', false, ['', 'read', 'convert']],
  ['folder', 'is a directory', false, ['', 'read']],
  ['locked.jsonl', 'permission denied', true, ['', 'read', 'convert']],
  ['pipe.jsonl', 'not a regular file', false, ['convert']],
];

describe('an input that cannot be read: one wording in every command', () => {
  for (const [command, named] of COMMANDS) {
    for (const [file, why, asNobody, commands] of CASES) {
      if (!commands.includes(command[0] ?? '')) continue;
      test.skipIf(asNobody && isRoot && setpriv === undefined)(
        `asyncai-log ${command.join(' ')} ${file}: "<name>: cannot be read: ${why}", exit 1`, async () => {
          const dir = inputs(asNobody);
          const r = await runOver(command, file, dir, asNobody);
          expect(r.code).toBe(1);
          expect(r.stderr.split('\n')).toContain(`asyncai-log: ${named(dir, file)}: cannot be read: ${why}`);
          // The temp dir's random name may hold capitals (`asyncai-log-run-EDYH9b`): only what is said of it counts.
          expect(r.stderr.replaceAll(dir, '<dir>'), r.stderr).not.toMatch(/E[A-Z]{3,}|Error|\bstat\b|\bopen\b/);
        });
    }
  }
});
