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
