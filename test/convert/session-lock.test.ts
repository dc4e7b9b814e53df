// The lock convert takes on a session it may append to: waited for while its process lives, taken over once it
// is gone, and the torn append it records cut back to where it began, unless another process's bytes came
// among it (then the session is refused, never cut).
import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPath, SessionLock } from '../../lib/convert/session-lock.js';
import { tempDir } from '../support/run.js';

/** A session file of `base` bytes under a fresh root, and its mark as the manifest would hold it. */
function session(base: string) {
  const root = tempDir('asyncai-log-lock-');
  mkdirSync(join(root, 'asyncai-log-convert'));
  const file = join(root, 'session.jsonl');
  writeFileSync(file, base);
  const st = statSync(file);
  return { root, file, mark: { dev: st.dev, ino: st.ino, size: st.size, tail: '' } };
}

/** A pid that is no process any more (a child that has exited). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** A lock left by a dead run that was appending: its writes began at `start`, reached `own`, one of `pending` under way. */
function plantDead(root: string, file: string, mark: { dev: number; ino: number }, fields: object): void {
  writeFileSync(lockPath(root, file), JSON.stringify({ pid: deadPid(), started: '1', file, dev: mark.dev, ino: mark.ino, ...fields }));
}

describe('the session lock', () => {
  test('a lock whose process is gone is taken over, and the torn append it records is cut back to where it began', async () => {
    const { root, file, mark } = session('{"a":1}\n');
    appendFileSync(file, '{"b":2}\n{"c":');
    plantDead(root, file, mark, { start: 8, own: 16, pending: 20 });
    const { lock, inherited } = await SessionLock.acquire(root, file, mark);
    expect(inherited).toMatchObject({ start: 8, own: 16, pending: 20 });
    expect(lock.recover(inherited!, mark)).toEqual({ notice: `${file}: cut back the 13 bytes an interrupted convert run had appended` });
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).start).toBeUndefined();
    lock.close();
    SessionLock.release(lock.path);
    expect(existsSync(lock.path)).toBe(false);
  });

  test('an append the manifest recorded is not cut, whatever its lock says', async () => {
    const { root, file, mark } = session('{"a":1}\n');
    appendFileSync(file, '{"b":2}\n');
    plantDead(root, file, mark, { start: 8, own: 16, pending: 0 });
    const { lock, inherited } = await SessionLock.acquire(root, file, mark);
    expect(lock.recover(inherited!, { ...mark, size: 16 })).toEqual({});
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    lock.close();
    SessionLock.release(lock.path);
  });

  test('bytes another process appended after the torn append are not cut: the session is refused', async () => {
    const { root, file, mark } = session('{"a":1}\n');
    appendFileSync(file, '{"b":2}\n{"resume":true}\n');
    plantDead(root, file, mark, { start: 8, own: 16, pending: 0 });
    const { lock, inherited } = await SessionLock.acquire(root, file, mark);
    expect(lock.recover(inherited!, mark)).toEqual({ refused: 'an interrupted convert run appended to it, and so did another process' });
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n{"b":2}\n{"resume":true}\n');
    // The record stays: the next run refuses it too, until a new session replaces this one.
    lock.orphan();
    const again = await SessionLock.acquire(root, file, mark);
    expect(again.inherited).toMatchObject({ start: 8, own: 16 });
    again.lock.close();
    SessionLock.release(again.lock.path);
  });

  test('a lock a live process holds is waited for, and taken once released', async () => {
    const { root, file, mark } = session('{"a":1}\n');
    const first = await SessionLock.acquire(root, file, mark);
    let taken = false;
    const second = SessionLock.acquire(root, file, mark).then((got) => {
      taken = true;
      return got;
    });
    // Several polls go by while it is held.
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(taken).toBe(false);
    first.lock.close();
    SessionLock.release(first.lock.path);
    const got = await second;
    expect(got.inherited).toBeUndefined();
    got.lock.close();
    SessionLock.release(got.lock.path);
  });
});
