// What `read --usage` needs of a record, read from the line's bytes instead of JSON.parse of the whole record:
// its type, and for an assistant record its requestId, timestamp and message.id, message.model and message.usage. The
// line is validated as JSON.parse would validate it (lib/json/json-scanner.ts) and the few values are taken where
// they lie; only the usage object is parsed. A line the walk is not sure of (an escaped key, deep nesting,
// invalid JSON) is left to the caller to parse, so what is counted is what parsing every record would count.
import { JsonScanner, valueAt, type InnerFields } from '../../../json/json-scanner.js';

/** A record reduced to what UsageCounter reads; values are as `JSON.parse(line)` would give them. */
export interface UsageRecord {
  [key: string]: unknown;
  type: unknown;
  requestId?: unknown;
  timestamp?: unknown;
  message?: { id: unknown; model: unknown; usage: unknown };
}

const TOP_FIELDS = ['type', 'requestId', 'message', 'timestamp'].map((name) => Buffer.from(name));
const MESSAGE_FIELDS = ['id', 'model', 'usage'].map((name) => Buffer.from(name));
const [TYPE, REQUEST_ID, MESSAGE, TIMESTAMP] = [0, 1, 2, 3];
const [ID, MODEL, USAGE] = [0, 1, 2];

/** Value spans and escape flags, reused (one line at a time). */
const top = new Int32Array(TOP_FIELDS.length * 2);
const topEscapes = new Uint8Array(TOP_FIELDS.length);
const message = new Int32Array(MESSAGE_FIELDS.length * 2);
const messageEscapes = new Uint8Array(MESSAGE_FIELDS.length);
/** The message's keys are found in the walk that validates the record (the message is most of its bytes). */
const INNER: InnerFields = { field: MESSAGE, fields: MESSAGE_FIELDS, spans: message, escapes: messageEscapes };

/**
 * The usage-relevant part of the record on `buf[start, end)` (valid UTF-8), or undefined when the line is not
 * one JSON object or the walk is not certain of it: then the caller parses the line (and reports what is wrong).
 */
export function scanUsageRecord(buf: Buffer, start: number, end: number): UsageRecord | undefined {
  const walk = new JsonScanner(buf, end, TOP_FIELDS);
  const open = walk.ws(start);
  if (buf[open] !== 0x7b) return undefined;
  top.fill(-1);
  message.fill(-1);
  const close = walk.object(open, 1, top, topEscapes, INNER);
  if (close < 0 || walk.ws(close) !== end) return undefined;
  const value = (spans: Int32Array, escapes: Uint8Array, field: number): unknown => (spans[2 * field]! < 0 ? undefined
    : valueAt(buf, spans[2 * field]!, spans[2 * field + 1]!, escapes[field] === 1));
  const type = value(top, topEscapes, TYPE);
  if (type !== 'assistant') return { type };
  const record: UsageRecord = { type, requestId: value(top, topEscapes, REQUEST_ID), timestamp: value(top, topEscapes, TIMESTAMP) };
  const at = top[2 * MESSAGE]!;
  if (at < 0 || buf[at] !== 0x7b) return record;
  const usageAt = message[2 * USAGE]!;
  record.message = {
    id: value(message, messageEscapes, ID),
    model: value(message, messageEscapes, MODEL),
    usage: usageAt >= 0 && buf[usageAt] === 0x7b ? usageAtSpan(buf, usageAt, message[2 * USAGE + 1]!) : null,
  };
  return record;
}

/** The bytes of the usage object parsed last, and what they parse to (see usageAtSpan). */
let lastUsage = Buffer.alloc(256);
let lastUsageLength = -1;
let lastUsageValue: unknown;

/**
 * The usage object on `buf[start, end)` (validated), parsed. Claude Code repeats a response's usage on the
 * record of each of its content blocks: the same bytes give the same value, which UsageCounter only reads,
 * so it is parsed once (a native compare instead of a decode and a parse: a tenth of the scan's time).
 */
function usageAtSpan(buf: Buffer, start: number, end: number): unknown {
  const length = end - start;
  if (length === lastUsageLength && buf.compare(lastUsage, 0, length, start, end) === 0) return lastUsageValue;
  lastUsageValue = JSON.parse(buf.toString('utf8', start, end)) as unknown;
  if (length > lastUsage.length) lastUsage = Buffer.alloc(Math.max(length, 2 * lastUsage.length));
  buf.copy(lastUsage, 0, start, end);
  lastUsageLength = length;
  return lastUsageValue;
}

/**
 * What a record of type "assistant" must hold in its bytes: the string itself, or an escape of one of its
 * letters (a, i, n: `\u006X`; s, t: `\u007X`; searched as `\u00` and the digit after it checked: one search
 * instead of two). A line with none of these holds no assistant record, whole or glued to another: JSON.parse
 * and the recovery of a damaged line would find none in it. Inside a JSON string a quote is escaped, so text
 * that merely mentions "assistant" does not match.
 */
const ASSISTANT_MARKS = ['"assistant"', '\\u00'].map((mark) => Buffer.from(mark));
const ESCAPE_MARK = 1;

/** The next mark `k` in `buf` from `from` (an escape only of a letter of "assistant"), or -1. */
function nextMark(buf: Buffer, k: number, from: number): number {
  for (;;) {
    const at = buf.indexOf(ASSISTANT_MARKS[k]!, from);
    if (at === -1 || k !== ESCAPE_MARK) return at;
    const digit = buf[at + 4];
    if (digit === 0x36 || digit === 0x37) return at;
    from = at + 1;
  }
}

/**
 * Finds the lines of a chunk that may hold an assistant record: each mark is searched once per stretch of
 * the chunk (native search, far faster than walking the bytes), the lines asked about in file order.
 * `reset()` when the chunk's bytes change.
 */
export class AssistantLines {
  private buf: Buffer | undefined;
  /** Per mark: where the last search began and what it found (-1: nothing from there on). */
  private readonly from = new Int32Array(ASSISTANT_MARKS.length);
  private readonly found = new Int32Array(ASSISTANT_MARKS.length);

  reset(): void {
    this.buf = undefined;
  }

  /** Whether `buf[start, end)` may hold an assistant record (lines asked about in order within a chunk). */
  mayHold(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.buf) {
      this.buf = buf;
      this.from.fill(-1);
    }
    for (let k = 0; k < ASSISTANT_MARKS.length; k += 1) {
      let at = this.found[k]!;
      if (this.from[k]! < 0 || this.from[k]! > start || (at !== -1 && at < start)) {
        at = nextMark(buf, k, start);
        this.from[k] = start;
        this.found[k] = at;
      }
      if (at !== -1 && at < end) return true;
    }
    return false;
  }
}
