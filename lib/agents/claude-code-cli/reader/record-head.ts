// The few fields of a record the first pass needs (type, uuid, links, sidechain, compaction, tool-results
// kind), read from the line's bytes instead of JSON.parse of the whole record. The scan validates the whole
// line as JSON.parse would and gives up on anything it is not sure of (escaped keys, deep nesting, invalid
// text), so a line it accepts yields exactly the values JSON.parse would give; every other line is parsed.
// The walk is lib/json/json-scanner.ts's; what is here is which fields a Claude Code record's head is.
import { JsonScanner, QUOTE, valueAt, type InnerFields } from '../../../json/json-scanner.js';

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

/** Top-level keys the first pass reads, by name. */
const FIELDS = ['type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'leafUuid', 'timestamp', 'subtype', 'message'] as const;
type Field = (typeof FIELDS)[number];
const FIELD_BYTES = FIELDS.map((name) => Buffer.from(name));

const index = (name: Field): number => FIELDS.indexOf(name);
const TYPE = index('type');
const SUBTYPE = index('subtype');
const MESSAGE = index('message');

/** Whether the value at `start` (validated) is the JSON string `text`, however it was escaped. */
function isString(walk: JsonScanner, start: number, text: string): boolean {
  if (walk.buf[start] !== QUOTE) return false;
  const end = walk.string(start);
  return valueAt(walk.buf, start, end, walk.escaped) === text;
}

/**
 * Whether a user record's message holds tool results only: `message.content` (the value at `content`, its
 * line validated, or -1) a non-empty array whose every element is an object of type "tool_result".
 */
function toolResultsOnly(walk: JsonScanner, content: number): boolean {
  const { buf } = walk;
  if (content < 0 || buf[content] !== 0x5b) return false;
  let pos = walk.ws(content + 1);
  if (buf[pos] === 0x5d) return false;
  for (;;) {
    if (buf[pos] !== 0x7b) return false;
    const type = walk.lastMember(pos, 'type');
    if (type < 0 || !isString(walk, type, 'tool_result')) return false;
    pos = walk.ws(walk.valueEnd(pos));
    if (buf[pos] === 0x5d) return true;
    pos = walk.ws(pos + 1);
  }
}

/** Span positions of FIELDS and whether each string value held an escape, reused (one line at a time). */
const spans = new Int32Array(FIELDS.length * 2);
const escapes = new Uint8Array(FIELDS.length);
/** `message.content`'s span, read in the same walk. */
const message: InnerFields = { field: MESSAGE, fields: [Buffer.from('content')], spans: new Int32Array(2), escapes: new Uint8Array(1) };

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
  const walk = new JsonScanner(buf, end, FIELD_BYTES);
  const open = walk.ws(start);
  if (buf[open] !== 0x7b) return false;
  spans.fill(-1);
  const close = walk.object(open, 1, spans, escapes, message);
  if (close < 0 || walk.ws(close) !== end) return false;
  const value = (field: number): unknown => (spans[2 * field]! < 0 ? undefined
    : valueAt(buf, spans[2 * field]!, spans[2 * field + 1]!, escapes[field] === 1));
  let kind: NodeKind;
  switch (value(TYPE)) {
    case 'user': kind = spans[2 * MESSAGE]! >= 0 && toolResultsOnly(walk, message.spans[0]!) ? 'tool-results' : 'user'; break;
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
