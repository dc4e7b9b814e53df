// Validation of one parsed input line against the generic event vocabulary (lib/events.ts): the event in its
// canonical snake_case form with its timestamp resolved, or the one reason it is rejected, quoting the line.
import type {
  AssistantEvent, CompactionEvent, ContentPart, ContextEvent, EventType, GenericEvent, ImageInput, MonitorEndEvent,
  MonitorEvent, NativeCall, ThinkingEvent, ToolCallEvent, UserEvent,
} from './types.js';
import { isObject } from '../util/is-object.js';
import { preview, previewValue } from '../lines/line-messages.js';
import { checkedUsage, type Usage } from '../usage.js';

/** The event types, as an input line's `type` names them. */
export const EVENT_TYPES: readonly EventType[] = [
  'user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'monitor_event', 'monitor_end', 'compaction', 'context',
];

/** Externally tagged enum names (as a Rust program's serde serialises an enum of these events). */
const ENUM_NAMES: Record<string, EventType | null> = {
  User: 'user',
  Assistant: 'assistant',
  Thinking: 'thinking',
  ToolCall: 'tool_call',
  ToolResult: 'tool_result',
  MonitorEvent: 'monitor_event',
  MonitorEnd: 'monitor_end',
  Compaction: 'compaction',
  Context: 'context',
  // A Rust agent that writes the three monitor records on MonitorEvent says MonitorConsumed too; it carries nothing more.
  MonitorConsumed: null,
};

/** An accepted event may come with `warnings`: problems of the line that left something out of it (a bad token count). */
export type Normalized = { ok: true; event: GenericEvent; warnings?: string[] } | { ok: true; event: null } | { ok: false; error: string };

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function str(obj: Record<string, unknown>, key: string, required: true): string;
function str(obj: Record<string, unknown>, key: string, required: boolean): string | undefined;
function str(obj: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (required) fail(`missing "${key}"`);
    return undefined;
  }
  if (typeof value !== 'string') fail(`"${key}" must be a string, got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Resolve an event timestamp: RFC 3339 text or epoch milliseconds, else `now`.
 * Returns the RFC 3339 form with milliseconds that transcripts need.
 */
export function resolveTimestamp(value: unknown, now: string): string {
  if (value === undefined || value === null) return now;
  if (typeof value === 'string' && isCanonicalTime(value)) return value;
  let date: Date;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail('"timestamp" must be RFC 3339 text or epoch milliseconds');
    date = new Date(value);
  } else if (typeof value === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(value)) {
      fail(`"timestamp" is not RFC 3339: ${preview(value)}`);
    }
    date = new Date(value);
  } else {
    fail(`"timestamp" must be RFC 3339 text or epoch milliseconds, got ${describe(value)}`);
  }
  if (Number.isNaN(date.getTime())) fail(`"timestamp" is not a valid time: ${JSON.stringify(value)}`);
  return date.toISOString();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `text` is already what `new Date(text).toISOString()` returns (YYYY-MM-DDTHH:MM:SS.mmmZ, every field in
 * range). Most timestamps are, and checking by hand costs a tenth of the Date round trip.
 */
function isCanonicalTime(text: string): boolean {
  if (text.length !== 24 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84
    || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) {
    return false;
  }
  const num = (from: number, to: number): number => {
    let n = 0;
    for (let i = from; i < to; i += 1) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n;
  };
  const year = num(0, 4);
  const month = num(5, 7);
  const day = num(8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || num(20, 23) < 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  // Date rolls an out-of-range day or hour 24 over into the next month or day: those take the slow path.
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return false;
  const hour = num(11, 13);
  const minute = num(14, 16);
  const second = num(17, 19);
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

function image(value: unknown, where: string): ImageInput {
  if (!isObject(value)) fail(`${where} must be an object`);
  // Accept Claude's own {source:{type:"base64",media_type,data}} as well as the flat form.
  const source = isObject(value.source) ? value.source : value;
  const mediaType = source.media_type;
  const data = source.data;
  if (typeof mediaType !== 'string' || mediaType === '') fail(`${where}.media_type must be a non-empty string`);
  if (typeof data !== 'string') fail(`${where}.data must be a base64 string`);
  return { media_type: mediaType, data };
}

function contentParts(value: unknown[]): ContentPart[] {
  return value.map((part, index): ContentPart => {
    const where = `content[${index}]`;
    if (!isObject(part)) fail(`${where} must be an object`);
    if (part.type === 'text') {
      if (typeof part.text !== 'string') fail(`${where}.text must be a string`);
      return { type: 'text', text: part.text };
    }
    if (part.type === 'image') return { type: 'image', ...image(part, where) };
    return fail(`${where}: unknown part type ${JSON.stringify(part.type)} (expected "text" or "image")`);
  });
}

function toolArguments(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      fail('"arguments" is a string but not JSON');
    }
    if (!isObject(parsed)) fail('"arguments" must encode a JSON object');
    return parsed;
  }
  return fail(`"arguments" must be an object or a JSON string, got ${describe(value)}`);
}

/**
 * The optional `native` of a tool call, or undefined. A malformed one is left out and told in `warnings`: the
 * generic call is still good, and its writers fall back to it.
 */
function nativeOf(value: unknown, warnings: string[]): NativeCall | undefined {
  if (value === undefined || value === null) return undefined;
  const problem = nativeProblem(value);
  if (problem !== undefined) {
    warnings.push(`${problem}; "native" left out`);
    return undefined;
  }
  const native = value as Record<string, unknown>;
  return { format: native.format as string, name: native.name as string, arguments: native.arguments as Record<string, unknown> };
}

/** What is wrong with a `native` value, or undefined when it is `{format, name, arguments}` as wanted. */
function nativeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `"native" must be an object, got ${describe(value)}`;
  for (const key of ['format', 'name'] as const) {
    const field = value[key];
    if (field === undefined || field === null) return `missing "native.${key}"`;
    if (typeof field !== 'string') return `"native.${key}" must be a string, got ${describe(field)}`;
    if (field === '') return `"native.${key}" must not be empty`;
  }
  if (!isObject(value.arguments)) {
    return value.arguments === undefined ? 'missing "native.arguments"' : `"native.arguments" must be an object, got ${describe(value.arguments)}`;
  }
  return undefined;
}

/** The optional `usage` object of an assistant-side event, its bad token counts left out (told in `warnings`). */
function usageOf(obj: Record<string, unknown>, warnings: string[]): Usage | undefined {
  if (obj.usage === undefined || obj.usage === null) return undefined;
  if (!isObject(obj.usage)) fail('"usage" must be an object');
  const usage = checkedUsage(obj.usage, 'usage', 0, warnings);
  return Object.keys(usage).length > 0 ? usage : undefined;
}


function build(type: string, obj: Record<string, unknown>, now: string, warnings: string[]): GenericEvent {
  const timestamp = resolveTimestamp(obj.timestamp, now);
  switch (type) {
    case 'user': {
      const text = str(obj, 'text', obj.images === undefined);
      const event: UserEvent = { type, text: text ?? '', timestamp };
      if (obj.images !== undefined && obj.images !== null) {
        if (!Array.isArray(obj.images)) fail('"images" must be an array');
        event.images = obj.images.map((img, i) => image(img, `images[${i}]`));
      }
      return event;
    }
    case 'assistant': {
      const event: AssistantEvent = { type, text: str(obj, 'text', true), timestamp };
      const model = str(obj, 'model', false);
      if (model !== undefined) event.model = model;
      const usage = usageOf(obj, warnings);
      if (usage !== undefined) event.usage = usage;
      return event;
    }
    case 'thinking': {
      const event: ThinkingEvent = { type, text: str(obj, 'text', true), timestamp };
      const signature = str(obj, 'signature', false);
      if (signature !== undefined) event.signature = signature;
      const model = str(obj, 'model', false);
      if (model !== undefined) event.model = model;
      return event;
    }
    case 'tool_call': {
      const event: ToolCallEvent = {
        type,
        id: str(obj, 'id', true),
        name: str(obj, 'name', true),
        arguments: toolArguments(obj.arguments),
        timestamp,
      };
      if (event.id === '') fail('"id" must not be empty');
      if (event.name === '') fail('"name" must not be empty');
      const native = nativeOf(obj.native, warnings);
      if (native !== undefined) event.native = native;
      const model = str(obj, 'model', false);
      if (model !== undefined) event.model = model;
      const usage = usageOf(obj, warnings);
      if (usage !== undefined) event.usage = usage;
      return event;
    }
    case 'tool_result': {
      const id = str(obj, 'id', true);
      if (id === '') fail('"id" must not be empty');
      let content: string | ContentPart[];
      if (obj.content === undefined || obj.content === null) content = '';
      else if (typeof obj.content === 'string') content = obj.content;
      else if (Array.isArray(obj.content)) content = contentParts(obj.content);
      else fail(`"content" must be a string or an array of parts, got ${describe(obj.content)}`);
      if (obj.is_error !== undefined && obj.is_error !== null && typeof obj.is_error !== 'boolean') {
        fail('"is_error" must be a boolean');
      }
      return { type, id, content, is_error: obj.is_error === true, timestamp };
    }
    case 'monitor_event': {
      const event: MonitorEvent = { type, event: str(obj, 'event', true), timestamp };
      for (const key of ['description', 'task_id', 'note'] as const) {
        const value = str(obj, key, false);
        if (value !== undefined) event[key] = value;
      }
      return event;
    }
    case 'monitor_end': {
      const code = obj.exit_code;
      if (typeof code !== 'number' || !Number.isInteger(code)) fail('"exit_code" must be an integer');
      const event: MonitorEndEvent = { type, exit_code: code, timestamp };
      for (const key of ['description', 'task_id'] as const) {
        const value = str(obj, key, false);
        if (value !== undefined) event[key] = value;
      }
      if (obj.stopped !== undefined && obj.stopped !== null && typeof obj.stopped !== 'boolean') fail('"stopped" must be a boolean');
      if (obj.stopped === true) event.stopped = true;
      return event;
    }
    case 'compaction': {
      const event: CompactionEvent = { type, summary: str(obj, 'summary', true), timestamp };
      const trigger = str(obj, 'trigger', false);
      if (trigger !== undefined) event.trigger = trigger;
      if (obj.pre_tokens !== undefined && obj.pre_tokens !== null) {
        if (typeof obj.pre_tokens !== 'number' || !Number.isInteger(obj.pre_tokens) || obj.pre_tokens < 0) {
          fail('"pre_tokens" must be a non-negative integer');
        }
        event.pre_tokens = obj.pre_tokens;
      }
      return event;
    }
    case 'context': {
      const kind = str(obj, 'kind', true);
      if (kind === '') fail('"kind" must not be empty');
      const event: ContextEvent = { type, kind, timestamp };
      for (const key of ['subtype', 'text'] as const) {
        const value = str(obj, key, false);
        if (value !== undefined) event[key] = value;
      }
      if (obj.data !== undefined && obj.data !== null) {
        if (!isObject(obj.data)) fail('"data" must be an object');
        event.data = obj.data;
      }
      return event;
    }
    default:
      return fail(`unknown event type ${previewValue(type)} (expected one of ${EVENT_TYPES.join(', ')})`);
  }
}

/** Carry the optional `agent_id` (any event type) over to the normalised event. */
function withAgentId(event: GenericEvent, obj: Record<string, unknown>): GenericEvent {
  const agentId = str(obj, 'agent_id', false);
  if (agentId !== undefined) event.agent_id = agentId;
  return event;
}

/**
 * Validate one parsed NDJSON value as a generic event.
 * `now` is the timestamp used when the event carries none. An `{"MonitorConsumed":...}` enum value
 * normalises to `event: null` (accepted, nothing to write).
 */
export function normalizeEvent(value: unknown, now: string): Normalized {
  const warnings: string[] = [];
  try {
    if (value === 'MonitorConsumed') return { ok: true, event: null };
    if (!isObject(value)) return { ok: false, error: `expected a JSON object, got ${describe(value)}` };
    if (value.type === undefined) {
      const keys = Object.keys(value);
      const name = keys.length === 1 ? keys[0]! : undefined;
      if (name !== undefined && Object.hasOwn(ENUM_NAMES, name)) {
        const type = ENUM_NAMES[name];
        if (type === null || type === undefined) return { ok: true, event: null };
        const inner = value[name];
        if (!isObject(inner)) return { ok: false, error: `"${name}" must hold an object` };
        return accepted(withAgentId(build(type, inner, now, warnings), inner), warnings);
      }
      return { ok: false, error: 'missing "type"' };
    }
    if (typeof value.type !== 'string') return { ok: false, error: `"type" must be a string, got ${describe(value.type)}` };
    return accepted(withAgentId(build(value.type, value, now, warnings), value), warnings);
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: error.message };
    throw error;
  }
}

function accepted(event: GenericEvent, warnings: string[]): Normalized {
  return warnings.length > 0 ? { ok: true, event, warnings } : { ok: true, event };
}
