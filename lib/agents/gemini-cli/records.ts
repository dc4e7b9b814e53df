// Pure mapping from generic events to Gemini CLI 0.61.0 chat lines: the metadata line, `user` and `gemini`
// messages, and `$set` updates. A model message gathers its thoughts, text and tool calls; a tool call carries
// its result, so a message is written again (same `id`, which replaces it in place) when a result comes.
// Until then each call is written as cancelled, so a file cut short never holds a call without a response.
import { randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, GenericEvent, ThinkingEvent, ToolCallEvent,
  ToolResultEvent, UserEvent,
} from '../../events.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import { RecentMap, RecentSet } from '../../util/recent.js';
import { contentImages as imagesOf, contentText as textOf, functionResponsePart, inlineDataPart as inlineData, type Part } from '../../gemini-content/parts.js';
import { toGeminiTokens, type GeminiTokens } from '../../gemini-content/tokens.js';

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'gemini-cli';

/** How many tool calls are remembered: memory stays flat however long the stream. */
const MAX_IDS = 100_000;
/** Longest `summary` (the session's title in `gemini --list-sessions`), in code points. */
const SUMMARY_MAX = 80;

/** The error a call gets while (or when) its result never came: the CLI's own wording for a cancelled call. */
export const CANCELLED_ERROR = '[Operation Cancelled] Reason: no result was recorded for this tool call';

export type { Part };

export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: Part[];
  status: 'success' | 'error' | 'cancelled';
  timestamp: string;
}

export interface ChatMessage {
  id: string;
  timestamp: string;
  type: 'user' | 'gemini';
  content: string | Part[];
  model?: string;
  thoughts?: { subject: string; description: string; timestamp: string }[];
  tokens?: GeminiTokens;
  toolCalls?: ToolCallRecord[];
}

/** One line of a chat file. */
export type ChatLine = Record<string, unknown>;

export interface GeminiMapperOptions {
  sessionId: string;
  projectHash: string;
  /** When the session started (ISO): `startTime`, and the first `lastUpdated`. */
  startedAt: string;
  /** Model for model messages whose event names none. */
  model?: string;
  /** Extra metadata fields that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** Injected for tests; default crypto.randomUUID. */
  newId?: () => string;
}

/** User text the CLI leaves out on resume (commands, its own context blocks), as its `isIgnoredUserContent`. */
export function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return t === '' || t.startsWith('/') || t.startsWith('?') || t.startsWith('<session_context>') || t.startsWith('<hook_context>');
}

/** A thought as the CLI keeps it: a leading `**Subject**` line is its subject, the rest its description. */
function thought(event: ThinkingEvent): { subject: string; description: string; timestamp: string } {
  const match = /^\*\*([^*\n]+)\*\*\s*/.exec(event.text);
  return match
    ? { subject: match[1]!, description: event.text.slice(match[0].length), timestamp: event.timestamp }
    : { subject: '', description: event.text, timestamp: event.timestamp };
}

/** The title the CLI shows for the session: the first line of the first user text, cut to 80 code points. */
export function summaryOf(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ');
  const chars = [...line];
  return chars.length <= SUMMARY_MAX ? line : `${chars.slice(0, SUMMARY_MAX - 1).join('')}\u2026`;
}

type Once = 'subagent' | 'ignored_user';

const ONCE_TEXT: Record<Once, string> = {
  subagent: 'events with "agent_id" belong to a subagent session and are not written to this chat; further ones are dropped silently',
  ignored_user: 'user text starting with "/", "?", "<session_context>" or "<hook_context>" is kept in the chat but gemini --resume does not send it to the model (further ones silently)',
};

export class GeminiRecordMapper extends NotifyingMapper<string[]> {
  /** Lines to write, in order: a message is serialised when drained, so it carries its latest state. */
  private queue: (ChatMessage | ChatLine)[] = [];
  private readonly queued = new Set<ChatMessage>();
  /** The model message later thoughts, text and tool calls of the same response join. */
  private open: ChatMessage | undefined;
  /** Tool call id -> the message holding it, until its result (which rewrites that message) comes. */
  private readonly calls = new RecentMap<string, ChatMessage>(MAX_IDS);
  /** Our model messages the CLI copied the responses of (see `shadow`). */
  private readonly shadowed = new RecentSet<string>(MAX_IDS);
  private readonly said = new Set<Once>();
  private summarised = false;
  private readonly newId: () => string;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: GeminiMapperOptions) {
    super();
    this.newId = options.newId ?? randomUUID;
  }

  /** The first line: `sessionId` and `projectHash` make it a chat; `lastUpdated` is now, whatever the messages' age. */
  metadata(): ChatLine {
    const { sessionId, projectHash, startedAt, provenance } = this.options;
    return { sessionId, projectHash, startTime: startedAt, lastUpdated: startedAt, kind: 'main', ...(provenance ?? {}) };
  }

  protected subagent(): string[] {
    return this.once('subagent');
  }

  protected nothing(): string[] {
    return [];
  }

  /** Whether lines wait to be drained. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** The queued lines, each message in its latest state, in the order they were first queued. */
  drain(): ChatLine[] {
    const lines: ChatLine[] = [];
    for (const entry of this.queue) {
      if (!this.queued.has(entry as ChatMessage)) {
        lines.push(entry as ChatLine);
        continue;
      }
      const message = entry as ChatMessage;
      lines.push({ ...message });
      // The CLI's copy of this message's responses would contradict the rewrite: emptied, it is not sent.
      if (this.shadowed.has(message.id)) lines.push({ id: `${message.id}_response`, timestamp: message.timestamp, type: 'user', content: [] });
    }
    this.queue = [];
    this.queued.clear();
    return lines;
  }

  /**
   * A resuming CLI rewrote the history (`$set.messages`) with a `<id>_response` user message beside each model
   * message with tool calls, a copy of their results as they were then. Messages `ids` have such a copy: when
   * one of them is written again (a late result), the copy is emptied with it.
   */
  shadow(ids: Iterable<string>): void {
    for (const id of ids) this.shadowed.add(id);
  }

  /** Model output from here on starts a message of its own (another writer's turns came in between). */
  endResponse(): void {
    this.open = undefined;
  }

  /** The closing `$set`: `lastUpdated` is when the session was last written, which keeps it from the 30-day cleanup. */
  closing(now: string): ChatLine {
    return { $set: { lastUpdated: now } };
  }

  private once(what: Once): string[] {
    if (this.said.has(what)) return [];
    this.said.add(what);
    return [ONCE_TEXT[what]];
  }

  private push(message: ChatMessage): ChatMessage {
    this.touch(message);
    return message;
  }

  /** Queue `message` to be (re)written. */
  private touch(message: ChatMessage): void {
    if (this.queued.has(message)) return;
    this.queued.add(message);
    this.queue.push(message);
  }

  private message(type: 'user' | 'gemini', content: string | Part[], timestamp: string): ChatMessage {
    return { id: this.newId(), timestamp, type, content };
  }

  private modelMessage(timestamp: string, model: string | undefined): ChatMessage {
    const message = this.message('gemini', '', timestamp);
    const name = model ?? this.options.model;
    if (name !== undefined) message.model = name;
    this.open = this.push(message);
    return message;
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return ['user event with empty text not written (the CLI does not resume empty turns)'];
    }
    this.open = undefined;
    const content: Part[] = [...(event.text === '' ? [] : [{ text: event.text }]), ...images.map(inlineData)];
    this.push(this.message('user', content, event.timestamp));
    const ignored = isIgnoredUserText(event.text) && event.text.trim() !== '';
    if (ignored) this.fidelity.drop('user_text', 'kept in the chat, but gemini --resume does not send text starting with "/", "?" or a context tag');
    const warnings = ignored ? this.once('ignored_user') : [];
    if (!this.summarised && !isIgnoredUserText(event.text)) {
      this.summarised = true;
      this.queue.push({ $set: { summary: summaryOf(event.text) } });
    }
    return warnings;
  }

  protected thinking(event: ThinkingEvent): string[] {
    const open = this.open;
    const target = open && open.content === '' && open.toolCalls === undefined ? open : this.modelMessage(event.timestamp, event.model);
    (target.thoughts ??= []).push(thought(event));
    // The CLI sends no thought of the history to the model on resume (verified with 0.61.0).
    this.fidelity.drop('reasoning', 'kept in the chat, but gemini --resume does not send thoughts');
    this.touch(target);
    return [];
  }

  protected assistant(event: AssistantEvent): string[] {
    const open = this.open;
    const target = open && open.content === '' && open.toolCalls === undefined ? open : this.modelMessage(event.timestamp, event.model);
    target.content = event.text;
    if (event.model !== undefined) target.model = event.model;
    this.setTokens(target, event.usage);
    this.touch(target);
    return [];
  }

  private setTokens(message: ChatMessage, usage: AssistantEvent['usage']): void {
    const tokens = usage === undefined ? undefined : toGeminiTokens(usage);
    if (tokens !== undefined) message.tokens = tokens;
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a Gemini CLI chat is written as the CLI recorded it.
    const own = writableCall(event, FORMAT);
    const target = this.open ?? this.modelMessage(event.timestamp, event.model);
    const call: ToolCallRecord = {
      id: event.id,
      name: own.name,
      args: own.arguments,
      result: [{ functionResponse: { id: event.id, name: own.name, response: { error: CANCELLED_ERROR } } }],
      status: 'cancelled',
      timestamp: event.timestamp,
    };
    (target.toolCalls ??= []).push(call);
    if (target.tokens === undefined) this.setTokens(target, event.usage);
    this.calls.set(event.id, target);
    this.touch(target);
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    // Model output after a result belongs to the next response.
    this.open = undefined;
    const text = textOf(event.content);
    const images = imagesOf(event.content).map(inlineData);
    const message = this.calls.get(event.id);
    const call = message?.toolCalls?.find((c) => c.id === event.id);
    if (!message || !call) {
      // A response the CLI could pair with no call: kept as user text, so the model still sees it.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      this.push(this.message('user', [{ text: `${header}\n${text}` }, ...images], event.timestamp));
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      return [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    call.result = [functionResponsePart(event.id, call.name, text, event.is_error), ...images];
    call.status = event.is_error ? 'error' : 'success';
    // Answered: the message is let go once no call of it waits, so a long stream does not hold every message
    // with its calls' arguments and results (memory grew with the stream). A second result for it is user text.
    this.calls.delete(event.id);
    this.touch(message);
    return [];
  }

  /**
   * A monitor notification as a user message holding what Claude Code sends for the same event (the "not user
   * input" preamble, then the task-notification XML): the CLI sends it on resume, in place.
   */
  protected notify(text: string, timestamp: string): string[] {
    this.push(this.message('user', [{ text: text }], timestamp));
    return [];
  }



  /**
   * The CLI's own compression record: `$set.messages` replaces the whole history, here with the summary as
   * one user message, which is all the model sees of what came before.
   */
  protected compaction(event: CompactionEvent): string[] {
    this.open = undefined;
    this.calls.clear();
    const messages = event.summary.trim() === '' ? [] : [this.message('user', [{ text: event.summary }], event.timestamp)];
    this.queue.push({ $set: { messages } });
    return [];
  }
}
