// The diagnostics a bad input line gets, in one place: the filter's main thread and its worker threads
// (lib/agents/claude-code-cli/threads/) report the same line the same way.

/** The note for a line whose invalid UTF-8 was replaced (the line itself is kept). */
export const INVALID_UTF8_NOTE = 'invalid UTF-8 replaced with U+FFFD';
/** Appended to the one diagnostic of a skipped line that also held invalid UTF-8. */
export const ALSO_INVALID_UTF8 = ' (the line also held invalid UTF-8)';

/** A line of `bytes` bytes over the `--max-line-bytes` limit. */
export function overLongMessage(bytes: number, max: number | undefined): string {
  return `line of ${bytes} bytes is over the limit of ${max ?? 'the maximum'} bytes; skipped`;
}

/** A line JSON.parse rejected with `error`. */
export function invalidJsonMessage(error: unknown, text: string): string {
  return `invalid JSON: ${(error as Error).message}: ${preview(text)}`;
}

/** The start of a line, quoted, for a diagnostic. */
export function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
}
