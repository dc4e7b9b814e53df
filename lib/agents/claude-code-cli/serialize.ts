// One Claude Code record as a JSON line, appended to a list of pieces: text, and raw bytes spliced from the
// input line for long strings (the same JSON value, without serialising them again).
import type { JsonSource } from '../../json/raw-json.js';
import { stringifySpliced, type JsonPieces } from '../../json/spliced-json.js';
import { EventRejected } from '../types.js';
import type { ClaudeRecord } from './records.js';

/**
 * Append one record's JSON line to `out`. Records of long input lines splice the line's long strings in as
 * raw bytes (the same JSON value, without serialising them again).
 */
export function serializeRecord(record: ClaudeRecord, out: JsonPieces, source?: JsonSource): void {
  try {
    const tail = (record as { turnTail?: unknown }).turnTail;
    if (typeof tail === 'string') {
      serializeTurn(record, tail, out, source);
      return;
    }
    const json = source ? stringifySpliced(record, source) : JSON.stringify(record);
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
 * A user or assistant record made by ClaudeRecordMapper (its fields and their order are fixed there), by
 * template: the same text as JSON.stringify gives, without walking the envelope. `tail` is the JSON of its
 * common fields, from its prototype.
 */
function serializeTurn(record: ClaudeRecord, tail: string, out: JsonPieces, source?: JsonSource): void {
  const message = record.message as Record<string, unknown>;
  const head = record.type === 'user'
    ? `{"parentUuid":${quote(record.parentUuid)},"isSidechain":false,"type":"user","message":{"role":"user","content":`
    : `{"parentUuid":${quote(record.parentUuid)},"isSidechain":false,"type":"assistant","message":{"id":${quote(message.id)},"type":"message","role":"assistant","model":${quote(message.model)},"content":`;
  const after = `${record.type === 'user' ? '}' : `,"stop_reason":${quote(message.stop_reason)},"stop_sequence":null,"usage":${JSON.stringify(message.usage)}}`},"uuid":${quote(record.uuid)},"timestamp":${quote(record.timestamp)}${tail}\n`;
  const content = source ? stringifySpliced(message.content, source) : JSON.stringify(message.content);
  if (typeof content === 'string') {
    out.push(head + content + after);
    return;
  }
  out.push(head + (content[0] as string));
  for (let i = 1; i < content.length - 1; i += 1) out.push(content[i]!);
  out.push((content[content.length - 1] as string) + after);
}
