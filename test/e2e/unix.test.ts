// The edges a user meets first, run as a user runs them: file arguments, numbers, storage that cannot be
// made, signals, terminals and runs that write nothing.
import { describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { runBin } from '../support/run.js';

const ev = (o: object) => `${JSON.stringify(o)}\n`;

describe('storage that cannot be made', () => {
  test.runIf(existsSync('/proc/self'))('a --session-dir the file system refuses is one line and exit 1, at once', async () => {
    const r = await runBin(['--session-dir', 'claude-code-cli=/proc/asyncai-log-nope', '--cwd', '/home/user/project'], { input: ev({ type: 'user', text: 'hi' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('asyncai-log: cannot create the session: cannot make the directory /proc/asyncai-log-nope: no such file\n');
    expect(r.stdout).toBe('');
  });
});
