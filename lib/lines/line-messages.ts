// The diagnostics a bad input line gets, in one place: the filter, convert and the JSON parser report the
// same line the same way.

/** The note for a line whose invalid UTF-8 was replaced (the line itself is kept). */
export const INVALID_UTF8_NOTE = 'invalid UTF-8 replaced with U+FFFD';
/** Appended to the one diagnostic of a skipped line that also held invalid UTF-8. */
export const ALSO_INVALID_UTF8 = ' (the line also held invalid UTF-8)';

/** A line of `bytes` bytes over the `--max-line-bytes` limit. */
export function overLongMessage(bytes: number, max: number | undefined): string {
  return `line of ${bytes} bytes is over the limit of ${max ?? 'the maximum'} bytes; skipped`;
}

/** A line JSON.parse rejected with `error`: V8's reason without the piece of the line it quotes (quoted once, here). */
export function invalidJsonMessage(error: unknown, text: string): string {
  const reason = (error as Error).message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '');
  return `invalid JSON: ${reason}: ${preview(text)}`;
}

/** How much of a line (or value) a diagnostic quotes, in UTF-16 code units. */
export const PREVIEW_CHARS = 80;

/**
 * The start of a line, quoted for a diagnostic: its first PREVIEW_CHARS as a JSON string (a surrogate pair is
 * never split), then `...` outside the quotes when it was cut. Every bad-line message quotes its line this way.
 */
export function preview(text: string): string {
  if (text.length <= PREVIEW_CHARS) return JSON.stringify(text);
  const end = /[\ud800-\udbff]/.test(text[PREVIEW_CHARS - 1]!) ? PREVIEW_CHARS - 1 : PREVIEW_CHARS;
  return `${JSON.stringify(text.slice(0, end))}...`;
}

/** A value taken from an input line (an unknown type, say), for a diagnostic: a string as preview quotes it, anything else as JSON, cut the same way. */
export function previewValue(value: unknown): string {
  if (typeof value === 'string') return preview(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= PREVIEW_CHARS ? json : `${json.slice(0, PREVIEW_CHARS)}...`;
}
