// Reaching a file below a directory without following a symbolic link on the way: what a reader opens beside
// the file it was given (a session's sidecars) may come from someone else, and a planted link would make it
// print any file of the reader's. Node has no openat, so each component is checked with lstat, then the file
// is opened O_NOFOLLOW and must be the inode lstat saw; a swap between the check and the open is out of scope.
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';

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
