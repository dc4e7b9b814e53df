// The raw JSON text of an input line's long strings, so a writer can copy those bytes into its records
// instead of serialising the strings again (re-serialising long, non-ASCII text is the largest single cost
// of the filter). Found by one pass over the line's bytes beside the value JSON.parse made of them: the
// raw text of a string and the parsed string are the same JSON value, whatever escapes the producer chose.
import { bytesOf, type Line } from './lines.js';

/** Strings shorter than this (in UTF-16 units) are serialised as usual: splicing them would not pay. */
export const MIN_SPLICE_CHARS = 2048;

/** Containers nested deeper than this are skipped by the scan (their strings are serialised as usual). */
const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One input line's bytes and the value parsed from them. */
export class JsonSource {
  private strings: Map<string, Buffer> | undefined;

  /** `bytes` must be exactly the text `value` was parsed from (valid UTF-8, one JSON value). */
  constructor(private readonly bytes: Buffer, private readonly value: unknown) {}

  /**
   * The raw text between the quotes that `text` was parsed from, when `text` is one of the line's long
   * strings; undefined otherwise (a short string, or one the mapper made itself). The scan runs once, on the
   * first question.
   */
  rawOf(text: string): Buffer | undefined {
    if (text.length < MIN_SPLICE_CHARS) return undefined;
    this.strings ??= longStrings(this.bytes, this.value);
    return this.strings.get(text);
  }
}

/**
 * The source of a parsed line, when it can hold a string worth splicing: long enough, valid UTF-8 (the
 * replaced bytes of invalid UTF-8 are not what was parsed), and made by a LineSplitter.
 */
export function jsonSourceOf(line: Line, value: unknown): JsonSource | undefined {
  // A string's raw text is never shorter in bytes than the string is in UTF-16 units.
  if (line.bytes < MIN_SPLICE_CHARS || line.invalidUtf8 || typeof value !== 'object' || value === null) return undefined;
  const at = bytesOf(line);
  if (!at) return undefined;
  return new JsonSource(at.source.subarray(at.start, at.start + line.bytes), value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Map each long string of `value` to its raw bytes in `buf`. `buf` is valid JSON (it was parsed), so the
 * scan only finds boundaries. With duplicate keys JSON.parse keeps the last value; the scan visits the
 * last occurrence last, so its bytes win (an earlier one can only be left mapped to a string too short to
 * be asked about, as raw text is never shorter than its string).
 */
function longStrings(buf: Buffer, value: unknown): Map<string, Buffer> {
  const found = new Map<string, Buffer>();

  const ws = (pos: number): number => {
    let c = buf[pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = buf[++pos];
    return pos;
  };

  /** The index of the quote that closes the string opening at `pos`. */
  const stringEnd = (pos: number): number => {
    let q = buf.indexOf(QUOTE, pos + 1);
    for (;;) {
      let b = q - 1;
      while (buf[b] === BACKSLASH) b -= 1;
      // An even run of backslashes escapes itself, not the quote.
      if ((q - 1 - b) % 2 === 0) return q;
      q = buf.indexOf(QUOTE, q + 1);
    }
  };

  /** Skip a container without looking inside (too deep to scan by recursion). */
  const skipContainer = (pos: number): number => {
    let depth = 0;
    for (;;) {
      const c = buf[pos];
      if (c === QUOTE) {
        pos = stringEnd(pos) + 1;
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth += 1;
      else if (c === 0x7d || c === 0x5d) {
        depth -= 1;
        if (depth === 0) return pos + 1;
      }
      pos += 1;
    }
  };

  /** The key whose quotes are at `pos` and `end` (keys are short: a plain loop beats a search). */
  const key = (pos: number, end: number): string => {
    for (let i = pos + 1; i < end; i += 1) {
      if (buf[i] === BACKSLASH) return JSON.parse(buf.toString('utf8', pos, end + 1)) as string;
    }
    return buf.toString('utf8', pos + 1, end);
  };

  /** Scan the value starting at `pos` (no leading space), whose parsed form is `parsed`; returns the end. */
  const scan = (pos: number, parsed: unknown, depth: number): number => {
    const c = buf[pos];
    if (c === QUOTE) {
      const end = stringEnd(pos);
      if (typeof parsed === 'string' && end - pos - 1 >= MIN_SPLICE_CHARS) found.set(parsed, buf.subarray(pos + 1, end));
      return end + 1;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth >= MAX_DEPTH) return skipContainer(pos);
      const object = c === 0x7b;
      pos = ws(pos + 1);
      if (buf[pos] === (object ? 0x7d : 0x5d)) return pos + 1;
      for (let index = 0; ; index += 1) {
        let child: unknown;
        if (object) {
          const end = stringEnd(pos);
          if (isObject(parsed)) {
            const name = key(pos, end);
            if (Object.hasOwn(parsed, name)) child = parsed[name];
          }
          pos = ws(ws(end + 1) + 1); // past the colon
        } else if (Array.isArray(parsed)) {
          child = parsed[index];
        }
        pos = ws(scan(pos, child, depth + 1));
        if (buf[pos] !== 0x2c) return pos + 1; // the closing bracket
        pos = ws(pos + 1);
      }
    }
    // A number, true, false or null.
    while (pos < buf.length) {
      const d = buf[pos];
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
      pos += 1;
    }
    return pos;
  };

  scan(ws(0), value, 0);
  return found;
}
