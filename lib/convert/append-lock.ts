// Before a source's known sessions are looked at for an append: each is locked (one convert run appends to a
// session at a time, until its manifest line is fsync'd), a torn append a dead run left is settled, and the
// manifest is read again when the session moved since this run read it (another run appended and recorded).
import type { Stats } from 'node:fs';
import { findHarness } from '../agents/index.js';
import { Manifest, type ManifestEntry } from './manifest.js';
import { statNoFollow } from '../util/small-file.js';
import { describe } from './outcome.js';
import { LockWaitStopped, SessionLock, type LockWait } from './session-lock.js';
import type { ConvertTarget, ConvertTask, KnownSession } from './types.js';

/** What a manifest entry tells a converter about its session. */
export function knownSession(entry: ManifestEntry): KnownSession {
  return {
    size: entry.size, sha256: entry.sha256, session_id: entry.session_id, session_file: entry.session_file,
    input_format: entry.input_format, cwd: entry.cwd,
    ...(entry.session_mark ? { session_mark: entry.session_mark } : {}),
    ...(entry.tail_events !== undefined ? { tail_events: entry.tail_events } : {}),
  };
}

/** A session file named by the manifest, looked at without following a link or blocking (a planted FIFO). */
function statSession(path: string): Stats | string {
  try {
    return statNoFollow(path);
  } catch (error) {
    return describe(error);
  }
}

/** The targets as locked, the locks, and the manifest entries read again (by format). */
export interface LockedTargets {
  targets: ConvertTarget[];
  locks: Map<string, SessionLock>;
  known: Record<string, ManifestEntry>;
}

/**
 * Lock the known session of every target that may be appended to (`verify`: the bytes will be compared with
 * what the manifest knows) and bring what is known up to date. A session that is not a regular file, or not
 * the one recorded, loses its mark: it is never appended to (said in one line by `notice`).
 */
export async function lockSessions(
  task: ConvertTask, verify: ConvertTarget[], notice: (message: string) => void, wait: LockWait = {},
): Promise<LockedTargets> {
  const out: LockedTargets = { targets: [], locks: new Map(), known: {} };
  try {
    await lockEach(task, verify, notice, out, wait);
  } catch (error) {
    // One still holding a dead run's torn append is left for the next run; the others go at once.
    for (const lock of out.locks.values()) {
      if (lock.wroteAny) lock.orphan();
      else {
        lock.close();
        SessionLock.release(lock.path);
      }
    }
    if (error instanceof LockWaitStopped) throw error;
    throw new Error(`cannot lock the session: ${describe(error)}`);
  }
  return out;
}

/** The line said when a session cannot be appended to (`refused` says why): the source goes into a new one. */
export function refusedNotice(task: ConvertTask, sessionFile: string, refused: string): string {
  return `${task.path}: cannot append to ${sessionFile}: ${refused}; converted into a new session`;
}

async function lockEach(
  task: ConvertTask, verify: ConvertTarget[], notice: (message: string) => void, out: LockedTargets, wait: LockWait,
): Promise<void> {
  for (let target of verify) {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const known = target.known;
      if (known?.session_mark === undefined || findHarness(target.format)?.reopen === undefined) break;
      const { lock, inherited } = await SessionLock.acquire(target.root, known.session_file, known.session_mark, wait);
      let fresh: ManifestEntry | undefined;
      const st = statSession(known.session_file);
      const moved = typeof st === 'string' || st.size !== known.session_mark.size || st.ino !== known.session_mark.ino;
      if (inherited !== undefined || moved) {
        // Another run may have appended and recorded it since this run read the manifest.
        fresh = Manifest.read(target.root, () => {}).get(task.real, target.format);
        if (fresh && fresh.session_file !== known.session_file) {
          SessionLock.release(lock.path);
          lock.close();
          target = { ...target, known: knownSession(fresh) };
          out.known[target.format] = fresh;
          continue;
        }
        if (fresh) {
          target = { ...target, known: knownSession(fresh) };
          out.known[target.format] = fresh;
        }
      }
      out.locks.set(target.format, lock);
      let refused: string | undefined;
      if (typeof st !== 'string' && !st.isFile()) refused = 'it is not a regular file';
      else if (inherited !== undefined) {
        const settled = lock.recover(inherited, target.known?.session_mark);
        if (settled.notice !== undefined) notice(settled.notice);
        refused = settled.refused;
      }
      if (refused !== undefined) {
        notice(refusedNotice(task, known.session_file, refused));
        const { session_mark: _dropped, ...rest } = target.known!;
        target = { ...target, known: rest };
      }
      break;
    }
    out.targets.push(target);
  }
}
