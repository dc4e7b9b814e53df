// Gemini CLI chats as generic events: input format `gemini-chat`, the JSON Lines file of 0.61.0 (metadata,
// messages, `$set`, `$rewindTo`; a repeated id replaces the earlier message in place) and the legacy `.json`
// chat (one object holding every message, pretty-printed as older CLIs wrote it: read whole, see
// lib/input/pretty-document.ts). What the history is only shows at the end of the file (a rewind or a history
// rewrite drops messages), so messages are held and come out of `end()`, as the CLI itself loads a chat whole.
import type { ContentPart, GenericEvent, ImageInput, Usage } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { isObject } from '../../util/is-object.js';
import { imageOfPart as imageOf, partsOf, responseText, textOfParts } from '../../gemini-content/parts.js';
import { fromGeminiTokens } from '../../gemini-content/tokens.js';

export const INPUT_FORMAT = 'gemini-chat';

type Json = Record<string, unknown>;
type Warn = (message: string) => void;

/** Message types the CLI shows but never sends: UI notes. */
const UI_NOTES = new Set(['info', 'error', 'warning']);
/** User text the CLI itself puts first in a history: context, not a turn. */
const CONTEXT_TEXT = /^\s*<(session_context|hook_context)>/;

function isMetadata(value: unknown): value is Json {
  return isObject(value) && typeof value.sessionId === 'string' && typeof value.projectHash === 'string';
}

/**
 * The parts of a stored result that belong to call `id`. A chat the CLI rewrote on a resume in a later minute
 * puts every response of the turn into each call's `result`: a function response and the parts after it (an
 * image a tool returned) are kept only when the response names this call. A result naming no call is whole.
 */
function ownParts(parts: Json[], id: string): Json[] {
  const named = parts.some((p) => isObject(p.functionResponse) && p.functionResponse.id === id);
  if (!named) return parts;
  let mine = false;
  return parts.filter((p) => {
    if (isObject(p.functionResponse)) mine = p.functionResponse.id === id;
    return mine;
  });
}

/** A stored tool result of call `id` (parts, one part or a string) as tool_result content and its error flag. */
function resultContent(result: unknown, id: string): { content: string | ContentPart[]; error: boolean } {
  if (typeof result === 'string') return { content: result, error: false };
  let error = false;
  const out: ContentPart[] = [];
  for (const part of ownParts(partsOf(result), id)) {
    if (isObject(part.functionResponse)) {
      const r = responseText(part.functionResponse.response);
      error ||= r.error;
      if (r.text !== '') out.push({ type: 'text', text: r.text });
      continue;
    }
    const image = imageOf(part);
    if (image) out.push({ type: 'image', ...image });
    else if (typeof part.text === 'string') out.push({ type: 'text', text: part.text });
  }
  if (out.every((p) => p.type === 'text')) return { content: out.map((p) => (p as { text: string }).text).join('\n'), error };
  return { content: out, error };
}

/** A thought as the CLI sends it: `**subject** description`. */
function thoughtText(thought: Json): string {
  const description = typeof thought.description === 'string' ? thought.description : '';
  return typeof thought.subject === 'string' && thought.subject !== '' ? `**${thought.subject}** ${description}` : description;
}

/** The first workspace directory a `<session_context>` names: the project the chat belongs to. */
function workspaceOf(text: string): string | undefined {
  const match = /\*\*Workspace Directories:\*\*\n\s*- (\/[^\n]*)/.exec(text);
  return match?.[1];
}

class GeminiChatAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private readonly messages = new Map<string, Json>();
  private metadata: Json = {};
  private cwd: string | undefined;

  map(value: unknown): GenericEvent[] {
    if (!isObject(value)) throw new InputError('expected a JSON object (a Gemini chat line)');
    if (typeof value.$rewindTo === 'string') {
      this.rewind(value.$rewindTo);
    } else if (typeof value.id === 'string') {
      this.messages.set(value.id, value);
    } else if (isObject(value.$set)) {
      if (Array.isArray(value.$set.messages)) this.replace(value.$set.messages);
      const { messages: _messages, ...rest } = value.$set;
      this.metadata = { ...this.metadata, ...rest };
    } else if (isMetadata(value)) {
      const { messages, ...rest } = value;
      this.metadata = { ...this.metadata, ...rest };
      // A legacy chat: one object holding every message.
      if (Array.isArray(messages)) for (const m of messages) if (isObject(m) && typeof m.id === 'string') this.messages.set(m.id, m);
    } else {
      throw new InputError('not a Gemini chat line (no metadata, message id, $set or $rewindTo)');
    }
    const dirs = this.metadata.directories;
    if (this.cwd === undefined && Array.isArray(dirs) && typeof dirs[0] === 'string' && dirs[0].startsWith('/')) this.cwd = dirs[0];
    return [];
  }

  /** `$rewindTo`: that message and every later one go; an unknown id clears all, as in the CLI. */
  private rewind(id: string): void {
    if (!this.messages.has(id)) {
      this.messages.clear();
      return;
    }
    let found = false;
    for (const key of [...this.messages.keys()]) {
      if (key === id) found = true;
      if (found) this.messages.delete(key);
    }
  }

  private replace(messages: unknown[]): void {
    this.messages.clear();
    for (const m of messages) if (isObject(m) && typeof m.id === 'string') this.messages.set(m.id, m);
  }

  end(now: string, warn: Warn): GenericEvent[] {
    const out: GenericEvent[] = [];
    const answered = new Set<string>();
    for (const message of this.messages.values()) {
      let timestamp: string;
      try {
        timestamp = resolveTimestamp(message.timestamp, now);
      } catch {
        timestamp = now;
      }
      if (message.type === 'user') this.user(message, timestamp, answered, out);
      else if (message.type === 'gemini') this.model(message, timestamp, answered, out);
      else if (typeof message.type === 'string' && UI_NOTES.has(message.type)) {
        out.push({ type: 'context', kind: 'ui', subtype: message.type, text: textOfParts(partsOf(message.content)), timestamp });
      } else warn(`message ${JSON.stringify(message.id)} of unknown type ${JSON.stringify(message.type)} skipped`);
    }
    this.messages.clear();
    return out;
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  private user(message: Json, timestamp: string, answered: Set<string>, out: GenericEvent[]): void {
    const parts = partsOf(message.content);
    const text = textOfParts(parts);
    if (CONTEXT_TEXT.test(text)) {
      this.cwd ??= workspaceOf(text);
      out.push({ type: 'context', kind: 'system', subtype: 'session_context', text, timestamp });
      return;
    }
    for (const part of parts) {
      const response = part.functionResponse;
      if (!isObject(response) || typeof response.id !== 'string' || answered.has(response.id)) continue;
      // A response written as its own user message (the CLI's other form): the call's result.
      answered.add(response.id);
      const r = responseText(response.response);
      out.push({ type: 'tool_result', id: response.id, content: r.text, is_error: r.error, timestamp });
    }
    const images = parts.map(imageOf).filter((i): i is ImageInput => i !== undefined);
    if (text.trim() === '' && images.length === 0) return;
    out.push({ type: 'user', text, ...(images.length > 0 ? { images } : {}), timestamp });
  }

  private model(message: Json, timestamp: string, answered: Set<string>, out: GenericEvent[]): void {
    const model = typeof message.model === 'string' && message.model !== '' ? message.model : undefined;
    const usage: Usage | undefined = fromGeminiTokens(message.tokens);
    const parts = partsOf(message.content);
    // A rewritten chat keeps `thoughts` beside the same thoughts as content parts: each is one thought.
    const thoughts = new Set<string>();
    if (Array.isArray(message.thoughts)) for (const thought of message.thoughts.filter(isObject)) thoughts.add(thoughtText(thought));
    for (const part of parts) if (part.thought === true && typeof part.text === 'string') thoughts.add(part.text);
    for (const text of thoughts) out.push({ type: 'thinking', text, ...(model ? { model } : {}), timestamp });
    const text = textOfParts(parts);
    let usageLeft = usage;
    if (text.trim() !== '') {
      out.push({ type: 'assistant', text, ...(model ? { model } : {}), ...(usageLeft ? { usage: usageLeft } : {}), timestamp });
      usageLeft = undefined;
    }
    // One call per id: a rewritten chat names each call twice, as a content part and in `toolCalls` (which
    // holds its result and status, so it wins), in the same order.
    const calls = new Map<string, { id: string; name: string; args: Json; result?: unknown; status?: unknown; timestamp: string }>();
    for (const part of parts) {
      const call = part.functionCall;
      if (isObject(call) && typeof call.name === 'string') {
        const id = typeof call.id === 'string' ? call.id : `${message.id as string}_${calls.size}`;
        if (!calls.has(id)) calls.set(id, { id, name: call.name, args: isObject(call.args) ? call.args : {}, timestamp });
      }
    }
    for (const call of Array.isArray(message.toolCalls) ? message.toolCalls.filter(isObject) : []) {
      if (typeof call.id !== 'string' || typeof call.name !== 'string') continue;
      let at = timestamp;
      try { at = resolveTimestamp(call.timestamp, timestamp); } catch { /* the message's time */ }
      calls.set(call.id, { id: call.id, name: call.name, args: isObject(call.args) ? call.args : {}, result: call.result, status: call.status, timestamp: at });
    }
    for (const call of calls.values()) {
      out.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.args, ...(model ? { model } : {}), ...(usageLeft ? { usage: usageLeft } : {}), timestamp });
      usageLeft = undefined;
    }
    for (const call of calls.values()) {
      if (call.result === undefined || call.result === null || answered.has(call.id)) continue;
      answered.add(call.id);
      const { content, error } = resultContent(call.result, call.id);
      out.push({ type: 'tool_result', id: call.id, content, is_error: error || call.status === 'error' || call.status === 'cancelled', timestamp: call.timestamp });
    }
  }
}

export const geminiChat: InputFormat = {
  name: INPUT_FORMAT,
  detect: isMetadata,
  create: () => new GeminiChatAdapter(),
  recordKinds: chatRecordKinds,
};

/**
 * The kinds of a chat's records (`read --inspect`): a message's `type`, an update's `$` key (`$set`,
 * `$rewindTo`), the header `session`; a legacy chat document is its header and each of its messages.
 */
function chatRecordKinds(value: unknown): string[] {
  if (!isObject(value)) return [];
  if (typeof value.type === 'string') return [value.type];
  const update = Object.keys(value).find((key) => key.startsWith('$'));
  if (update !== undefined) return [update];
  const messages = Array.isArray(value.messages) ? value.messages : [];
  return ['session', ...messages.flatMap((m: unknown) => (isObject(m) && typeof m.type === 'string' ? [m.type] : []))];
}
