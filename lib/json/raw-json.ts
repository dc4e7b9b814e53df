// The raw JSON text of an input line's long strings, so a writer can copy those bytes into its records
// instead of serialising the strings again, found by one pass over the line's bytes beside the value
// JSON.parse made of them (the raw text and the parsed string are the same JSON value, whatever escapes the
// producer chose). Also parseLine: huge lines parsed from their bytes, long strings decoded piece by piece.
import { randomBytes } from 'node:crypto';
import { bytesOf, isLazyLine, isOverLong, type Line } from '../lines/lines.js';
import { invalidJsonMessage, overLongMessage } from '../lines/line-messages.js';
import { isObject } from '../util/is-object.js';
import { BACKSLASH, JsonScanner, MAX_SCAN_DEPTH, QUOTE } from './json-scanner.js';

/** Strings shorter than this (in UTF-16 units) are serialised as usual: splicing them would not pay. */
export const MIN_SPLICE_CHARS = 2048;

/** A container nested deeper than this is serialised, not spliced (see `JsonScanner.splicesAsIs`). */
const SPLICE_MAX_DEPTH = 256;

/** One input line's bytes and the value parsed from them. */
export class JsonSource {
  private strings: Map<string, Buffer> | undefined;
  /** Strings decoded piece by piece by parseLine, with their bytes: matched by identity, never hashed. */
  private decoded: { text: string; raw: Buffer }[] | undefined;

  /** `bytes` must be exactly the text `value` was parsed from (valid UTF-8, one JSON value). */
  constructor(private readonly bytes: Buffer, private readonly value: unknown) {}

  /** The line is long enough to hold a string worth splicing wherever it is (see `rawOf`). */
  get holdsLongStrings(): boolean {
    return this.bytes.length >= MIN_SPLICE_CHARS;
  }

  /**
   * The raw JSON text of the line's top-level member `key` (an ASCII name), when `candidate` is its value: a
   * string equal to it, or the very object or array JSON.parse made (not changed since). Undefined otherwise:
   * when the key is there twice (JSON.parse keeps the last one) or any key is escaped (it may spell `key`), and
   * when the member's raw text is not what JSON.stringify writes of its value (see `splicesAsIs`). One walk over
   * the line's top level, jumping over strings with a native search; nothing is kept.
   */
  rawMember(key: string, candidate: unknown): Buffer | undefined {
    if (!isObject(this.value) || !Object.hasOwn(this.value, key) || this.value[key] !== candidate) return undefined;
    return memberRaw(this.bytes, key);
  }

  /**
   * The raw text between the quotes that `text` was parsed from, when `text` is one of the line's long
   * strings; undefined otherwise (a short string, or one the mapper made itself). The scan runs once, on the
   * first question.
   */
  rawOf(text: string): Buffer | undefined {
    if (text.length < MIN_SPLICE_CHARS) return undefined;
    const decoded = this.decodedRaw(text);
    if (decoded !== undefined) return decoded;
    this.strings ??= longStrings(this.bytes, this.value, this.decoded !== undefined);
    return this.strings.get(text);
  }

  /**
   * The start of a string parseLine decoded piecewise, decoded again from its raw bytes: at least `chars`
   * UTF-16 units (all of it when shorter). Looking at a rope's start (startsWith, a regular expression, trim)
   * would flatten it into a second copy. Undefined for a string this source did not decode.
   */
  head(text: string, chars: number): string | undefined {
    const raw = this.decodedRaw(text);
    if (raw === undefined) return undefined;
    // An escape is at most 6 bytes a unit; a cut moved back off an escape or a UTF-8 sequence loses one unit.
    const want = (chars + 1) * 6;
    const cut = want >= raw.length ? raw.length : safeCut(raw, 0, want);
    return JSON.parse(`"${raw.toString('utf8', 0, cut)}"`) as string;
  }

  /**
   * Whether a string parseLine decoded piecewise may hold `phrase` (printable ASCII other than quote, backslash
   * and slash), from its raw bytes: false only when it certainly does not (no such raw text, and no \u00XX
   * escape that could spell a printable character). Undefined for a string this source did not decode.
   */
  mayHold(text: string, phrase: string): boolean | undefined {
    const raw = this.decodedRaw(text);
    if (raw === undefined) return undefined;
    if (raw.includes(phrase)) return true;
    for (let at = raw.indexOf(ESCAPED_ASCII); at !== -1; at = raw.indexOf(ESCAPED_ASCII, at + 1)) {
      const digit = raw[at + 4];
      if (digit !== undefined && digit >= 0x32 && digit <= 0x37) return true;
    }
    return false;
  }

  private decodedRaw(text: string): Buffer | undefined {
    for (const { text: known, raw } of this.decoded ?? []) if (known === text) return raw;
    return undefined;
  }

  /** Record a string parseLine decoded from `raw` (it is left out of the scan's map). */
  addDecoded(text: string, raw: Buffer): void {
    (this.decoded ??= []).push({ text, raw });
  }
}

/**
 * The source of a parsed line, when its raw text can be spliced: an object, valid UTF-8 (the replaced bytes of
 * invalid UTF-8 are not what was parsed), and made by a LineSplitter.
 */
export function jsonSourceOf(line: Line, value: unknown): JsonSource | undefined {
  if (line.invalidUtf8 || typeof value !== 'object' || value === null) return undefined;
  const parsed = hugeSources.get(line);
  if (parsed?.value === value) return parsed.source;
  const at = bytesOf(line);
  if (!at) return undefined;
  return new JsonSource(at.source.subarray(at.start, at.start + line.bytes), value);
}

/** Sources prepared by parseLine for the huge lines it parsed piecewise. */
const hugeSources = new WeakMap<Line, { value: unknown; source: JsonSource }>();

/** Strings at least this long (raw bytes) in a lazily decoded line are decoded piece by piece. */
const PIECEWISE_MIN_BYTES = 64 * 1024;
/** Raw bytes decoded at a time: the pieces stay small, young garbage. */
const PIECE_BYTES = 32 * 1024;
/** How an escaped character of U+0000-U+00FF starts (an escaped printable ASCII one has 2-7 after it). */
const ESCAPED_ASCII = Buffer.from('\\u00');
/** Stands in for a piecewise string in the parsed skeleton (random per process: no input can hold it). */
const MARK = `asyncai-log-piecewise-${randomBytes(16).toString('hex')}-`;

/**
 * The value of an input line, or the one diagnostic it gets instead: over the `maxLineBytes` limit (its bytes
 * were dropped), or invalid JSON.
 */
export function readLineValue(line: Line, maxLineBytes: number | undefined): { value: unknown } | { bad: string };
/** The same, located: `no` is the line's number. */
export function readLineValue(line: Line, maxLineBytes: number | undefined, no: number): ({ value: unknown } | { bad: string }) & { no: number };
export function readLineValue(line: Line, maxLineBytes: number | undefined, no?: number): ({ value: unknown } | { bad: string }) & { no?: number } {
  if (isOverLong(line)) return { no, bad: overLongMessage(line.bytes, maxLineBytes) };
  try {
    const value = parseLine(line);
    return no === undefined ? { value } : { no, value };
  } catch (error) {
    return { no, bad: invalidJsonMessage(error, line.text ?? '') };
  }
}

/**
 * JSON.parse of the line's text. A long line whose text has not been decoded (see LAZY_TEXT_BYTES) is
 * parsed without ever holding it as one string: the line with its long strings cut out is parsed, and each
 * long string is decoded piece by piece into a rope. Peak memory is then about the line's bytes plus the
 * value, not the bytes, the text and the value. Whatever the piecewise parse cannot take (invalid JSON
 * among it) is parsed the plain way, so errors are JSON.parse's own. `unread`: see parseBytes.
 */
export function parseLine(line: Line, unread: readonly string[] = []): unknown {
  if (isLazyLine(line)) {
    const at = bytesOf(line);
    if (at) {
      const bytes = at.source.subarray(at.start, at.start + line.bytes);
      const parsed = parseBytes(bytes, unread);
      if (parsed) {
        hugeSources.set(line, parsed);
        return parsed.value;
      }
    }
  }
  return JSON.parse(line.text!);
}

/** The source parseLine made of a line it parsed piecewise (undefined for one parsed the plain way). */
export function piecewiseSource(line: Line): JsonSource | undefined {
  return hugeSources.get(line)?.source;
}

/**
 * The value of valid UTF-8 JSON `bytes` parsed piecewise (see parseLine), with the source that knows its long
 * strings' raw bytes; undefined when it does not apply (no string of PIECEWISE_MIN_BYTES) or the JSON is bad.
 * `bytes` must stay as they are while the value and source are used. `unread`: top-level members the caller
 * never looks at; their long strings are left empty, not decoded (a tool result's second copy, say).
 */
export function parseBytes(bytes: Buffer, unread: readonly string[] = []): { value: unknown; source: JsonSource } | undefined {
  const found = longValueStrings(bytes);
  if (!found) return undefined;
  const skipped = unread.map((key) => memberRaw(bytes, key, false)).filter((raw) => raw !== undefined)
    .map((raw) => [raw.byteOffset - bytes.byteOffset, raw.byteOffset - bytes.byteOffset + raw.length] as const);
  const isSkipped = (start: number) => skipped.some(([from, to]) => start >= from && start < to);
  try {
    const parts: Buffer[] = [];
    const spans: [number, number][] = [];
    let at = 0;
    for (const [start, end] of found) {
      const skip = isSkipped(start);
      parts.push(bytes.subarray(at, start), Buffer.from(skip ? '""' : `"${MARK}${spans.length}"`));
      if (!skip) spans.push([start, end]);
      at = end + 1;
    }
    parts.push(bytes.subarray(at));
    const skeleton: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    const strings = spans.map(([start, end]) => decodePiecewise(bytes, start + 1, end));
    const value = substitute(skeleton, strings);
    const source = new JsonSource(bytes, value);
    spans.forEach(([start, end], i) => source.addDecoded(strings[i]!, bytes.subarray(start + 1, end)));
    return { value, source };
  } catch {
    return undefined;
  }
}

/**
 * [open quote, close quote] of each string value (not key) of PIECEWISE_MIN_BYTES or more, in order;
 * undefined when there is none or the line does not look like JSON.
 */
function longValueStrings(buf: Buffer): [number, number][] | undefined {
  const scanner = new JsonScanner(buf);
  const spans: [number, number][] = [];
  // Walk the structure without recursion (a line may nest deeply): keys are strings followed by a colon.
  let pos = scanner.ws(0);
  while (pos < buf.length) {
    const c = buf[pos];
    if (c === QUOTE) {
      const end = scanner.stringEnd(pos);
      if (end < 0) return undefined;
      const next = scanner.ws(end + 1);
      if (buf[next] !== 0x3a && end - pos - 1 >= PIECEWISE_MIN_BYTES) spans.push([pos, end]);
      pos = next;
    } else {
      pos += 1;
    }
  }
  return spans.length > 0 ? spans : undefined;
}

/** JSON.parse of the string literal between `start` and `end` (its quotes excluded), a piece at a time. */
function decodePiecewise(buf: Buffer, start: number, end: number): string {
  let text = '';
  let at = start;
  while (at < end) {
    let cut = Math.min(end, at + PIECE_BYTES);
    if (cut < end) cut = safeCut(buf, at, cut);
    text += JSON.parse(`"${buf.toString('utf8', at, cut)}"`) as string;
    at = cut;
  }
  return text;
}

/**
 * A cut at or before `cut` (after `from`) that splits neither a UTF-8 sequence nor an escape. Splitting
 * between the two \uXXXX escapes of a surrogate pair is fine: the halves are joined as UTF-16 again.
 */
function safeCut(buf: Buffer, from: number, cut: number): number {
  while (cut > from && (buf[cut]! & 0xc0) === 0x80) cut -= 1;
  // The escape that covers the cut, if any, starts at the last backslash within 5 bytes before it.
  for (let q = cut - 1; q >= from && q >= cut - 5; q -= 1) {
    if (buf[q] !== BACKSLASH) continue;
    let run = 1;
    while (q - run >= from && buf[q - run] === BACKSLASH) run += 1;
    // An even run is escaped backslashes, all complete; an odd one ends with an escape starting at q.
    if (run % 2 === 1 && q + (buf[q + 1] === 0x75 ? 6 : 2) > cut) return q;
    break;
  }
  return cut;
}

/** Put `strings[i]` where the skeleton holds the mark for it (iteratively: the value may nest deeply). */
function substitute(skeleton: unknown, strings: string[]): unknown {
  const mark = (value: unknown): number => {
    if (typeof value !== 'string' || !value.startsWith(MARK)) return -1;
    const index = Number(value.slice(MARK.length));
    return Number.isInteger(index) && index >= 0 && index < strings.length ? index : -1;
  };
  const root = mark(skeleton);
  if (root >= 0) return strings[root];
  let left = strings.length;
  const stack: unknown[] = [skeleton];
  while (stack.length > 0 && left > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const container = node as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const child = container[key];
      const index = mark(child);
      if (index >= 0) {
        container[key] = strings[index];
        left -= 1;
      } else if (typeof child === 'object' && child !== null) {
        stack.push(child);
      }
    }
  }
  if (left > 0) throw new Error('a piecewise string was not found in the skeleton');
  return skeleton;
}

/**
 * Where the values of the top-level members `keys` of the object `buf` holds (valid JSON) lie, as [start, end)
 * byte offsets in file order: those a reader may leave out of the bytes it parses (each replaced by `""`).
 * A key that is not there once, plainly spelt, has none.
 */
export function memberSpans(buf: Buffer, keys: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const key of keys) {
    const raw = memberRaw(buf, key, false);
    if (raw !== undefined) spans.push([raw.byteOffset - buf.byteOffset, raw.byteOffset - buf.byteOffset + raw.length]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * The raw text of the value of member `key` of the object `buf` holds (valid JSON: it was parsed); undefined
 * when `buf` is not an object, holds `key` twice or not at all, has a key with an escape, or the value is a
 * container whose raw text is not to be spliced (see `splicesAsIs`; `asIs` false: whatever its text).
 */
function memberRaw(buf: Buffer, key: string, asIs = true): Buffer | undefined {
  const scanner = new JsonScanner(buf);
  let pos = scanner.ws(0);
  if (buf[pos] !== 0x7b) return undefined;
  pos = scanner.ws(pos + 1);
  if (buf[pos] === 0x7d) return undefined;
  let found: Buffer | undefined;
  for (;;) {
    const keyEnd = scanner.stringEnd(pos);
    let same = keyEnd - pos - 1 === key.length;
    for (let i = pos + 1; i < keyEnd; i += 1) {
      const c = buf[i]!;
      if (c === BACKSLASH) return undefined;
      same &&= c === key.charCodeAt(i - pos - 1);
    }
    const start = scanner.ws(scanner.ws(keyEnd + 1) + 1); // past the colon
    const c = buf[start];
    let end: number;
    if (c === QUOTE) {
      end = scanner.stringEnd(start) + 1;
    } else if (c === 0x7b || c === 0x5b) {
      end = scanner.skipContainer(start);
      if (same && asIs && !scanner.splicesAsIs(start, end, SPLICE_MAX_DEPTH)) return undefined;
    } else {
      end = scanner.scalarEnd(start);
    }
    if (same) {
      if (found !== undefined) return undefined;
      found = buf.subarray(start, end);
    }
    pos = scanner.ws(end);
    if (buf[pos] !== 0x2c) return found; // the closing brace
    pos = scanner.ws(pos + 1);
  }
}

/**
 * Map each long string of `value` to its raw bytes in `buf`. `buf` is valid JSON (it was parsed), so the
 * scan only finds boundaries. With duplicate keys JSON.parse keeps the last value; the scan visits the
 * last occurrence last, so its bytes win (an earlier one can only be left mapped to a string too short to
 * be asked about, as raw text is never shorter than its string).
 */
function longStrings(buf: Buffer, value: unknown, skipPiecewise: boolean): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const scanner = new JsonScanner(buf);
  const ws = (pos: number): number => scanner.ws(pos);
  const stringEnd = (pos: number): number => scanner.stringEnd(pos);
  const skipContainer = (pos: number): number => scanner.skipContainer(pos);

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
      const length = end - pos - 1;
      // Strings parseLine decoded piecewise are known already (and are ropes: not to be hashed).
      if (typeof parsed === 'string' && length >= MIN_SPLICE_CHARS && !(skipPiecewise && length >= PIECEWISE_MIN_BYTES)) {
        found.set(parsed, buf.subarray(pos + 1, end));
      }
      return end + 1;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth >= MAX_SCAN_DEPTH) return skipContainer(pos);
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
    return scanner.scalarEnd(pos);
  };

  scan(ws(0), value, 0);
  return found;
}
