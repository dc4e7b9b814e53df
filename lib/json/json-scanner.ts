// The one byte-level JSON scanner: boundaries in JSON bytes (strings, scalars, containers) for text JSON.parse
// accepted already, and a validating walk that accepts exactly what JSON.parse would (or gives up), for readers
// that take a few values from a line's bytes instead of parsing it. One depth limit, one set of byte tables.

/** Containers nested deeper than this are not walked (the caller parses, or skips them without looking in). */
export const MAX_SCAN_DEPTH = 64;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

/** Bytes that end the fast run inside a string: a quote, a backslash, or a control character (invalid raw). */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c += 1) STRING_STOP[c] = 1;
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/** Escapes JSON allows after a backslash (besides `u`). */
const SHORT_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SHORT_ESCAPE[c.charCodeAt(0)] = 1;

/** JSON's whitespace. */
const WS = new Uint8Array(256);
for (const c of ' \t\r\n') WS[c.charCodeAt(0)] = 1;

/** Keys to keep of the object that is the value of one field (JsonScanner.object's `inner`). */
export interface InnerFields {
  /** The field (an index of the outer keys) whose object value is walked for these keys. */
  field: number;
  fields: readonly Buffer[];
  spans: Int32Array;
  escapes: Uint8Array;
}

/**
 * A scanner over the JSON bytes `buf[0, end)`. The validating methods (`string`, `value`, `object`,
 * `plainStringEnd`, `wholeNumbers`) return the position after what they read, or -1 when the text is not valid
 * JSON there or is beyond what the walk takes on (escaped keys asked for, nesting over MAX_SCAN_DEPTH; for the
 * plain readers, any escape, space or other value): then the caller falls back to JSON.parse. The boundary
 * methods (`stringEnd`, `scalarEnd`, `skipContainer`, `splicesAsIs`) trust text JSON.parse accepted.
 */
export class JsonScanner {
  /** Whether the last string `string` read held an escape. */
  escaped = false;
  /** The value of the last number `wholeNumber` read. */
  whole = 0;

  /** @param fields the keys `object` keeps the value spans of, by index */
  constructor(public buf: Buffer, public end = buf.length, private readonly fields: readonly Buffer[] = []) {}

  /** Scan `buf[0, end)` from now on: one scanner for many lines, none made per line. */
  over(buf: Buffer, end: number): this {
    this.buf = buf;
    this.end = end;
    return this;
  }

  /** Whether the bytes at `pos` are `pattern` (within `end`). */
  startsWith(pos: number, pattern: Uint8Array): boolean {
    const { buf } = this;
    if (pos < 0 || pos + pattern.length > this.end) return false;
    for (let i = 0; i < pattern.length; i += 1) if (buf[pos + i] !== pattern[i]) return false;
    return true;
  }

  /** Whether the string body `buf[start, end)` (as `plainStringEnd` found it) is `pattern`. */
  isText(start: number, end: number, pattern: Uint8Array): boolean {
    return end - start === pattern.length && this.startsWith(start, pattern);
  }

  /**
   * Validating, plain strings only: the index of the quote closing the string whose body starts at `pos` (its
   * opening quote before it), or -1 when it holds an escape or a control character or does not end within
   * `end`. Its bytes are then its text.
   */
  plainStringEnd(pos: number): number {
    const { buf, end } = this;
    while (pos < end && STRING_STOP[buf[pos]!] === 0) pos += 1;
    return pos < end && buf[pos] === QUOTE ? pos : -1;
  }

  /**
   * Validating, plain shape only: reads the flat object of whole numbers at `pos` (`{"key":123,...}`: no space,
   * no escape, no other value, no fraction, exponent, sign or leading zero, at most 15 digits) into `out`, each
   * number at the index of its key in `keys` (0 for a key that is not there, the last of a repeated key as
   * JSON.parse keeps; other keys read and dropped). The position after its `}`, or -1 for any other shape.
   */
  wholeNumbers(pos: number, keys: readonly Uint8Array[], out: Float64Array): number {
    const { buf, end } = this;
    if (buf[pos] !== 0x7b || pos >= end) return -1;
    out.fill(0);
    let i = pos + 1;
    if (buf[i] === 0x7d && i < end) return i + 1;
    /** The key after the last one found: keys written in `keys`' order are each found at the first try. */
    let expected = 0;
    for (;;) {
      if (buf[i] !== QUOTE || i >= end) return -1;
      let key = -1;
      let close: number;
      const first = keys[expected];
      if (first !== undefined && this.startsWith(i + 1, first) && buf[i + 1 + first.length] === QUOTE) {
        // Its bytes are plain (a key asked for has no quote, backslash or control character).
        key = expected;
        close = i + 1 + first.length;
      } else {
        close = this.plainStringEnd(i + 1);
        if (close === -1) return -1;
        for (let k = 0; k < keys.length; k += 1) {
          if (this.isText(i + 1, close, keys[k]!)) {
            key = k;
            break;
          }
        }
      }
      if (buf[close + 1] !== 0x3a || close + 1 >= end) return -1;
      if (key !== -1) expected = key + 1;
      i = this.wholeNumber(close + 2);
      if (i === -1) return -1;
      if (key !== -1) out[key] = this.whole;
      if (buf[i] === 0x2c) i += 1;
      else if (buf[i] === 0x7d) return i + 1;
      else return -1;
    }
  }

  /**
   * Validating, plain shape only: the end of the whole number at `pos` (digits only: no sign, fraction, exponent
   * or leading zero, at most 15 of them, something after them within `end`), its value then in `whole`; -1
   * for any other text.
   */
  wholeNumber(pos: number): number {
    const { buf, end } = this;
    let i = pos;
    let value = 0;
    for (let c = buf[i]!; i < end && c >= 0x30 && c <= 0x39; c = buf[i += 1]!) value = value * 10 + (c - 0x30);
    const digits = i - pos;
    if (digits === 0 || digits > 15 || (digits > 1 && buf[pos] === 0x30) || i >= end) return -1;
    this.whole = value;
    return i;
  }

  /** The position of the first non-whitespace byte from `pos`. */
  ws(pos: number): number {
    const { buf, end } = this;
    while (pos < end && WS[buf[pos]!] === 1) pos += 1;
    return pos;
  }

  /** The index of the quote that closes the string opening at `pos` (-1 when there is none); not validating. */
  stringEnd(pos: number): number {
    const buf = this.buf;
    let q = buf.indexOf(QUOTE, pos + 1);
    while (q !== -1) {
      let b = q - 1;
      while (buf[b] === BACKSLASH) b -= 1;
      // An even run of backslashes escapes itself, not the quote.
      if ((q - 1 - b) % 2 === 0) return q;
      q = buf.indexOf(QUOTE, q + 1);
    }
    return -1;
  }

  /** The end of the number, true, false or null starting at `pos` (not validating). */
  scalarEnd(pos: number): number {
    const { buf, end } = this;
    while (pos < end) {
      const d = buf[pos]!;
      if (d === 0x2c || d === 0x7d || d === 0x5d || WS[d] === 1) break;
      pos += 1;
    }
    return pos;
  }

  /** The end of the value starting at `pos` (not validating). */
  valueEnd(pos: number): number {
    const c = this.buf[pos];
    if (c === QUOTE) return this.stringEnd(pos) + 1;
    return c === 0x7b || c === 0x5b ? this.skipContainer(pos) : this.scalarEnd(pos);
  }

  /**
   * Not validating: the start of the value of the last member named `key` (however its name is escaped) of the
   * object at `pos`, or -1 when it has none.
   */
  lastMember(pos: number, key: string): number {
    const { buf } = this;
    let found = -1;
    pos = this.ws(pos + 1);
    if (buf[pos] === 0x7d) return -1;
    for (;;) {
      const close = this.stringEnd(pos);
      const matches = this.keyIs(pos + 1, close, key);
      pos = this.ws(this.ws(close + 1) + 1);
      if (matches) found = pos;
      pos = this.ws(this.valueEnd(pos));
      if (buf[pos] !== 0x2c) return found;
      pos = this.ws(pos + 1);
    }
  }

  /** Whether the string body `buf[start, end)` (valid JSON) is `key` (ASCII) once decoded. */
  private keyIs(start: number, end: number, key: string): boolean {
    const { buf } = this;
    let plain = end - start === key.length;
    for (let i = start; i < end; i += 1) {
      const c = buf[i]!;
      if (c === BACKSLASH) return JSON.parse(buf.toString('utf8', start - 1, end + 1)) === key;
      if (plain && c !== key.charCodeAt(i - start)) plain = false;
    }
    return plain;
  }

  /** Skip a container without looking inside (too deep to scan by recursion); not validating. */
  skipContainer(pos: number): number {
    const buf = this.buf;
    let depth = 0;
    for (;;) {
      const c = buf[pos];
      if (c === QUOTE) {
        pos = this.stringEnd(pos) + 1;
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth += 1;
      else if (c === 0x7d || c === 0x5d) {
        depth -= 1;
        if (depth === 0) return pos + 1;
      }
      pos += 1;
    }
  }

  /**
   * The container between `start` and `end` reads back as the value JSON.stringify writes for what JSON.parse
   * made of it, and JSON.stringify could write that: no number overflows to Infinity (written null) or is -0
   * (written 0), and it nests no deeper than `maxDepth` (deeper, JSON.stringify may run out of stack).
   * Numbers with an exponent, a minus before a zero, or over 300 characters are taken to be such numbers.
   */
  splicesAsIs(start: number, end: number, maxDepth: number): boolean {
    const buf = this.buf;
    let depth = 0;
    for (let pos = start; pos < end;) {
      const c = buf[pos]!;
      if (c === QUOTE) {
        pos = this.stringEnd(pos) + 1;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        if (c === 0x2d && buf[pos + 1] === 0x30) return false;
        const from = pos;
        for (let d = buf[pos]!; d === 0x2d || d === 0x2b || d === 0x2e || (d >= 0x30 && d <= 0x39) || d === 0x65 || d === 0x45; d = buf[++pos]!) {
          if (d === 0x65 || d === 0x45) return false;
        }
        if (pos - from > 300) return false;
      } else {
        if (c === 0x7b || c === 0x5b) {
          depth += 1;
          if (depth > maxDepth) return false;
        } else if (c === 0x7d || c === 0x5d) {
          depth -= 1;
        }
        pos += 1;
      }
    }
    return true;
  }

  /** Validating: the position just past the closing quote of the string opening at `pos`. */
  string(pos: number): number {
    const { buf, end } = this;
    this.escaped = false;
    let i = pos + 1;
    for (;;) {
      while (i < end && STRING_STOP[buf[i]!] === 0) i += 1;
      if (i >= end) return -1;
      const c = buf[i]!;
      if (c === QUOTE) return i + 1;
      if (c !== BACKSLASH) return -1; // a raw control character
      this.escaped = true;
      const e = buf[i + 1] ?? 0;
      if (SHORT_ESCAPE[e] === 1) {
        i += 2;
      } else if (e === 0x75) {
        if (i + 6 > end || !HEX[buf[i + 2]!] || !HEX[buf[i + 3]!] || !HEX[buf[i + 4]!] || !HEX[buf[i + 5]!]) return -1;
        i += 6;
      } else {
        return -1;
      }
    }
  }

  private digits(pos: number): number {
    const { buf, end } = this;
    const from = pos;
    while (pos < end && buf[pos]! >= 0x30 && buf[pos]! <= 0x39) pos += 1;
    return pos > from ? pos : -1;
  }

  private number(pos: number): number {
    const { buf } = this;
    if (buf[pos] === 0x2d) pos += 1;
    if (buf[pos] === 0x30) pos += 1;
    else if ((pos = this.digits(pos)) < 0) return -1;
    if (buf[pos] === 0x2e && (pos = this.digits(pos + 1)) < 0) return -1;
    if (buf[pos] === 0x65 || buf[pos] === 0x45) {
      pos += 1;
      if (buf[pos] === 0x2b || buf[pos] === 0x2d) pos += 1;
      if ((pos = this.digits(pos)) < 0) return -1;
    }
    return pos;
  }

  private literal(pos: number, word: string): number {
    if (pos + word.length > this.end) return -1;
    for (let k = 0; k < word.length; k += 1) if (this.buf[pos + k] !== word.charCodeAt(k)) return -1;
    return pos + word.length;
  }

  /** Validating: the position after the value starting at `pos` (no whitespace before it). */
  value(pos: number, depth: number): number {
    const c = this.buf[pos];
    switch (c) {
      case QUOTE: return this.string(pos);
      case 0x7b: return this.object(pos, depth + 1, undefined);
      case 0x5b: return this.array(pos, depth + 1);
      case 0x74: return this.literal(pos, 'true');
      case 0x66: return this.literal(pos, 'false');
      case 0x6e: return this.literal(pos, 'null');
      default: return c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39) ? this.number(pos) : -1;
    }
  }

  private array(pos: number, depth: number): number {
    if (depth > MAX_SCAN_DEPTH) return -1;
    pos = this.ws(pos + 1);
    if (this.buf[pos] === 0x5d) return pos + 1;
    for (;;) {
      if ((pos = this.value(pos, depth)) < 0) return -1;
      pos = this.ws(pos);
      const c = this.buf[pos];
      if (c === 0x5d) return pos + 1;
      if (c !== 0x2c) return -1;
      pos = this.ws(pos + 1);
    }
  }

  /**
   * Validating: the position after the object starting at `pos`. With `spans`, the value span of each key in
   * `fields` is kept ([start, end) at 2*i, last occurrence wins as in JSON.parse); a key written with an escape
   * is not matched, so the walk gives up on it. With `inner`, the keys of the object that is the value of its
   * field are kept too, in the same walk (from the last occurrence of the field; all -1 when that is no object).
   */
  object(pos: number, depth: number, spans: Int32Array | undefined, escapes?: Uint8Array, inner?: InnerFields, fields = this.fields): number {
    if (depth > MAX_SCAN_DEPTH) return -1;
    const { buf } = this;
    pos = this.ws(pos + 1);
    if (buf[pos] === 0x7d) return pos + 1;
    for (;;) {
      if (buf[pos] !== QUOTE) return -1;
      const keyEnd = this.string(pos);
      if (keyEnd < 0) return -1;
      let field = -1;
      if (spans !== undefined) {
        if (this.escaped) return -1;
        field = fieldOf(fields, buf, pos + 1, keyEnd - 1);
      }
      pos = this.ws(keyEnd);
      if (buf[pos] !== 0x3a) return -1;
      pos = this.ws(pos + 1);
      const start = pos;
      if (inner !== undefined && field === inner.field) {
        inner.spans.fill(-1);
        pos = buf[pos] === 0x7b ? this.object(pos, depth + 1, inner.spans, inner.escapes, undefined, inner.fields) : this.value(pos, depth);
        if (pos < 0) return -1;
      } else if ((pos = this.value(pos, depth)) < 0) {
        return -1;
      }
      if (field >= 0) {
        spans![2 * field] = start;
        spans![2 * field + 1] = pos;
        escapes![field] = this.escaped ? 1 : 0;
      }
      pos = this.ws(pos);
      const c = buf[pos];
      if (c === 0x7d) return pos + 1;
      if (c !== 0x2c) return -1;
      pos = this.ws(pos + 1);
    }
  }
}

function fieldOf(fields: readonly Buffer[], buf: Buffer, start: number, end: number): number {
  const length = end - start;
  outer: for (let f = 0; f < fields.length; f += 1) {
    const name = fields[f]!;
    if (name.length !== length) continue;
    for (let k = 0; k < length; k += 1) if (buf[start + k] !== name[k]) continue outer;
    return f;
  }
  return -1;
}

/**
 * The JSON value in `buf[start, end)` (validated, valid UTF-8) as JSON.parse gives it, for the values a byte
 * reader compares: strings decoded, `true`; any other value as null (readers only ask "a string?", "true?").
 */
export function valueAt(buf: Buffer, start: number, end: number, escaped: boolean): unknown {
  const c = buf[start];
  if (c === QUOTE) {
    // Decoding bytes without a backslash is what JSON.parse does with them (the line is valid UTF-8).
    return escaped ? JSON.parse(buf.toString('utf8', start, end)) as unknown : buf.toString('utf8', start + 1, end - 1);
  }
  return c === 0x74 ? true : null;
}
