// One Claude Code record as a JSON line, appended to a list of pieces: text, and raw bytes spliced from the
// input line for long strings (the same JSON value, without serialising them again).
import type { JsonSource } from '../../json/raw-json.js';
import { stringifySpliced, type JsonPieces } from '../../json/spliced-json.js';
import { PRE, PRE_HUMAN_TURN, renderReminder } from '../../monitor/notification.js';
import { EventRejected } from '../../session/types.js';
import { overRecordLimit, recordTooLong } from '../../util/record-limit.js';
import type { ClaudeRecord } from './records.js';

/** The hidden fields of records ClaudeRecordMapper makes from its prototypes (see serializeRecord). */
interface Templated {
  /**
   * User, assistant and notification attachment records: the JSON of the common fields and the newline that
   * close the line, as bytes (the same for every record of a session: encoded once).
   */
  turnTailBytes?: Buffer;
  /** The record's uuid was drawn by randomUuid: nothing in it to escape. */
  plainUuids?: boolean;
  /** The two queue operations of a notification. */
  queueOperation?: true;
  /**
   * A user record whose content is a string made of this prefix and then the event's own string (a tool
   * result kept as text): that string is spliced from the input line when it is one of its members.
   */
  textAfter?: readonly [prefix: string, text: string];
}

/**
 * Append one record's JSON line to `out`. Records of long input lines splice the line's long strings in as
 * raw bytes (the same JSON value, without serialising them again).
 */
export function serializeRecord(record: ClaudeRecord, out: JsonPieces, source?: JsonSource): void {
  const from = out.length;
  serializeOne(record, out, source);
  const over = overRecordLimit(out, from);
  if (over !== undefined) {
    out.length = from;
    throw new EventRejected(recordTooLong(over));
  }
}

function serializeOne(record: ClaudeRecord, out: JsonPieces, source?: JsonSource): void {
  try {
    const { turnTailBytes, queueOperation } = record as Templated;
    if (turnTailBytes !== undefined) {
      if (record.type === 'attachment') serializeNotification(record, turnTailBytes, out);
      else serializeTurn(record, turnTailBytes, out, source);
      return;
    }
    if (queueOperation === true) {
      serializeQueueOperation(record, out);
      return;
    }
    const json = source?.holdsLongStrings ? stringifySpliced(record, source) : JSON.stringify(record);
    if (typeof json === 'string') {
      out.push(`${json}\n`);
    } else {
      for (let i = 0; i < json.length - 1; i += 1) out.push(json[i]!);
      out.push(`${json[json.length - 1] as string}\n`);
    }
  } catch (error) {
    // Too deeply nested for JSON.stringify, or similar: the event is rejected, the harness goes on.
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

/** Characters a JSON string may hold as they are (no quote, backslash or control character to escape). */
const PLAIN = /^[\w .:+/-]*$/;

/** `JSON.stringify(value)` for a string or null, without its cost when there is nothing to escape. */
function quote(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'string' && PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * `stringify`, remembering its last answer: the records of one response repeat its id, model, usage and often
 * its time; a notification's three records, its text.
 * The values are strings, null, or objects that are not changed once made (usage).
 */
function rememberingLast(stringify: (value: unknown) => string): (value: unknown) => string {
  let last: unknown = rememberingLast;
  let json = '';
  return (value) => {
    if (value !== last) {
      json = stringify(value);
      last = value;
    }
    return json;
  };
}

/** `stringify` of two values, remembering its last answer (as rememberingLast). */
function rememberingLastTwo(stringify: (a: unknown, b: unknown) => string): (a: unknown, b: unknown) => string {
  let lastA: unknown = rememberingLastTwo;
  let lastB: unknown = rememberingLastTwo;
  let json = '';
  return (a, b) => {
    if (a !== lastA || b !== lastB) {
      json = stringify(a, b);
      lastA = a;
      lastB = b;
    }
    return json;
  };
}

/** The last record's uuid, quoted: the next record's parent, usually. */
let lastUuid: unknown = null;
let lastUuidJson = 'null';

/** A record's parent uuid, quoted (the uuid of the record before is known already). */
function quoteParent(parent: unknown): string {
  return parent === lastUuid ? lastUuidJson : quote(parent);
}

/** A record's own uuid, quoted (`plain`: drawn by randomUuid, nothing to escape), remembered for the next. */
function quoteOwn(uuid: unknown, plain: boolean | undefined): string {
  lastUuid = uuid;
  lastUuidJson = plain === true && typeof uuid === 'string' ? `"${uuid}"` : quote(uuid);
  return lastUuidJson;
}

const quoteTime = rememberingLast(quote);
const usageJson = rememberingLast((usage) => JSON.stringify(usage));
const quoteText = rememberingLast((text) => JSON.stringify(text));
const quoteSession = rememberingLast(quote);

/** What follows the parent uuid up to the content: the same for every record of a response. */
const USER_HEAD = ',"isSidechain":false,"type":"user","message":{"role":"user","content":';
const assistantHead = rememberingLastTwo((id, model) => `,"isSidechain":false,"type":"assistant","message":{"id":${quote(id)},"type":"message","role":"assistant","model":${quote(model)},"content":`);
/** What follows the content up to the record's uuid. */
const USER_END = '}';
const assistantEnd = rememberingLastTwo((stopReason, usage) => `,"stop_reason":${quote(stopReason)},"stop_sequence":null,"usage":${usageJson(usage)}}`);

/**
 * A user or assistant record made by ClaudeRecordMapper (its fields and their order are fixed there), by
 * template: the same text as JSON.stringify gives, without walking the envelope. `tail` is the JSON of its
 * common fields and the newline, encoded, from its prototype.
 */
function serializeTurn(record: ClaudeRecord, tail: Buffer, out: JsonPieces, source?: JsonSource): void {
  const message = record.message as Record<string, unknown>;
  const user = record.type === 'user';
  const head = `{"parentUuid":${quoteParent(record.parentUuid)}${user ? USER_HEAD : assistantHead(message.id, message.model)}`;
  const requestId = record.requestId === undefined ? '' : `,"requestId":${quote(record.requestId)}`;
  const after = `${user ? USER_END : assistantEnd(message.stop_reason, message.usage)}${requestId},"uuid":${quoteOwn(record.uuid, (record as Templated).plainUuids)},"timestamp":${quoteTime(record.timestamp)}`;
  const content = (source && (splicedContent(message.content, source) ?? splicedAfter(record as Templated, message.content, source)))
    ?? (source?.holdsLongStrings ? stringifySpliced(message.content, source) : JSON.stringify(message.content));
  if (typeof content === 'string') {
    out.push(head + content + after, tail);
    return;
  }
  out.push(head + (content[0] as string));
  for (let i = 1; i < content.length - 1; i += 1) out.push(content[i]!);
  out.push((content[content.length - 1] as string) + after, tail);
}

/**
 * A content string made of a prefix and then the input line's own member `content` (see Templated.textAfter),
 * as the prefix's JSON without its closing quote, then the member's raw JSON without its opening one: the
 * member's string is neither flattened, serialised nor encoded again (a huge result is held about once).
 */
function splicedAfter(record: Templated, content: unknown, source: JsonSource): JsonPieces | undefined {
  const parts = record.textAfter;
  if (parts === undefined || typeof content !== 'string') return undefined;
  const [prefix, text] = parts;
  if (content.length !== prefix.length + text.length) return undefined;
  const raw = source.rawMember('content', text);
  return raw && [JSON.stringify(prefix).slice(0, -1), raw.subarray(1), ''];
}

/**
 * The content of a turn record as text around the raw JSON of the input line's own member it came from (the
 * event's text, tool arguments or tool result), when it is one: that member is neither serialised nor encoded
 * again. Undefined when the content is not one of these shapes (ClaudeRecordMapper's, fields in its order) or
 * its value is not a member of the line.
 */
function splicedContent(content: unknown, source: JsonSource): JsonPieces | undefined {
  if (typeof content === 'string') {
    const raw = source.rawMember('text', content);
    return raw && ['', raw, ''];
  }
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const block = content[0] as Record<string, unknown>;
  switch (block.type) {
    case 'text': {
      const raw = source.rawMember('text', block.text);
      return raw && ['[{"type":"text","text":', raw, '}]'];
    }
    case 'thinking': {
      const raw = source.rawMember('text', block.thinking);
      return raw && ['[{"type":"thinking","thinking":', raw, `,"signature":${JSON.stringify(block.signature)}}]`];
    }
    case 'tool_use': {
      const raw = source.rawMember('arguments', block.input);
      return raw && [`[{"type":"tool_use","id":${JSON.stringify(block.id)},"name":${JSON.stringify(block.name)},"input":`, raw, '}]'];
    }
    case 'tool_result': {
      const raw = typeof block.content === 'string' ? source.rawMember('content', block.content) : undefined;
      return raw && [`[{"type":"tool_result","tool_use_id":${JSON.stringify(block.tool_use_id)},"content":`, raw, `,"is_error":${block.is_error === true}}]`];
    }
    default:
      return undefined;
  }
}

/** `,"key":[{"content":` and the rendered text's JSON without its XML: what comes before it and after it. */
function renderedAround(key: string, preamble: string): { before: Buffer; after: Buffer } {
  const mark = '\u0000';
  const [before, after] = JSON.stringify(renderReminder(preamble, mark)).split(JSON.stringify(mark).slice(1, -1));
  // Long and the same for every notification: written from bytes encoded once.
  return { before: Buffer.from(`,"${key}":[{"content":${before!}`), after: Buffer.from(`${after!}}]`) };
}

const RENDERED = renderedAround('rendered', PRE);
const RENDERED_IN_HUMAN_TURN = renderedAround('renderedInHumanTurn', PRE_HUMAN_TURN);

/**
 * A notification's queued_command attachment (see ClaudeRecordMapper.notification), by template. Its text
 * is quoted once for the three records; the rendered reminders around it are JSON that never changes (both
 * sides of the text are a newline: quoting the pieces apart gives the same JSON as quoting the whole).
 */
function serializeNotification(record: ClaudeRecord, tail: Buffer, out: JsonPieces): void {
  const attachment = record.attachment as Record<string, unknown>;
  const xml = quoteText(attachment.prompt);
  const inner = xml.slice(1, -1);
  out.push(
    `{"parentUuid":${quoteParent(record.parentUuid)},"isSidechain":false,"attachment":{"type":"queued_command","prompt":${xml},"source_uuid":${quote(attachment.source_uuid)},"delivery_id":${quote(attachment.delivery_id)},"commandMode":"task-notification","origin":{"kind":"task-notification","producer":"session-task"},"timestamp":${quoteTime(attachment.timestamp)}},"type":"attachment","uuid":${quoteOwn(record.uuid, (record as Templated).plainUuids)},"timestamp":${quoteTime(record.timestamp)}`,
    RENDERED.before, inner, RENDERED.after,
    RENDERED_IN_HUMAN_TURN.before, inner, RENDERED_IN_HUMAN_TURN.after,
    ',"renderedRole":"system"',
    tail,
  );
}

/** A notification's enqueue or remove queue operation, by template (fields in ClaudeRecordMapper's order). */
function serializeQueueOperation(record: ClaudeRecord, out: JsonPieces): void {
  const head = `{"type":"queue-operation","operation":${quote(record.operation)},"timestamp":${quoteTime(record.timestamp)},"sessionId":${quoteSession(record.sessionId)},"content":${quoteText(record.content)}`;
  out.push(record.operation === 'remove'
    ? `${head},"reason":${quote(record.reason)},"commandUuid":${quote(record.commandUuid)},"deliveryId":${quote(record.deliveryId)}}\n`
    : `${head}}\n`);
}
