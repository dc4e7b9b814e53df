// The one size limit every session file's lines answer to, shared by the writers' input and the readers:
// whatever the filter takes, the records it writes from it are read back by `read` (and as filter input).
// Figures are in bytes of one line, without its newline.

/** The longest input line the filter takes by default (`--max-line-bytes`): 64 MiB. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * What a record holds beyond the content of the one input line it is made from: its uuids, times, cwd,
 * version, model and usage, a few hundred bytes. A megabyte leaves room for every agent's fields.
 */
export const RECORD_HEADROOM = 1024 * 1024;

/**
 * The longest record `read` takes by default (`--max-record-bytes`, for every agent's files): the longest a writer makes of a line of MAX_LINE_BYTES, so `read` reads what the filter writes.
 */
export const MAX_RECORD_BYTES = MAX_LINE_BYTES + RECORD_HEADROOM;

/**
 * The byte length of one record's pieces (text and bytes, its newline included) when it is over
 * MAX_RECORD_BYTES, else undefined: a writer refuses such a record, as `read` would skip it.
 */
export function overRecordLimit(pieces: readonly (string | Uint8Array)[], from = 0): number | undefined {
  // An upper bound first (3 bytes per UTF-16 unit at most): the exact count only for a record near the limit.
  let bound = 0;
  for (let i = from; i < pieces.length; i += 1) {
    const piece = pieces[i]!;
    bound += typeof piece === 'string' ? piece.length * 3 : piece.byteLength;
  }
  if (bound <= MAX_RECORD_BYTES + 1) return undefined;
  let bytes = 0;
  for (let i = from; i < pieces.length; i += 1) {
    const piece = pieces[i]!;
    bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;
  }
  // The newline is not part of the record.
  return bytes - 1 > MAX_RECORD_BYTES ? bytes - 1 : undefined;
}

/** What a writer says of a record it refuses for its size. */
export function recordTooLong(bytes: number): string {
  return `its record would be ${bytes} bytes, over the limit of ${MAX_RECORD_BYTES} bytes that read takes; not written`;
}
