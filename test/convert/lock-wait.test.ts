// A session lock whose holder is alive but hung never holds convert for ever: SIGTERM or SIGHUP while the lock
// is waited for ends the run at once (143, 129), nothing of its own left (no lock, no run file, the session as it
// was), and the wait itself is bounded (LOCK_WAIT_MS, shown with an injected clock): then the file fails, one line.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockSessions } from '../../lib/convert/append-lock.js';
import { LOCK_WAIT_MS, LockWaitStopped, lockPath, SessionLock } from '../../lib/convert/session-lock.js';
import type { ConvertTask } from '../../lib/convert/types.js';
import { catches, finished, spawnBin, until } from '../reliability/support.js';
import { runBin, tempDir } from '../support/run.js';

/** Generic events of one turn numbered `n`. */
function turn(n: number): string {
  const timestamp = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return `${JSON.stringify({ type: 'user', text: `prompt ${n}`, timestamp })}\n${JSON.stringify({ type: 'assistant', text: `reply ${n}`, timestamp })}\n`;
}

/** A process's start time as the lock records it (field 22 of /proc/<pid>/stat). */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('a session lock held by a live process that never lets go', () => {
  test.each([['SIGTERM', 143], ['SIGHUP', 129]] as const)('%s while convert waits for it: exit %i at once, the lock and the session as they were, no run file', async (signal, code) => {
    const dir = tempDir('asyncai-log-lockwait-');
    const source = join(dir, 'events.ndjson');
    const root = join(dir, 'claude');
    writeFileSync(source, turn(0));
    const first = await runBin(['convert', source, '--session-dir', `claude-code-cli=${root}`, '--jobs', '1'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const session = JSON.parse(first.stdout.trim()).harnesses[0].session_file as string;
    appendFileSync(source, turn(1));
    // The holder: a live process (a sleeping child), named by pid and start time as a run of ours would be.
    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    try {
      const st = statSync(session);
      const lock = lockPath(root, session);
      const planted = JSON.stringify({ pid: holder.pid, started: startTime(holder.pid!), file: session, dev: st.dev, ino: st.ino });
      writeFileSync(lock, planted, { mode: 0o600 });
      const manifestDir = join(root, 'asyncai-log-convert');
      const before = readdirSync(manifestDir).sort();
      const sessionBytes = readFileSync(session);

      const run = spawnBin(['convert', source, '--session-dir', `claude-code-cli=${root}`, '--jobs', '1'], { cwd: dir });
      run.child.stdin.end();
      // Sent once the run handles the stop signals (a signal before the wait is reached stops the run too: the file then
      // waits no more than one poll).
      await until(() => catches(run.child.pid!, 'SIGHUP'));
      run.child.kill(signal);
      const r = await finished(run);
      expect(r.code, r.stderr).toBe(code);
      expect(JSON.parse(r.stdout.toString().trim())).toMatchObject({ status: 'skipped', reason: 'interrupted' });
      expect(readFileSync(lock, 'utf8')).toBe(planted);
      expect(readdirSync(manifestDir).sort()).toEqual(before);
      expect(readFileSync(session)).toEqual(sessionBytes);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);
});

describe('the wait for a live holder', () => {
  /** A session under a fresh root that a live process (this one) holds the lock of, and the task to lock it. */
  async function held() {
    const root = tempDir('asyncai-log-lockwait-');
    mkdirSync(join(root, 'asyncai-log-convert'));
    const file = join(root, 'session.jsonl');
    writeFileSync(file, '{"a":1}\n');
    const st = statSync(file);
    const mark = { dev: st.dev, ino: st.ino, size: st.size, tail: '' };
    const holder = await SessionLock.acquire(root, file, mark);
    const known = { session_file: file, session_mark: mark } as never;
    const task = { path: 'src', real: 'src', targets: [] } as unknown as ConvertTask;
    const target = { format: 'claude-code-cli', root, known } as never;
    return { root, file, mark, holder, task, target };
  }

  test(`is bounded: after LOCK_WAIT_MS the file fails with one line naming the holder, and nothing of ours is left`, async () => {
    const { file, holder, task, target } = await held();
    let clock = 0;
    let waited = 0;
    const wait = { now: () => clock, sleep: async (ms: number) => { clock += ms; waited += 1; } };
    const failure = await lockSessions(task, [target], () => {}, wait).catch((error: Error) => error);
    expect((failure as Error).message).toBe(`cannot lock the session: ${file}: held by process ${process.pid}`);
    expect(clock).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
    expect(waited).toBeGreaterThan(1);
    // The holder's lock stands.
    expect(JSON.parse(readFileSync(holder.lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    holder.lock.close();
    SessionLock.release(holder.lock.path);
  });

  test('ends at the next poll once the run is stopped, taking nothing', async () => {
    const { holder, task, target } = await held();
    let stopped = false;
    const wait = { stopped: () => stopped, sleep: async () => { stopped = true; } };
    const failure = await lockSessions(task, [target], () => {}, wait).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(LockWaitStopped);
    expect(JSON.parse(readFileSync(holder.lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    holder.lock.close();
    SessionLock.release(holder.lock.path);
    expect(existsSync(holder.lock.path)).toBe(false);
  });
});
