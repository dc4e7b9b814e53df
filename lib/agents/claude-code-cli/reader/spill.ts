// Spilled tool output: Claude Code writes output too large to inline to a file and leaves a sentence in the
// tool result ("Full output saved to: <path>"). The path comes from the transcript, so it is treated as
// untrusted: only a path inside a `<session-uuid>/tool-results/` directory, only an absolute path, only a
// regular file (opened without following a symlink or blocking on a FIFO or device), at most MAX_SPILL_BYTES,
// read and never written.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';

/** How Claude Code points at spilled output: prose, not a field, so the path is matched out of the text. */
export const SPILL = /Full output saved to:\s*(\S+)/;
/** The words SPILL starts with: text without them holds no pointer. */
export const SPILL_PHRASE = 'Full output saved to:';

/** A spilled file is read whole; the pointer says nothing about its size, so it is capped. */
export const MAX_SPILL_BYTES = 4_000_000;

export type SpillRead = { ok: true; text: string } | { ok: false; reason: string };

/** Read one spilled file under the rules above. Never throws. */
export function readSpillFile(path: string, maxBytes = MAX_SPILL_BYTES): SpillRead {
  if (!isAbsolute(path)) return { ok: false, reason: 'not an absolute path' };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'a symbolic link' : `cannot be opened (${code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not a regular file' };
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
 * Where a spilled file may be besides its recorded path: Claude Code keeps spills in the session's own
 * directory (`<project dir>/<session-uuid>/tool-results/<file>`), so a transcript that was moved or copied
 * with its directory still finds them beside it.
 */
export function rebasedSpillPath(recorded: string, projectDir: string): string | undefined {
  const match = /\/([0-9a-f-]{36})\/tool-results\/([^/]+)$/i.exec(recorded);
  if (!match) return undefined;
  const name = match[2]!;
  if (name === '.' || name === '..' || basename(name) !== name) return undefined;
  return join(projectDir, match[1]!, 'tool-results', name);
}

/**
 * A resolver for one transcript: the spilled text for a pointer path, trying the copy beside the transcript
 * first and then the recorded path. Only a path of Claude Code's shape (`.../<session-uuid>/tool-results/
 * <file>`) is read: the pointer comes from the transcript, and a transcript from someone else must not make
 * `read` print an arbitrary file of yours.
 */
export function spillResolver(projectDir: string, maxBytes = MAX_SPILL_BYTES): (recorded: string) => SpillRead {
  return (recorded) => {
    const beside = rebasedSpillPath(recorded, projectDir);
    if (beside === undefined) return { ok: false, reason: 'not in a Claude Code tool-results directory' };
    if (beside !== recorded) {
      const read = readSpillFile(beside, maxBytes);
      if (read.ok || read.reason !== 'missing') return read;
    }
    return readSpillFile(recorded, maxBytes);
  };
}
