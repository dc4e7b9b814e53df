// Where Factory Droid (0.225) keeps its sessions: `<root>/sessions/<cwd with each "/" as "-">/<id>.jsonl`, the root
// being `$FACTORY_HOME_OVERRIDE/.factory`, else `~/.factory` (reference: droid.md). Only "/" is replaced; the
// project directory is the process's own (symlinks resolved).
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';

/** The longest file name a file system takes: the CLI's own folder for a longer project cannot exist. */
const NAME_MAX = 255;

/** The sessions folder name of a project directory, as droid names it (a NUL, which no real path holds, as "-" too). */
export function projectDirName(cwd: string): string {
  return cwd.replace(/[/\0]/g, '-');
}

/**
 * The folder name written for a project: droid's, or, when that is too long to exist (droid itself cannot keep
 * sessions there), its first 200 characters and a hash of the directory, so the run still ends whole.
 */
export function writtenDirName(cwd: string): { name: string; cut: boolean } {
  const name = projectDirName(cwd);
  if (Buffer.byteLength(name) <= NAME_MAX) return { name, cut: false };
  return { name: `${name.slice(0, 200)}-${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`, cut: true };
}

/** The sessions folder of project `cwd` under `root`. */
export function sessionsDir(root: string, cwd: string): string {
  return join(root, 'sessions', writtenDirName(cwd).name);
}

/** The root: `$FACTORY_HOME_OVERRIDE/.factory`, else `~/.factory`. */
export function droidRoot(env: Record<string, string | undefined>, homedir: string): string {
  const home = env.FACTORY_HOME_OVERRIDE;
  if (home === undefined || home === '') return join(homedir, '.factory');
  return join(isAbsolute(home) ? home : resolve(home), '.factory');
}
