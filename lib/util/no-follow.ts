// Reaching a file below a directory without following a symbolic link on the way: what a reader opens beside
// the file it was given (a session's sidecars) may come from someone else, and a planted link would make it
// print any file of the reader's. Node has no openat, so each component is checked with lstat, then the file
// is opened O_NOFOLLOW and must be the inode lstat saw; a swap between the check and the open is out of scope.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** What lstat found at the end of the walk, or why the walk stopped. */
export type Below =
  | { ok: true; path: string; stat: Stats }
  /** `link`: the symbolic link met on the way (or at the end); `missing`: a component does not exist. */
  | { ok: false; path: string; reason: string; link?: string; missing?: true };

/**
 * Walk `parts` below `base` (which may itself be a link: it is the caller's) with lstat: every component must
 * be there and no symbolic link, the inner ones directories, the last one a `last` (a regular file or a
 * directory). Never throws.
 */
export function lstatBelow(base: string, parts: readonly string[], last: 'file' | 'directory'): Below {
  let path = base;
  for (let i = 0; i < parts.length; i++) {
    path = join(path, parts[i]!);
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { ok: false, path, reason: 'missing', missing: true };
      return { ok: false, path, reason: `cannot be looked at (${code ?? 'error'})` };
    }
    if (stat.isSymbolicLink()) return { ok: false, path, reason: `a symbolic link (${path}), not followed`, link: path };
    const end = i === parts.length - 1;
    if (!end && !stat.isDirectory()) return { ok: false, path, reason: `not a directory (${path})` };
    if (end && last === 'directory' && !stat.isDirectory()) return { ok: false, path, reason: 'not a directory' };
    if (end && last === 'file' && !stat.isFile()) return { ok: false, path, reason: 'not a regular file' };
    if (end) return { ok: true, path, stat };
  }
  return { ok: false, path, reason: 'no path below the directory' };
}

/** Whether an open file (its fstat) is the one lstat saw: the same device and inode. */
export function sameFile(a: { dev: number; ino: number }, b: { dev: number; ino: number }): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A file read, or why not; `link`: the symbolic link that stopped it (reported once per link). */
export type NoFollowRead = { ok: true; text: string } | { ok: false; reason: string; link?: string };

/**
 * Read the file at the absolute `path` whole, at most `maxBytes`: a regular file, not a symbolic link, never
 * blocking on a FIFO or device (`expect`: it must be the inode lstat saw). Read and never written. Never throws.
 */
export function readNoFollow(path: string, maxBytes: number, expect?: { dev: number; ino: number }): NoFollowRead {
  if (!isAbsolute(path)) return { ok: false, reason: 'not an absolute path' };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, reason: `a symbolic link (${path}), not followed`, link: path };
    return { ok: false, reason: code === 'ENOENT' ? 'missing' : `cannot be opened (${code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not a regular file' };
    if (expect !== undefined && !sameFile(stat, expect)) return { ok: false, reason: 'replaced while it was opened' };
    if (stat.size > maxBytes) return { ok: false, reason: `${stat.size} bytes, over the limit of ${maxBytes}` };
    // Read to EOF but never past the cap: a file that grew since fstat is refused, not read unbounded.
    const parts: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(Math.min(Math.max(stat.size, 1), 1024 * 1024) + 1);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) return { ok: false, reason: `over the limit of ${maxBytes} bytes` };
      parts.push(Buffer.from(chunk.subarray(0, n)));
    }
    return { ok: true, text: Buffer.concat(parts, total).toString('utf8') };
  } catch (error) {
    return { ok: false, reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * Read the file `parts` below `dir` (a session's sidecar: a spill, a subagent's meta file) as readNoFollow
 * does, no component below `dir` followed as a symbolic link. Never throws.
 */
export function readBelow(dir: string, parts: readonly string[], maxBytes: number): NoFollowRead {
  const found = lstatBelow(dir, parts, 'file');
  if (!found.ok) return { ok: false, reason: found.reason, ...(found.link !== undefined ? { link: found.link } : {}) };
  return readNoFollow(found.path, maxBytes, found.stat);
}
