// A small file written whole as a new file: created exclusively (never over an existing file, never through a
// link), mode 0600, and removed again when writing it fails (a full disk), so no empty or torn file is left.
import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';

/** Write `text` to the new file `path`; false when something is at `path` already (left as it is). */
export function writeNewFile(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } catch (error) {
    // Ours, made just now: nobody else's bytes can be in it.
    try { unlinkSync(path); } catch { /* gone already */ }
    throw error;
  } finally {
    closeSync(fd);
  }
  return true;
}
