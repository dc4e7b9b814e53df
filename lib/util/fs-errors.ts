// File-system failures as a person reads them (`no such file`, `permission denied`), the one wording of an
// input that cannot be read (every command), and `mkdir -p` done one directory at a time: Node's own recursive
// mkdir never returns on some paths (under /proc it meets ENOENT below a parent that exists and starts again,
// forever, in native code where no signal is handled).
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** What went wrong with a file, in a few words: the errno's meaning, else the error's own message. */
export function describeError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT': return 'no such file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'ENOTFILE': return 'not a regular file';
    case 'EROFS': return 'read-only file system';
    case 'ELOOP': return 'a symbolic link, or too many of them';
    default: {
      // Node's `ECODE: what, syscall 'path'` without the code and the path (the caller names the file).
      const { code, syscall, message } = error as NodeJS.ErrnoException;
      if (typeof code !== 'string' || typeof syscall !== 'string') return (error as Error).message;
      return message.replace(/^[A-Z0-9]+: /, '').replace(new RegExp(`, ${syscall}( '.*')?$`, 's'), '');
    }
  }
}

/**
 * What is said of an input that cannot be read, in every command (the filter, `read`, `convert`):
 * `cannot be read: <why>` (describeError), placed after the input's name: `<name>: cannot be read: no such file`.
 */
export function cannotBeRead(error: unknown): string {
  return `cannot be read: ${describeError(error)}`;
}

/** The error for an input that is there but is not a regular file: EISDIR for a directory, else ENOTFILE. */
export function notRegularFile(stat: Pick<Stats, 'isDirectory'>): NodeJS.ErrnoException {
  return stat.isDirectory()
    ? Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    : Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
}

/**
 * `mkdir -p dir` (new directories get `mode`): the missing directories are made from the top down, each
 * with one mkdir, so a directory that cannot be made fails at once with its own path, and nothing loops.
 */
export function makeDirs(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let path = resolve(dir); ; path = dirname(path)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new Error(`cannot make the directory ${dir}: ${path === resolve(dir) ? '' : `${path}: `}${describeError(error)}`);
      missing.push(path);
      if (dirname(path) === path) break;
      continue;
    }
    if (!isDirectory) throw new Error(`cannot make the directory ${dir}: ${path} is not a directory`);
    break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      // Made meanwhile by someone else: fine when it is a directory.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
      throw new Error(`cannot make the directory ${path}: ${describeError(error)}`);
    }
  }
}
