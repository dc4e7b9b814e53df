// Sessions of OpenCode's layout as generic events: the document `<program> export <id>` prints (`{info,
// messages}`, on one line or pretty-printed), and the writer's journal (that document's header, then one message
// per line, a later copy of a message replacing the earlier: only what is new in a copy comes out, so a tool part
// seen running and later completed gives its call, then its result). Each flavour names its own input format
// (`opencode-export`, `kilo-export`) and which documents are its.
import type { ContentPart, GenericEvent, ImageInput, ToolResultEvent, Usage } from '../events.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../input/types.js';
import { isObject } from '../util/is-object.js';
import { RecentMap } from '../util/recent.js';

type Json = Record<string, unknown>;
type Warn = (message: string) => void;

/** How many messages' seen parts are remembered: memory stays flat however long the journal. */
const MAX_MESSAGES = 10_000;

function isSessionInfo(value: unknown): value is Json {
  return isObject(value) && typeof value.id === 'string' && value.id.startsWith('ses_');
}

/** Whether `value` is an export document (or a journal's first line): `{info: {id: "ses_..."}, messages: [...]}`. */
export function isExportDocument(value: unknown): value is { info: Json; messages: unknown[] } {
  return isObject(value) && isSessionInfo(value.info) && Array.isArray(value.messages);
}

function isMessage(value: unknown): value is { info: Json; parts: unknown[] } {
  return isObject(value) && isObject(value.info) && typeof value.info.id === 'string' && Array.isArray(value.parts);
}

/** A time in milliseconds since the epoch (as OpenCode's layout keeps times) as RFC 3339, else `fallback`. */
export function iso(ms: unknown, fallback: string): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** A message's `tokens` in the Messages API's terms (output with reasoning, input without cache), or undefined. */
export function fromOpencodeTokens(tokens: unknown): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const usage: Usage = { input_tokens: count(tokens.input), output_tokens: count(tokens.output) + count(tokens.reasoning) };
  if (count(cache.read) > 0) usage.cache_read_input_tokens = count(cache.read);
  if (count(cache.write) > 0) usage.cache_creation_input_tokens = count(cache.write);
  return usage.input_tokens === 0 && usage.output_tokens === 0 && usage.cache_read_input_tokens === undefined ? undefined : usage;
}

/** An image file part (`data:` URL) as an image, or undefined. */
function imageOf(part: Json): ImageInput | undefined {
  if (typeof part.url !== 'string' || typeof part.mime !== 'string' || !part.mime.startsWith('image/')) return undefined;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  return match ? { media_type: match[1]!, data: match[2]! } : undefined;
}

/** A finished tool part's state (`completed` or `error`) as the result of call `id`: its output or error, and any images attached. */
export function toolResult(id: string, state: Json, timestamp: string): ToolResultEvent {
  const text = state.status === 'error'
    ? (typeof state.error === 'string' ? state.error : JSON.stringify(state.error ?? ''))
    : (typeof state.output === 'string' ? state.output : JSON.stringify(state.output ?? ''));
  const images = (Array.isArray(state.attachments) ? state.attachments : []).filter(isObject).map(imageOf)
    .filter((i): i is ImageInput => i !== undefined);
  const content: string | ContentPart[] = images.length === 0 ? text : [{ type: 'text', text }, ...images.map((i) => ({ type: 'image' as const, ...i }))];
  return { type: 'tool_result', id, content, is_error: state.status === 'error', timestamp };
}

interface Seen {
  parts: Set<string>;
  /** Tool parts whose result has come out. */
  done: Set<string>;
}

class OpencodeExportAdapter implements InputAdapter {
  private cwd: string | undefined;
  private readonly seen = new RecentMap<string, Seen>(MAX_MESSAGES);

  constructor(readonly format: string, private readonly name: string) {}

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (isExportDocument(value)) {
      if (typeof value.info.directory === 'string') this.cwd ??= value.info.directory;
      return (value.messages as unknown[]).flatMap((message) => (isMessage(message) ? this.message(message, now, warn) : []));
    }
    if (isMessage(value)) return this.message(value, now, warn);
    throw new InputError(`not an export document or message of ${this.name}`);
  }

  end(): GenericEvent[] {
    return [];
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  private seenOf(id: string): Seen {
    let seen = this.seen.get(id);
    if (!seen) {
      seen = { parts: new Set(), done: new Set() };
      this.seen.set(id, seen);
    }
    return seen;
  }

  private message(message: { info: Json; parts: unknown[] }, now: string, warn: Warn): GenericEvent[] {
    const info = message.info;
    const seen = this.seenOf(info.id as string);
    const time = iso(isObject(info.time) ? info.time.created : undefined, now);
    const parts = message.parts.filter(isObject).filter((p) => typeof p.id === 'string');
    const fresh = parts.filter((p) => !seen.parts.has(p.id as string));
    for (const part of fresh) seen.parts.add(part.id as string);
    if (info.role === 'user') return this.user(fresh, time, warn);
    if (info.role !== 'assistant') return [];
    return this.assistant(info, parts, fresh, seen, time);
  }

  private user(parts: Json[], timestamp: string, warn: Warn): GenericEvent[] {
    const texts: string[] = [];
    const images: ImageInput[] = [];
    for (const part of parts) {
      if (part.type === 'text' && typeof part.text === 'string' && part.ignored !== true) texts.push(part.text);
      else if (part.type === 'file') {
        const image = imageOf(part);
        if (image) images.push(image);
        else texts.push(`[file: ${typeof part.filename === 'string' ? part.filename : typeof part.url === 'string' ? part.url : 'attachment'}]`);
      } else if (part.type !== 'text' && part.type !== 'compaction' && part.type !== 'step-start' && part.type !== 'step-finish') {
        warn(`user part of type ${JSON.stringify(part.type)} is not read`);
      }
    }
    if (texts.length === 0 && images.length === 0) return [];
    return [{ type: 'user', text: texts.join('\n'), timestamp, ...(images.length > 0 ? { images } : {}) }];
  }

  private assistant(info: Json, parts: Json[], fresh: Json[], seen: Seen, timestamp: string): GenericEvent[] {
    const model = typeof info.modelID === 'string' ? info.modelID : undefined;
    const base = { timestamp, ...(model !== undefined ? { model } : {}) };
    let usage = seen.parts.size === fresh.length ? fromOpencodeTokens(info.tokens) : undefined;
    const events: GenericEvent[] = [];
    const results: GenericEvent[] = [];
    const freshIds = new Set(fresh.map((p) => p.id as string));
    for (const part of parts) {
      const id = part.id as string;
      const isFresh = freshIds.has(id);
      const at = isObject(part.time) ? iso(part.time.start, timestamp) : timestamp;
      if (isFresh && part.type === 'reasoning' && typeof part.text === 'string' && part.text !== '') {
        events.push({ type: 'thinking', text: part.text, timestamp: at, ...(model !== undefined ? { model } : {}) });
      } else if (isFresh && part.type === 'text' && typeof part.text === 'string' && part.ignored !== true) {
        events.push({ type: 'assistant', text: part.text, ...base, timestamp: at, ...(usage ? { usage } : {}) });
        usage = undefined;
      } else if (part.type === 'tool' && typeof part.callID === 'string' && typeof part.tool === 'string') {
        const state = isObject(part.state) ? part.state : {};
        if (isFresh) {
          const args = isObject(state.input) ? state.input : {};
          // A tool part's time is its state's: when the call started.
          const started = isObject(state.time) ? iso(state.time.start, at) : at;
          events.push({ type: 'tool_call', id: part.callID, name: part.tool, arguments: args, ...base, timestamp: started, ...(usage ? { usage } : {}) });
          usage = undefined;
        }
        if (seen.done.has(id) || (state.status !== 'completed' && state.status !== 'error')) continue;
        seen.done.add(id);
        const end = isObject(state.time) ? iso(state.time.end, timestamp) : timestamp;
        results.push(toolResult(part.callID, state, end));
      }
    }
    return [...events, ...results];
  }
}

/**
 * The export input format `name` of the CLI called `cliName`: documents (and journal lines) `owns` says are its
 * (a document's first line decides; later lines are messages).
 */
export function exportFormat(name: string, cliName: string, owns: (info: Record<string, unknown>) => boolean): InputFormat {
  return {
    name,
    detect: (value) => isExportDocument(value) && owns(value.info),
    create: () => new OpencodeExportAdapter(name, cliName),
    recordKinds: exportRecordKinds,
  };
}

/**
 * The kinds of the store's rows an export line holds (`read --inspect`): `session` for a document (and each
 * message in it), `message.<role>` per message and `part.<type>` per part, as the database keeps them.
 */
function exportRecordKinds(value: unknown): string[] {
  const message = (m: unknown): string[] => {
    if (!isMessage(m)) return [];
    const role = typeof m.info.role === 'string' ? m.info.role : '?';
    return [`message.${role}`, ...m.parts.map((p) => `part.${isObject(p) && typeof p.type === 'string' ? p.type : '?'}`)];
  };
  if (isExportDocument(value)) return ['session', ...value.messages.flatMap(message)];
  return message(value);
}

/** The major version a document's `info.version` names (`"7.7.7"` -> 7), or undefined. */
export function majorVersion(info: Record<string, unknown>): number | undefined {
  const match = typeof info.version === 'string' ? /^(\d+)\./.exec(info.version) : null;
  return match ? Number(match[1]) : undefined;
}
