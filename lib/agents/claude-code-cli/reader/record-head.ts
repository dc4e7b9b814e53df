// The few fields of a record the first pass needs (type, uuid, links, sidechain, compaction, tool-results
// kind), read from the line's bytes instead of JSON.parse of the whole record. The scan validates the whole
// line as JSON.parse would and gives up on anything it is not sure of (escaped keys, deep nesting, invalid
// text), so a line it accepts yields exactly the values JSON.parse would give; every other line is parsed.

/** What a record is, as far as branches go. */
export type NodeKind = 'user' | 'assistant' | 'tool-results' | 'context' | 'boundary';

/** What the first pass reads of one record; values are as `JSON.parse(line)[key]` would be, or undefined. */
export interface RecordHead {
  type: unknown;
  uuid: unknown;
  parentUuid: unknown;
  logicalParentUuid: unknown;
  isSidechain: unknown;
  leafUuid: unknown;
  timestamp: unknown;
  /** The record's kind for the branch index (as nodeKind gives it). */
  kind: NodeKind;
}

/** Containers nested deeper than this are left to JSON.parse. */
const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

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

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** Top-level keys the first pass reads, by name. */
const FIELDS = ['type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'leafUuid', 'timestamp', 'subtype', 'message'] as const;
type Field = (typeof FIELDS)[number];
const FIELD_BYTES = FIELDS.map((name) => Buffer.from(name));

/**
 * A validating walk over JSON bytes. Every method returns the position after what it read, or -1 when the
 * text is not valid JSON there or is beyond what the walk takes on (then the caller falls back to JSON.parse).
 */
export class Walk {
  /** Whether the last string read held an escape. */
  escaped = false;

  /** @param fields the keys `object` keeps the value spans of, by index (FIELDS by default) */
  constructor(readonly buf: Buffer, readonly end: number, private readonly fields: readonly Buffer[] = FIELD_BYTES) {}

  ws(pos: number): number {
    const { buf, end } = this;
    while (pos < end && isWs(buf[pos]!)) pos += 1;
    return pos;
  }

  /** The position just past the closing quote of the string opening at `pos`. */
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

  /** The position after the value starting at `pos` (no whitespace before it). */
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
    if (depth > MAX_DEPTH) return -1;
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
   * The position after the object starting at `pos`. With `spans`, the value span of each key in `fields` is
   * kept ([start, end) at 2*i, last occurrence wins as in JSON.parse); a key written with an escape is not
   * matched, so the walk gives up on it. With `inner`, the keys of the object that is the value of its field
   * are kept too, in the same walk (from the last occurrence of the field; all -1 when that is no object).
   */
  object(pos: number, depth: number, spans: Int32Array | undefined, escapes?: Uint8Array, inner?: InnerFields, fields = this.fields): number {
    if (depth > MAX_DEPTH) return -1;
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

/** Keys to keep of the object that is the value of one field (Walk.object's `inner`). */
export interface InnerFields {
  /** The field (an index of the outer keys) whose object value is walked for these keys. */
  field: number;
  fields: readonly Buffer[];
  spans: Int32Array;
  escapes: Uint8Array;
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

const index = (name: Field): number => FIELDS.indexOf(name);
const TYPE = index('type');
const SUBTYPE = index('subtype');
const MESSAGE = index('message');

/**
 * The JSON value in `buf[start, end)` (already validated) as JSON.parse gives it, for the values the first
 * pass compares: strings decoded, `true`; any other value as null (the index only asks "a string?", "true?").
 */
export function valueAt(buf: Buffer, start: number, end: number, escaped: boolean): unknown {
  const c = buf[start];
  if (c === QUOTE) {
    // Decoding bytes without a backslash is what JSON.parse does with them (the line is valid UTF-8).
    return escaped ? JSON.parse(buf.toString('utf8', start, end)) as unknown : buf.toString('utf8', start + 1, end - 1);
  }
  return c === 0x74 ? true : null;
}

/** Whether the value at `start` (validated) is the JSON string `text`, however it was escaped. */
function isString(walk: Walk, start: number, text: string): boolean {
  if (walk.buf[start] !== QUOTE) return false;
  const end = walk.string(start);
  return valueAt(walk.buf, start, end, walk.escaped) === text;
}

/**
 * Whether a user record's message (the object at `buf[start, end)`, validated) holds tool results only:
 * `message.content` a non-empty array whose every element is an object of type "tool_result".
 */
function toolResultsOnly(walk: Walk, start: number, end: number): boolean {
  const { buf } = walk;
  if (buf[start] !== 0x7b) return false;
  const content = lastValue(walk, start, 'content');
  if (content === undefined || buf[content] !== 0x5b) return false;
  let pos = walk.ws(content + 1);
  if (buf[pos] === 0x5d) return false;
  for (;;) {
    if (buf[pos] !== 0x7b) return false;
    const type = lastValue(walk, pos, 'type');
    if (type === undefined || !isString(walk, type, 'tool_result')) return false;
    const after = walk.value(pos, 0);
    pos = walk.ws(after);
    if (buf[pos] === 0x5d) return pos <= end;
    pos = walk.ws(pos + 1);
  }
}

/** The start of the value of the last `key` (unescaped) in the object at `pos`, or undefined. */
function lastValue(walk: Walk, pos: number, key: string): number | undefined {
  const { buf } = walk;
  let found: number | undefined;
  pos = walk.ws(pos + 1);
  if (buf[pos] === 0x7d) return undefined;
  for (;;) {
    const keyEnd = walk.string(pos);
    const escaped = walk.escaped;
    const matches = !escaped ? keyEnd - pos - 2 === key.length && buf.toString('latin1', pos + 1, keyEnd - 1) === key
      : JSON.parse(buf.toString('utf8', pos, keyEnd)) === key;
    pos = walk.ws(walk.ws(keyEnd) + 1);
    if (matches) found = pos;
    pos = walk.ws(walk.value(pos, 0));
    if (buf[pos] === 0x7d) return found;
    pos = walk.ws(pos + 1);
  }
}

/** Span positions of FIELDS and whether each string value held an escape, reused (one line at a time). */
const spans = new Int32Array(FIELDS.length * 2);
const escapes = new Uint8Array(FIELDS.length);

const KINDS: readonly NodeKind[] = ['user', 'assistant', 'tool-results', 'context', 'boundary'];
/** The head's fields, first in FIELDS. */
const HEAD_FIELDS = 7;

/** Int32s a scanned head takes (see scanRecordHead): the kind, then start, end and escaped of each field. */
export const HEAD_INTS = 1 + 3 * HEAD_FIELDS;

/**
 * Scan the record on `buf[start, end)` (valid UTF-8) into `out[at, at + HEAD_INTS)`: where the head's
 * values are, not the values (decodeRecordHead makes them, from the same bytes). False when the line is not
 * one JSON object or the scan is not certain of it: then the caller parses the line (and reports what is
 * wrong with it). Split from decoding so a worker thread can scan and the main thread decode.
 */
export function scanRecordHead(buf: Buffer, start: number, end: number, out: Int32Array, at: number): boolean {
  const walk = new Walk(buf, end);
  const open = walk.ws(start);
  if (buf[open] !== 0x7b) return false;
  spans.fill(-1);
  const close = walk.object(open, 1, spans, escapes);
  if (close < 0 || walk.ws(close) !== end) return false;
  const value = (field: number): unknown => (spans[2 * field]! < 0 ? undefined
    : valueAt(buf, spans[2 * field]!, spans[2 * field + 1]!, escapes[field] === 1));
  let kind: NodeKind;
  switch (value(TYPE)) {
    case 'user': {
      const message = spans[2 * MESSAGE]!;
      kind = message >= 0 && toolResultsOnly(walk, message, spans[2 * MESSAGE + 1]!) ? 'tool-results' : 'user';
      break;
    }
    case 'assistant': kind = 'assistant'; break;
    case 'system': kind = value(SUBTYPE) === 'compact_boundary' ? 'boundary' : 'context'; break;
    default: kind = 'context';
  }
  out[at] = KINDS.indexOf(kind);
  for (let field = 0; field < HEAD_FIELDS; field += 1) {
    const base = at + 1 + 3 * field;
    out[base] = spans[2 * field]!;
    out[base + 1] = spans[2 * field + 1]!;
    out[base + 2] = escapes[field]!;
  }
  return true;
}

/**
 * The head scanRecordHead found at `heads[at]`, its values made from the same bytes (the timestamp only
 * when `withTime`: the first pass wants just the first one).
 */
export function decodeRecordHead(buf: Buffer, heads: Int32Array, at: number, withTime = true): RecordHead {
  const value = (field: number): unknown => {
    const base = at + 1 + 3 * field;
    const start = heads[base]!;
    return start < 0 ? undefined : valueAt(buf, start, heads[base + 1]!, heads[base + 2] === 1);
  };
  return {
    type: value(TYPE),
    uuid: value(index('uuid')),
    parentUuid: value(index('parentUuid')),
    logicalParentUuid: value(index('logicalParentUuid')),
    isSidechain: value(index('isSidechain')),
    leafUuid: value(index('leafUuid')),
    timestamp: withTime ? value(index('timestamp')) : undefined,
    kind: KINDS[heads[at]!]!,
  };
}

const scratch = new Int32Array(HEAD_INTS);

/**
 * The head of the record on `buf[start, end)` (valid UTF-8), or undefined when the line is not one JSON
 * object or the scan is not certain of it: then the caller parses the line (and reports what is wrong).
 */
export function readRecordHead(buf: Buffer, start: number, end: number, withTime = true): RecordHead | undefined {
  return scanRecordHead(buf, start, end, scratch, 0) ? decodeRecordHead(buf, scratch, 0, withTime) : undefined;
}
