// Small files of our own below a root that others may share: written whole as new files (created exclusively,
// never over an existing file or through a link, mode 0600, removed again when writing fails: a full disk leaves
// no empty or torn file), and read without following a link or blocking on a FIFO planted in their place.
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeSync, type Stats } from 'node:fs';

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

/**
 * Read the file at `path` (at most `maxBytes`) without following a link at its end and without blocking (a
 * FIFO planted there): its text and fstat, or undefined when nothing is there. Anything but a regular file throws.
 */
export function readOwnFile(path: string, maxBytes = 64 * 1024 * 1024): { text: string; stat: Stats } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    const buf = Buffer.alloc(Math.min(stat.size, maxBytes));
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    return { text: buf.toString('utf8', 0, n), stat };
  } finally {
    closeSync(fd);
  }
}

/** The fstat of what is at `path`, opened without following a link at its end or blocking on a FIFO. Throws what `open` throws. */
export function statNoFollow(path: string): Stats {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}
