// Qwen Code chats as generic events: input format `qwen-chat`, the JSON Lines file of 0.24.4 (records chained
// by `uuid`/`parentUuid`, each holding a Gemini Content). What the conversation is shows only at the end: the
// CLI takes the last conversation record as the leaf and the chain back from it as the history (a resumed or
// rewound session leaves other branches in the file), so records are held and come out of `end()`.
import type { ContentPart, GenericEvent, ImageInput } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { imageOfPart, partsOf, responseText, textOfParts, thoughtsOfParts, type Part } from '../../gemini-content/parts.js';
import { fromUsageMetadata } from '../../gemini-content/tokens.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { isObject } from '../../util/is-object.js';

export const INPUT_FORMAT = 'qwen-chat';

type Json = Record<string, unknown>;
type Warn = (message: string) => void;

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);

/**
 * A Qwen chat record: a `uuid`, a `parentUuid` (null included), a `sessionId`, a record type, and a Gemini
 * Content (`message.parts`) or a system payload: never a Claude Code record, whose messages hold `content`.
 */
function isChatRecord(value: unknown): value is Json {
  if (!isObject(value) || typeof value.uuid !== 'string' || !('parentUuid' in value) || typeof value.sessionId !== 'string') return false;
  if (typeof value.type !== 'string' || !RECORD_TYPES.has(value.type)) return false;
  return (isObject(value.message) && Array.isArray(value.message.parts)) || (value.type === 'system' && 'systemPayload' in value);
}

/** A record the history is built from (the leaf is the last of these). */
function isMaterial(record: Json): boolean {
  return record.type !== 'system' ? isObject(record.message) : record.subtype === 'chat_compression';
}

function timeOf(record: Json, now: string): string {
  try {
    return resolveTimestamp(record.timestamp, now);
  } catch {
    return now;
  }
}

/** A function response part as a tool result (its own `parts`: images a tool returned). */
function resultOf(response: Json, failed: boolean, timestamp: string): GenericEvent {
  const r = responseText(response.response);
  const images = partsOf(response.parts).map(imageOfPart).filter((i): i is ImageInput => i !== undefined);
  const content: string | ContentPart[] = images.length === 0 ? r.text
    : [...(r.text !== '' ? [{ type: 'text' as const, text: r.text }] : []), ...images.map((i) => ({ type: 'image' as const, ...i }))];
  return { type: 'tool_result', id: response.id as string, content, is_error: r.error || failed, timestamp };
}

class QwenChatAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private readonly records = new Map<string, Json>();
  private leaf: string | undefined;
  private cwd: string | undefined;

  map(value: unknown): GenericEvent[] {
    if (!isChatRecord(value)) throw new InputError('not a Qwen Code chat record (uuid, parentUuid, sessionId, type, message or systemPayload)');
    if (this.cwd === undefined && typeof value.cwd === 'string' && value.cwd.startsWith('/')) this.cwd = value.cwd;
    const uuid = value.uuid as string;
    this.records.set(uuid, value);
    if (isMaterial(value)) this.leaf = uuid;
    return [];
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  end(now: string, warn: Warn): GenericEvent[] {
    const chain: Json[] = [];
    const seen = new Set<string>();
    for (let id: unknown = this.leaf; typeof id === 'string' && !seen.has(id);) {
      const record = this.records.get(id);
      if (record === undefined) {
        warn(`record ${JSON.stringify(id)} named as a parent is not in the chat: the history starts after it`);
        break;
      }
      seen.add(id);
      chain.push(record);
      id = record.parentUuid;
    }
    this.records.clear();
    chain.reverse();
    // A compression checkpoint replaces everything before it.
    const last = chain.findLastIndex((r) => r.type === 'system' && r.subtype === 'chat_compression');
    const out: GenericEvent[] = [];
    for (const record of last >= 0 ? chain.slice(last) : chain) this.record(record, timeOf(record, now), out);
    return out;
  }

  private record(record: Json, timestamp: string, out: GenericEvent[]): void {
    if (record.type === 'system') {
      if (record.subtype === 'chat_compression') this.compaction(record, timestamp, out);
      return;
    }
    const parts = partsOf(isObject(record.message) ? record.message.parts : undefined);
    if (record.type === 'assistant') this.model(record, parts, timestamp, out);
    else this.user(record, parts, timestamp, out);
  }

  private user(record: Json, parts: Part[], timestamp: string, out: GenericEvent[]): void {
    const failed = isObject(record.toolCallResult) && record.toolCallResult.status === 'error';
    for (const part of parts) {
      if (isObject(part.functionResponse) && typeof part.functionResponse.id === 'string') out.push(resultOf(part.functionResponse, failed, timestamp));
    }
    const text = textOfParts(parts);
    const images = parts.map(imageOfPart).filter((i): i is ImageInput => i !== undefined);
    if (text.trim() === '' && images.length === 0) return;
    out.push({ type: 'user', text, ...(images.length > 0 ? { images } : {}), timestamp });
  }

  private model(record: Json, parts: Part[], timestamp: string, out: GenericEvent[]): void {
    const model = typeof record.model === 'string' && record.model !== '' ? record.model : undefined;
    let usage = fromUsageMetadata(record.usageMetadata);
    for (const text of thoughtsOfParts(parts)) out.push({ type: 'thinking', text, ...(model ? { model } : {}), timestamp });
    const text = textOfParts(parts);
    if (text.trim() !== '') {
      out.push({ type: 'assistant', text, ...(model ? { model } : {}), ...(usage ? { usage } : {}), timestamp });
      usage = undefined;
    }
    for (const part of parts) {
      const call = part.functionCall;
      // A call without an id is one the CLI drops on resume (with its result).
      if (!isObject(call) || typeof call.name !== 'string' || typeof call.id !== 'string') continue;
      out.push({ type: 'tool_call', id: call.id, name: call.name, arguments: isObject(call.args) ? call.args : {}, ...(model ? { model } : {}), ...(usage ? { usage } : {}), timestamp });
      usage = undefined;
    }
  }

  private compaction(record: Json, timestamp: string, out: GenericEvent[]): void {
    const payload = isObject(record.systemPayload) ? record.systemPayload : {};
    const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory.filter(isObject) : [];
    const first = history[0];
    const summary = first !== undefined ? textOfParts(partsOf(first.parts)) : '';
    out.push({ type: 'compaction', summary, timestamp });
  }
}

export const qwenChat: InputFormat = {
  name: INPUT_FORMAT,
  detect: isChatRecord,
  create: () => new QwenChatAdapter(),
};
