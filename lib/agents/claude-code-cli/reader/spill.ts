// Spilled tool output: Claude Code writes output too large to inline to a file and leaves a sentence in the
// tool result ("Full output saved to: <path>"). The path comes from the transcript, so it is treated as
// untrusted: only a path inside a `<session-uuid>/tool-results/` directory, only an absolute path, only a
// regular file reached without following a symlink (neither the file nor `<session-uuid>` or `tool-results`)
// nor blocking on a FIFO or device, at most MAX_SPILL_BYTES, read and never written.
import { basename } from 'node:path';
import { readBelow, readNoFollow, type NoFollowRead } from '../../../util/no-follow.js';

/** How Claude Code points at spilled output: prose, not a field, so the path is matched out of the text. */
export const SPILL = /Full output saved to:\s*(\S+)/;
/** The words SPILL starts with: text without them holds no pointer. */
export const SPILL_PHRASE = 'Full output saved to:';

/** A spilled file is read whole; the pointer says nothing about its size, so it is capped. */
export const MAX_SPILL_BYTES = 4_000_000;

/** A spilled file read, or why not (see lib/util/no-follow.ts). */
export type SpillRead = NoFollowRead;

/** Read one spilled file under the rules above (lib/util/no-follow.ts `readNoFollow`). Never throws. */
export function readSpillFile(path: string, maxBytes = MAX_SPILL_BYTES): SpillRead {
  return readNoFollow(path, maxBytes);
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
    const beside = readBelow(projectDir, spill.parts, maxBytes);
    if (beside.ok || beside.reason !== 'missing' || spill.dir === projectDir) return beside;
    return readBelow(spill.dir, spill.parts, maxBytes);
  };
}
