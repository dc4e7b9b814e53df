// Spilled tool output: Claude Code writes output too large to inline to a file and leaves a sentence in the
// tool result ("Full output saved to: <path>"). The path comes from the transcript, so it is treated as
// untrusted: only a path inside a `<session-uuid>/tool-results/` directory, only an absolute path, only a
// regular file reached without following a symlink (neither the file nor `<session-uuid>` or `tool-results`)
// nor blocking on a FIFO or device, at most MAX_SPILL_BYTES, read and never written.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { lstatBelow, sameFile } from '../../../util/no-follow.js';

/** How Claude Code points at spilled output: prose, not a field, so the path is matched out of the text. */
export const SPILL = /Full output saved to:\s*(\S+)/;
/** The words SPILL starts with: text without them holds no pointer. */
export const SPILL_PHRASE = 'Full output saved to:';

/** A spilled file is read whole; the pointer says nothing about its size, so it is capped. */
export const MAX_SPILL_BYTES = 4_000_000;

/** A file read, or why not; `link`: the symbolic link that stopped it (reported once per link). */
export type SpillRead = { ok: true; text: string } | { ok: false; reason: string; link?: string };

/**
 * Read one spilled file under the rules above (the file itself is never a link; `expect`: it must be the
 * inode lstat saw). Never throws.
 */
export function readSpillFile(path: string, maxBytes = MAX_SPILL_BYTES, expect?: { dev: number; ino: number }): SpillRead {
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
 * Read the file `parts` below `dir` (a session's sidecar: a spill, a subagent's meta file) under the rules
 * above, no component below `dir` followed as a symbolic link. Never throws.
 */
export function readSidecar(dir: string, parts: readonly string[], maxBytes = MAX_SPILL_BYTES): SpillRead {
  const found = lstatBelow(dir, parts, 'file');
  if (!found.ok) return { ok: false, reason: found.reason, ...(found.link !== undefined ? { link: found.link } : {}) };
  return readSpillFile(found.path, maxBytes, found.stat);
}

/** A pointer path of Claude Code's shape, `<dir>/<session-uuid>/tool-results/<file>`, in its parts. */
function spillParts(recorded: string): { dir: string; parts: [string, string, string] } | undefined {
  const match = /^(.*)\/([0-9a-f-]{36})\/tool-results\/([^/]+)$/i.exec(recorded);
  if (!match) return undefined;
  const name = match[3]!;
  if (name === '.' || name === '..' || basename(name) !== name) return undefined;
  return { dir: match[1]! === '' ? '/' : match[1]!, parts: [match[2]!, 'tool-results', name] };
}

/**
 * A resolver for one transcript: the spilled text for a pointer path, trying the copy beside the transcript
 * (`<projectDir>/<session-uuid>/tool-results/<file>`: a transcript moved or copied with its directory still
 * finds them) and then the recorded path. Only a path of Claude Code's shape is read, and nothing below the
 * directory holding `<session-uuid>` is followed as a link: the pointer and the session's directories come
 * with the transcript, and a transcript from someone else must not make `read` print an arbitrary file of yours.
 */
export function spillResolver(projectDir: string, maxBytes = MAX_SPILL_BYTES): (recorded: string) => SpillRead {
  return (recorded) => {
    const spill = spillParts(recorded);
    if (spill === undefined) return { ok: false, reason: 'not in a Claude Code tool-results directory' };
    const beside = readSidecar(projectDir, spill.parts, maxBytes);
    if (beside.ok || beside.reason !== 'missing' || spill.dir === projectDir) return beside;
    return readSidecar(spill.dir, spill.parts, maxBytes);
  };
}
