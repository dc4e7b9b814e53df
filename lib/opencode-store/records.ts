// Pure mapping from generic events to the messages of OpenCode's layout (OpenCode 1.18.33, Kilo 7.7.7) as its
// export document holds them: a user
// message per turn, an assistant message per model step (`parentID` the user message it answers) with its
// reasoning, text and tool parts. A tool part is `running` until its result comes (OpenCode sends that as an
// interrupted call), then `completed` or `error`: the message is queued again, whole, with the new state.
import type {
  AssistantEvent, CompactionEvent, ContentPart, GenericEvent, ImageInput, ThinkingEvent,
  ToolCallEvent, ToolResultEvent, Usage, UserEvent,
} from '../events.js';
// The notification text every agent shares lives with Claude Code's records (agent-neutral in substance).
import { NotifyingMapper } from '../monitor/notifying-mapper.js';
import { writableCall } from '../session/event-mapper.js';
import { FidelityAccount } from '../session/fidelity.js';
import { isObject } from '../util/is-object.js';
import { RecentMap } from '../util/recent.js';
import type { Flavour } from './flavour.js';
import type { IdMinter } from './ids.js';

/** How many tool calls are remembered: memory stays flat however long the stream. */
const MAX_CALLS = 100_000;
/** Longest session title, in code points. */
const TITLE_MAX = 100;

export type Part = Record<string, unknown>;
export type Info = Record<string, unknown>;

/** One message of an export document: its info and its parts (each with its ids). */
export interface MessageEntry {
  info: Info;
  parts: Part[];
}

/** `provider/model` split as OpenCode names a model. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

export interface OpencodeMapperOptions {
  /** The CLI written for: its format (the `native.format` of calls written as their agent recorded them), name and agent. */
  flavour: Pick<Flavour, 'format' | 'name' | 'agent'>;
  sessionId: string;
  /** The session's directory, and its project's worktree (an assistant message's `path`). */
  directory: string;
  worktree: string;
  /** The model user messages name: what `<program> run` uses without `-m`. */
  userModel: ModelRef;
  /** Model for assistant messages whose event names none. */
  model?: string;
  ids: IdMinter;
}

/** `provider/model` as a reference; a bare name gets provider `provider` (default: the user model's). */
export function modelRef(name: string, provider: string): ModelRef {
  const slash = name.indexOf('/');
  return slash > 0 && slash < name.length - 1
    ? { providerID: name.slice(0, slash), modelID: name.slice(slash + 1) }
    : { providerID: provider, modelID: name };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * `usage` as OpenCode's tokens (`input` without cache, `output` without reasoning): Messages API counts
 * (`cache_read_input_tokens`, ...) and OpenAI's (cached and reasoning inside) are understood.
 */
export function toOpencodeTokens(usage: Usage | undefined): Record<string, unknown> {
  const tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  if (usage === undefined) return tokens;
  const inputDetails = isObject(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const outputDetails = isObject(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  const cachedInside = count(usage.cached_input_tokens ?? inputDetails?.cached_tokens);
  tokens.reasoning = count(usage.reasoning_output_tokens ?? outputDetails?.reasoning_tokens);
  tokens.input = Math.max(0, count(usage.input_tokens) - cachedInside);
  tokens.output = Math.max(0, count(usage.output_tokens) - tokens.reasoning);
  tokens.cache.read = cachedInside + count(usage.cache_read_input_tokens);
  tokens.cache.write = count(usage.cache_creation_input_tokens);
  return tokens;
}

function ms(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isFinite(t) ? t : Date.now();
}

function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}

function imagesOf(content: string | ContentPart[]): ImageInput[] {
  return typeof content === 'string' ? [] : content.filter((p): p is { type: 'image' } & ImageInput => p.type === 'image');
}

/** The session title the CLI would show: the first line of the first user text, cut to 100 code points. */
export function titleOf(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ');
  const chars = [...line];
  return chars.length <= TITLE_MAX ? line : `${chars.slice(0, TITLE_MAX - 1).join('')}\u2026`;
}

type Once = 'subagent' | 'compaction' | 'result_images' | 'reasoning';

/** The one-time warnings, naming the CLI. */
function onceText(what: Once, name: string): string {
  switch (what) {
    case 'subagent': return 'events with "agent_id" belong to a subagent session and are not written to this session; further ones are dropped silently';
    case 'compaction': return `a compaction is written as a user message holding its summary; ${name} still sends the history before it (further ones silently)`;
    case 'result_images': return `images in tool results are not kept by ${name} sessions written here; the text is (further ones silently)`;
    case 'reasoning': return `reasoning of a model other than the one the session resumes with is left out: ${name} would send it as text the assistant said (further ones silently)`;
  }
}

export class OpencodeMapper extends NotifyingMapper<string[]> {
  private queue: MessageEntry[] = [];
  private readonly queued = new Set<MessageEntry>();
  /** The user message assistant steps answer. */
  private parent: MessageEntry | undefined;
  /** The assistant step later reasoning, text and tool calls of the same response join. */
  private open: MessageEntry | undefined;
  /** Tool call id -> its part and the message holding it. */
  private readonly calls = new RecentMap<string, { message: MessageEntry; part: Part }>(MAX_CALLS);
  private readonly said = new Set<Once>();
  /** Messages' `time.created` strictly increases: the CLI sends history in that order. */
  private lastCreated = 0;
  title: string | undefined;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity: FidelityAccount;
  private readonly name: string;

  constructor(private readonly options: OpencodeMapperOptions) {
    super();
    this.fidelity = new FidelityAccount(options.flavour.format);
    this.name = options.flavour.name;
  }

  protected subagent(): string[] {
    return this.once('subagent');
  }

  protected nothing(): string[] {
    return [];
  }

  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** The touched messages, each in its latest state (a copy), in the order they were first touched. */
  drain(): MessageEntry[] {
    const entries = this.queue.map((entry) => ({ info: { ...entry.info }, parts: entry.parts.map((part) => ({ ...part })) }));
    this.queue = [];
    this.queued.clear();
    return entries;
  }

  private once(what: Once): string[] {
    if (this.said.has(what)) return [];
    this.said.add(what);
    return [onceText(what, this.name)];
  }

  private touch(entry: MessageEntry): void {
    if (this.queued.has(entry)) return;
    this.queued.add(entry);
    this.queue.push(entry);
  }

  private created(timestamp: string): number {
    this.lastCreated = Math.max(ms(timestamp), this.lastCreated + 1);
    return this.lastCreated;
  }

  private part(message: MessageEntry, fields: Part): Part {
    const part = { id: this.options.ids.next('prt'), sessionID: this.options.sessionId, messageID: message.info.id, ...fields };
    message.parts.push(part);
    this.touch(message);
    return part;
  }

  private userMessage(timestamp: string): MessageEntry {
    this.open = undefined;
    const entry: MessageEntry = {
      info: { id: this.options.ids.next('msg'), sessionID: this.options.sessionId, role: 'user',
        time: { created: this.created(timestamp) }, agent: this.options.flavour.agent, model: { ...this.options.userModel } },
      parts: [],
    };
    this.parent = entry;
    this.touch(entry);
    return entry;
  }

  /** The open step, or a new one answering the last user message (one is made when there is none yet). */
  private step(timestamp: string, model: string | undefined): MessageEntry {
    if (this.open) return this.open;
    const parent = this.parent ?? this.userMessage(timestamp);
    if (parent.parts.length === 0) this.part(parent, { type: 'text', text: '(the conversation was recorded from here)', synthetic: true });
    const ref = modelRef(model ?? this.options.model ?? this.options.userModel.modelID, this.options.userModel.providerID);
    const created = this.created(timestamp);
    const entry: MessageEntry = {
      info: { id: this.options.ids.next('msg'), sessionID: this.options.sessionId, role: 'assistant', parentID: parent.info.id,
        modelID: ref.modelID, providerID: ref.providerID, mode: this.options.flavour.agent, agent: this.options.flavour.agent,
        path: { cwd: this.options.directory, root: this.options.worktree }, cost: 0, tokens: toOpencodeTokens(undefined),
        time: { created, completed: created }, finish: 'stop' },
      parts: [],
    };
    this.open = entry;
    this.touch(entry);
    return entry;
  }

  private advance(entry: MessageEntry, timestamp: string): void {
    const time = entry.info.time as { created: number; completed: number };
    time.completed = Math.max(time.completed, ms(timestamp));
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) return [`user event with empty text not written (${this.name} does not resume empty turns)`];
    const entry = this.userMessage(event.timestamp);
    if (event.text !== '') this.part(entry, { type: 'text', text: event.text });
    images.forEach((image, i) => {
      this.part(entry, { type: 'file', mime: image.media_type, filename: `image-${i + 1}`, url: `data:${image.media_type};base64,${image.data}` });
    });
    if (this.title === undefined && event.text.trim() !== '') this.title = titleOf(event.text);
    return [];
  }

  protected thinking(event: ThinkingEvent): string[] {
    // The CLI sends a message's reasoning as reasoning only to the model that wrote it (by provider and
    // model id); to any other it becomes a text part, glued to the reply: private reasoning shown as said.
    const ref = modelRef(event.model ?? this.options.model ?? this.options.userModel.modelID, this.options.userModel.providerID);
    if (ref.providerID !== this.options.userModel.providerID || ref.modelID !== this.options.userModel.modelID) {
      this.fidelity.drop('reasoning', `another model's: ${this.name} would send it as text the assistant said`);
      return this.once('reasoning');
    }
    const entry = this.step(event.timestamp, event.model);
    const at = ms(event.timestamp);
    this.part(entry, { type: 'reasoning', text: event.text, time: { start: at, end: at } });
    this.advance(entry, event.timestamp);
    return [];
  }

  protected assistant(event: AssistantEvent): string[] {
    const entry = this.step(event.timestamp, event.model);
    const at = ms(event.timestamp);
    this.part(entry, { type: 'text', text: event.text, time: { start: at, end: at } });
    if (event.usage !== undefined) entry.info.tokens = toOpencodeTokens(event.usage);
    this.advance(entry, event.timestamp);
    return [];
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a session of this CLI is written as it recorded it.
    const call = writableCall(event, this.options.flavour.format);
    const entry = this.step(event.timestamp, event.model);
    const at = ms(event.timestamp);
    const part = this.part(entry, { type: 'tool', tool: call.name, callID: event.id,
      state: { status: 'running', input: call.arguments, title: call.name, time: { start: at } } });
    entry.info.finish = 'tool-calls';
    if (event.usage !== undefined) entry.info.tokens = toOpencodeTokens(event.usage);
    this.advance(entry, event.timestamp);
    this.calls.set(event.id, { message: entry, part });
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    // Model output after a result is the next step.
    this.open = undefined;
    const text = textOf(event.content);
    const images = imagesOf(event.content).length;
    this.fidelity.drop('image', `${this.name} results written here keep only text`, images);
    const warnings = images > 0 ? this.once('result_images') : [];
    const call = this.calls.get(event.id);
    if (!call) {
      const entry = this.userMessage(event.timestamp);
      this.part(entry, { type: 'text', text: `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]\n${text}` });
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      return [...warnings, `tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    this.calls.delete(event.id);
    // Kept as the part's error status, but the request the CLI sends marks no result as failed.
    if (event.is_error) this.fidelity.drop('error_flag', `${this.name} sends results without an error flag`);
    const before = call.part.state as { input: unknown; time: { start: number } };
    const time = { start: before.time.start, end: Math.max(before.time.start, ms(event.timestamp)) };
    call.part.state = event.is_error
      ? { status: 'error', input: before.input, error: text, time }
      : { status: 'completed', input: before.input, output: text, title: call.part.tool, metadata: {}, time };
    this.touch(call.message);
    return warnings;
  }

  /** A monitor notification as a user message holding what Claude Code sends for the same event. */
  protected notify(text: string, timestamp: string): string[] {
    this.part(this.userMessage(timestamp), { type: 'text', text: text });
    return [];
  }



  protected compaction(event: CompactionEvent): string[] {
    if (event.summary.trim() === '') {
      this.fidelity.drop('compaction', 'no summary to write');
      return [];
    }
    this.part(this.userMessage(event.timestamp), { type: 'text', text: event.summary });
    this.fidelity.change('compaction', 'a user message with the summary: the history before it is still sent');
    return this.once('compaction');
  }
}
