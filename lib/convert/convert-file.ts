// Converts one source file (`convertSource`): a target whose known session was made from the same bytes is
// left alone, one the file only grew from is appended to, the others get a new session each (the reading and
// writing: lib/convert/file-conversion.ts). Used inline and from worker threads alike; it never throws.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { findHarness } from '../agents/index.js';
import { lockSessions, refusedNotice } from './append-lock.js';
import { FileConversion, type ConvertHooks } from './file-conversion.js';
import { chunks, FileHash } from './file-read.js';
import { emptyOutcome } from './outcome.js';
import { LockWaitStopped, SessionLock } from './session-lock.js';
import { cannotBeRead, notRegularFile } from '../util/fs-errors.js';
import type { ConvertOutcome, ConvertSettings, ConvertTarget, ConvertTask, SessionRef } from './types.js';

export { MAX_MESSAGES, type ConvertHooks } from './file-conversion.js';
export { FileHash, syncFile } from './file-read.js';
export { isCodexSubagent, isConvertedRecord, provenanceFor, PROVENANCE_FIELD } from './provenance.js';

/**
 * Convert one source file for the task's targets. A target whose known session was made from the same
 * bytes (same SHA-256) is left alone; the others get a new session each. Resolves with the outcome, also
 * for unreadable files and write failures (status `failed`).
 */
export async function convertSource(task: ConvertTask, settings: ConvertSettings, hooks: ConvertHooks = {}): Promise<ConvertOutcome> {
  const outcome = emptyOutcome(task.index);
  let file: number;
  try {
    // Non-blocking: a FIFO named as a source must not hold the open (fstat then refuses it).
    file = openSync(task.bytes ? Buffer.from(task.bytes) : task.real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    outcome.error = cannotBeRead(error);
    return outcome;
  }
  let locks = new Map<string, SessionLock>();
  try {
    const st = fstatSync(file);
    if (!st.isFile()) {
      outcome.error = cannotBeRead(notRegularFile(st));
      return outcome;
    }
    const write = task.targets.filter((t) => t.rewrite || t.known === undefined);
    let verify = task.targets.filter((t) => !t.rewrite && t.known !== undefined);
    // A dry run takes no lock, but reads what a real run would find in one: a session it would refuse is not appended to.
    if (settings.dryRun) verify = verify.map((target) => predictRefusal(task, target, outcome));
    if (!settings.dryRun && verify.length > 0) {
      // One run at a time appends to a session, and it knows what the others appended (see append-lock.ts).
      let locked;
      try {
        const stop = settings.stop;
        locked = await lockSessions(task, verify, (message) => {
          outcome.warnings += 1;
          outcome.messages.push(message);
        }, stop ? { stopped: () => Atomics.load(stop, 0) !== 0 } : {});
      } catch (error) {
        // Stopped by a signal while another run held the lock: left for a later run, as files not yet begun are.
        if (error instanceof LockWaitStopped) return { ...outcome, status: 'skipped', reason: 'interrupted' };
        outcome.error = (error as Error).message;
        return outcome;
      }
      locks = locked.locks;
      verify = locked.targets.map((t) => (locks.has(t.format) ? { ...t, journal: locks.get(t.format)! } : t));
      if (Object.keys(locked.known).length > 0) outcome.known = locked.known;
    }
    const same: ConvertTarget[] = [];
    let fingerprint: ConvertOutcome['fingerprint'];
    if (verify.length > 0) {
      // Size or mtime moved: the content decides. A file only touched keeps its session; one that only
      // grew (the bytes converted before are still its start) is appended to it; any other change makes a new one.
      const hash = new FileHash(verify.map((t) => t.known!.size));
      for await (const chunk of chunks(file)) {
        hash.update(chunk);
        hooks.progress?.(chunk.length);
      }
      const all = hash.all();
      const complete = hash.complete();
      outcome.bytes += all.size;
      for (const target of verify) {
        const known = target.known!;
        const match = [all, complete].find((h) => h.size === known.size && h.sha256 === known.sha256);
        if (match) {
          fingerprint = { size: match.size, mtime_ms: st.mtimeMs, sha256: match.sha256 };
          same.push(target);
        } else if (hash.prefixes.get(known.size) === known.sha256 && known.session_mark !== undefined
          && findHarness(target.format)?.reopen !== undefined) {
          write.push({ ...target, append: true });
        } else {
          write.push(target);
        }
      }
    }
    const unchanged: SessionRef[] = same.map((t) => ({
      format: t.format, session_id: t.known!.session_id, session_file: t.known!.session_file, unchanged: true,
    }));
    if (write.length === 0) {
      const known = same[0]!.known!;
      return {
        ...outcome, status: 'skipped', reason: 'unchanged', input_format: known.input_format, cwd: known.cwd,
        harnesses: unchanged, ...(fingerprint ? { fingerprint } : {}),
      };
    }
    const conversion = new FileConversion(task, settings, write, outcome);
    await conversion.read(file, st.mtimeMs, hooks);
    outcome.harnesses = [...unchanged, ...outcome.harnesses];
    // Formats in the order the task named them.
    const order = task.targets.map((t) => t.format);
    outcome.harnesses.sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
    return outcome;
  } catch (error) {
    outcome.status = 'failed';
    outcome.error = cannotBeRead(error);
    return outcome;
  } finally {
    closeSync(file);
    settleLocks(outcome, locks);
  }
}

/** A dry run's `target`, without its session's mark when a real run would refuse to append to it (said as there). */
function predictRefusal(task: ConvertTask, target: ConvertTarget, outcome: ConvertOutcome): ConvertTarget {
  const known = target.known;
  if (known?.session_mark === undefined || findHarness(target.format)?.reopen === undefined) return target;
  const refused = SessionLock.wouldRefuse(target.root, known.session_file, known.session_mark);
  if (refused === undefined) return target;
  outcome.warnings += 1;
  outcome.messages.push(refusedNotice(task, known.session_file, refused));
  const { session_mark: _dropped, ...rest } = known;
  return { ...target, known: rest };
}

/**
 * A converted file's locks are released once its manifest lines are fsync'd (by the caller, `outcome.locks`);
 * the others at once, unless something was written under one: that append will not be recorded, so the lock
 * is left to the next run, which cuts it back.
 */
function settleLocks(outcome: ConvertOutcome, locks: Map<string, SessionLock>): void {
  for (const [format, lock] of locks) {
    if (outcome.status === 'converted' && outcome.harnesses.some((h) => h.format === format && !h.unchanged)) {
      lock.close();
      (outcome.locks ??= []).push(lock.path);
    } else if (lock.wroteAny) {
      lock.orphan();
    } else {
      lock.close();
      SessionLock.release(lock.path);
    }
  }
}
