// The lock a convert run holds on a session it may append to, from before it decides what to append until its
// manifest line is fsync'd: a file in the manifest directory, created O_EXCL, that names its process (pid and
// start time: a lock whose process is gone is taken over) and records the append under way (where our writes
// began, how far they went, the write in flight), so the run that takes it over cuts a torn append back.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync, constants, fstatSync, ftruncateSync, linkSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync, type Stats,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { FileMark, WriteJournal } from '../session/append-file.js';
import { readOwnFile, statNoFollow } from '../util/small-file.js';
import { manifestDir } from './manifest.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
/** A lock file that never got its first line (its creator died at once) counts as stale after this long. */
const UNWRITTEN_STALE_MS = 10_000;
/** Between looks at a lock another live run holds. */
const POLL_MS = 25;
/**
 * How long a lock a live process holds is waited for: a holder that long at one append is hung, and the file
 * fails (one line) rather than hold the run for ever.
 */
export const LOCK_WAIT_MS = 30_000;

/** How `acquire` waits: `stopped` ends the wait (the run was signalled); the clock and sleep are for tests. */
export interface LockWait {
  stopped?: () => boolean;
  limitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The wait for a lock was ended because the run is stopping: nothing was taken. */
export class LockWaitStopped extends Error {}

/** What a lock file says: its owner, the session, and the append under way. */
export interface LockState {
  pid: number;
  /** The owner's start time (from /proc; '' where there is none): a reused pid is not the owner. */
  started: string;
  file: string;
  dev: number;
  ino: number;
  /** Where our first write began, how far our writes are known to have gone, the length of the one in flight. */
  start?: number;
  own?: number;
  pending?: number;
  /** Another process's bytes came between our writes: they are not cut. */
  foreign?: boolean;
}

/** A process's start time in clock ticks since boot (Linux), or '' where it cannot be known. */
function startTime(pid: number | 'self'): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

const OWN_START = startTime('self');

/** The process that wrote `state` is still running (the same process, not a reuse of its pid). */
function alive(state: LockState): boolean {
  if (state.pid === 0) return false;
  try {
    process.kill(state.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = state.pid === process.pid ? OWN_START : startTime(state.pid);
  return state.started === '' || now === '' || now === state.started;
}

function parseState(text: string): LockState | undefined {
  try {
    const value = JSON.parse(text) as LockState;
    return typeof value.pid === 'number' && typeof value.file === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Read a lock file without following a link or blocking on a FIFO; undefined when gone. */
function readLock(path: string): { text: string; mtimeMs: number } | undefined {
  const found = readOwnFile(path, 64 * 1024);
  return found && { text: found.text, mtimeMs: found.stat.mtimeMs };
}

/** The lock file of a session file under a root. */
export function lockPath(root: string, sessionFile: string): string {
  return join(manifestDir(root), `lock-${createHash('sha256').update(sessionFile).digest('hex').slice(0, 32)}`);
}

/**
 * A session's lock, held by this process. It is the session's write journal while appending (`journal`), and
 * is released (`release`, by path: it may be called from another thread) once the manifest records the append.
 */
export class SessionLock implements WriteJournal {
  private length = 0;

  private constructor(readonly path: string, private fd: number | undefined, private state: LockState) {}

  /**
   * Take the lock of `mark`'s session file under `root`, waiting while a live process holds it. A lock left by a
   * process that is gone is taken over; its record of a torn append comes back as `inherited` (and stays in
   * the new lock until `recover` settles it, so a crash meanwhile loses nothing). A live holder is waited for
   * at most `LOCK_WAIT_MS` (then it throws `<file>: held by process <pid>`); `wait.stopped` ends the wait at
   * the next poll with LockWaitStopped.
   */
  static async acquire(root: string, file: string, mark: FileMark, wait: LockWait = {}): Promise<{ lock: SessionLock; inherited?: LockState }> {
    const path = lockPath(root, file);
    const own: LockState = { pid: process.pid, started: OWN_START, file, dev: mark.dev, ino: mark.ino };
    const now = wait.now ?? Date.now;
    const deadline = now() + (wait.limitMs ?? LOCK_WAIT_MS);
    for (;;) {
      const created = SessionLock.create(path, own);
      if (created) return { lock: created };
      const found = readLock(path);
      if (!found) continue;
      const state = parseState(found.text);
      const stale = state ? !alive(state) : Date.now() - found.mtimeMs > UNWRITTEN_STALE_MS;
      if (!stale) {
        if (wait.stopped?.()) throw new LockWaitStopped(`${file}: stopped while waiting for its lock`);
        if (now() >= deadline) throw new Error(`${file}: held by process ${state?.pid ?? 'unknown'}`);
        await (wait.sleep ?? sleep)(POLL_MS);
        continue;
      }
      // Moved aside first: of runs taking it over at once, one gets it; the others find no file, or a live lock.
      const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = readLock(aside);
      if (moved?.text !== found.text) {
        // A lock taken between our look and the move: put it back (unless yet another run holds the name now).
        try {
          linkSync(aside, path);
        } catch {
          // The name is held again: that lock stands.
        }
        unlinkSync(aside);
        continue;
      }
      const inherited = state?.start !== undefined && state.file === file ? state : undefined;
      const lock = SessionLock.create(path, { ...own, ...(inherited ? pick(inherited) : {}) });
      unlinkSync(aside);
      if (lock) return { lock, ...(inherited ? { inherited } : {}) };
    }
  }

  private static create(path: string, state: LockState): SessionLock | undefined {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw error;
    }
    const lock = new SessionLock(path, fd, state);
    lock.save();
    return lock;
  }

  /**
   * Settle a torn append `inherited` from a run that died, given the manifest's mark of the session now: when
   * the manifest does not hold it and every byte from its first write on is that run's, the file is cut back
   * to where it began. Resolves with a line to report, or `refused` when the bytes cannot be told apart (the
   * session is then not appended to).
   */
  recover(inherited: LockState, recorded: FileMark | undefined): { notice?: string; refused?: string } {
    const start = inherited.start!;
    if (recordedAppend(inherited, recorded)) return this.settled();
    let fd: number;
    try {
      fd = openSync(inherited.file, constants.O_WRONLY | NOFOLLOW | NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.settled();
      return { refused: (error as Error).message };
    }
    try {
      const st = fstatSync(fd);
      // Refused, the record stays in the lock: until a new session replaces this one, every run refuses it.
      const refused = refusal(inherited, st);
      if (refused !== undefined) return { refused };
      if (st.size <= start) return this.settled();
      ftruncateSync(fd, start);
      return this.settled(`${inherited.file}: cut back the ${st.size - start} bytes an interrupted convert run had appended`);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * What a run that takes this session's lock would refuse it for (see `recover`), read without taking the lock
   * or changing anything (a dry run's prediction); undefined when it would append, or waits for a live holder.
   */
  static wouldRefuse(root: string, file: string, recorded: FileMark | undefined): string | undefined {
    let state: LockState | undefined;
    try {
      const found = readLock(lockPath(root, file));
      state = found && parseState(found.text);
    } catch {
      return undefined; // a lock that cannot be read is left to the real run, which says why
    }
    if (!state || alive(state) || state.start === undefined || state.file !== file || recordedAppend(state, recorded)) return undefined;
    let st: Stats;
    try {
      st = statNoFollow(file);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as Error).message;
    }
    return refusal(state, st);
  }

  /** The inherited record is settled: the lock records nothing under way. */
  private settled(notice?: string): { notice?: string } {
    const { pid, started, file, dev, ino } = this.state;
    this.state = { pid, started, file, dev, ino };
    this.save();
    return notice !== undefined ? { notice } : {};
  }

  writing(at: number, length: number): void {
    const state = this.state;
    if (state.start === undefined) state.start = at;
    else if (at !== state.own) state.foreign = true;
    state.own = at;
    state.pending = length;
    this.save();
  }

  wrote(size: number, foreign: boolean): void {
    const state = this.state;
    if (foreign || size !== (state.own ?? 0) + (state.pending ?? 0)) state.foreign = true;
    state.own = size;
    state.pending = 0;
    this.save();
  }

  /** Something was written to the session under this lock. */
  get wroteAny(): boolean {
    return this.state.start !== undefined;
  }

  /** Close the file; the lock holds until `release` (or `orphan`). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * An append that will not be recorded (it failed): the lock is left to whoever takes it next (pid 0: no
   * owner), with its record, so that run cuts the bytes back; this process's next pass included.
   */
  orphan(): void {
    this.state.pid = 0;
    this.save();
    this.close();
  }

  /** Remove a lock this process holds (by path: the thread that took it may have ended). */
  static release(path: string): void {
    try {
      const found = readLock(path);
      const state = found && parseState(found.text);
      if (state?.pid === process.pid) unlinkSync(path);
    } catch {
      // Gone already, or unreadable: nothing of ours to remove.
    }
  }

  /** `orphan` by path, for a lock this process holds whose append was written but could not be recorded. */
  static orphanPath(path: string): void {
    let fd: number | undefined;
    try {
      fd = openSync(path, constants.O_RDWR | NOFOLLOW | NONBLOCK);
      if (!fstatSync(fd).isFile()) return;
      const buf = Buffer.alloc(64 * 1024);
      const text = buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
      const state = parseState(text);
      if (state?.pid !== process.pid) return;
      const lock = new SessionLock(path, fd, { ...state, pid: 0 });
      lock.length = Buffer.byteLength(text);
      lock.save();
    } catch {
      // Gone, or unwritable: the lock stays as it was and is taken over once this process ends.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** The state, in one write at the start of the file, padded over a longer earlier one. */
  private save(): void {
    if (this.fd === undefined) return;
    const text = JSON.stringify(this.state);
    this.length = Math.max(this.length, Buffer.byteLength(text));
    writeSync(this.fd, Buffer.from(text.padEnd(this.length, ' ')), 0, this.length, 0);
  }
}

/** The manifest records the torn append (it was written whole after all): nothing to cut. */
function recordedAppend(inherited: LockState, recorded: FileMark | undefined): boolean {
  return recorded !== undefined && recorded.ino === inherited.ino && recorded.dev === inherited.dev && recorded.size > inherited.start!;
}

/** Why the torn append `inherited` records cannot be cut from the session `st` is now, if it cannot. */
function refusal(inherited: LockState, st: Stats): string | undefined {
  if (!st.isFile() || st.dev !== inherited.dev || st.ino !== inherited.ino) return 'it is not the file written before';
  const start = inherited.start!;
  if (st.size > start && (inherited.foreign || st.size > (inherited.own ?? start) + (inherited.pending ?? 0))) {
    return 'an interrupted convert run appended to it, and so did another process';
  }
  return undefined;
}

function pick(state: LockState): Partial<LockState> {
  return { start: state.start!, own: state.own ?? state.start!, pending: state.pending ?? 0, ...(state.foreign ? { foreign: true } : {}) };
}
