// Pure mapping from generic events to GitHub Copilot CLI 1.0.102 session events, the lines of
// `session-state/<uuid>/events.jsonl` that `copilot --resume` loads: `session.start` first, then `user.message`
// (images as inline `blob` attachments), `assistant.message` (text, `toolRequests`, `reasoningText`),
// `tool.execution_complete`, and `session.compaction_complete` for a compaction. Every line is the CLI's strict
// envelope `{type, data, id, timestamp, parentId}` (a UUID id, a zoned ISO time, the parentId key always there);
// the CLI replays the file in order (the chain is not followed), so events appended after another process's
// lines come after them. An assistant message holding calls is held until the response ends (a user turn, a
// result, the end): the CLI sends one chat message per assistant event, and a call must sit in the message its
// results follow. Ids and parents are drawn when events are drained, so a writer can chain them onto what
// another process appended meanwhile.
import { randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ImageInput, ThinkingEvent, ToolCallEvent, ToolResultEvent, UserEvent,
} from '../../events.js';
import { contentImages, contentText } from '../../gemini-content/parts.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import type { QueueingMapper } from '../../session/jsonl-harness.js';
import { RecentMap } from '../../util/recent.js';

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'copilot-cli';
/** The Copilot CLI version the events imitate (and were verified against). */
export const COPILOT_VERSION = '1.0.102';
/** `session.start`'s `producer`: the CLI requires one and accepts any. */
export const PRODUCER = 'asyncai-log';

/** How many tool calls awaiting a result are remembered: memory stays flat however long the stream. */
const MAX_IDS = 100_000;

/** One line of events.jsonl, as JSON. */
export type CopilotEvent = Record<string, unknown>;

/** An event mapped, not yet given its id and parent. */
interface Queued {
  type: string;
  data: Record<string, unknown>;
  timestamp: string;
}

export interface CopilotMapperOptions {
  sessionId: string;
  /** The project directory (`session.start`'s `context.cwd`: the CLI runs the resumed session there). */
  cwd: string;
  /** Model for assistant messages whose event names none. */
  model?: string;
  /** Extra fields of the `session.start` line that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** Event ids (UUIDs); default crypto.randomUUID. */
  newId?: () => string;
}

/** The assistant message under way: its data, and whether it holds calls. */
interface OpenMessage {
  timestamp: string;
  data: Record<string, unknown>;
  calls: Record<string, unknown>[];
  /** An event named the message's model (not the default). */
  named: boolean;
}

type Once = 'subagent' | 'reasoning';

const ONCE_TEXT: Record<Once, string> = {
  subagent: 'events with "agent_id" belong to a subagent session and are not written to this session; further ones are dropped silently',
  reasoning: 'thinking is kept in the session file, but copilot does not send it back to the model on resume; further thinking is kept silently',
};

function blob(image: ImageInput): Record<string, unknown> {
  return { type: 'blob', mimeType: image.media_type, data: image.data };
}

export class CopilotEventMapper extends NotifyingMapper<string[]> implements QueueingMapper {
  private queue: Queued[] = [];
  private open: OpenMessage | undefined;
  /** The id of the last event written: the next one's `parentId`. */
  private parent: string | null = null;
  /** Tool call id -> its name, until its result comes. */
  private readonly calls = new RecentMap<string, string>(MAX_IDS);
  private readonly said = new Set<Once>();
  private readonly newId: () => string;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: CopilotMapperOptions) {
    super();
    this.newId = options.newId ?? randomUUID;
  }

  /** The first line of the file: the CLI loads no session that does not start with it. */
  header(startTime: string): CopilotEvent {
    const { sessionId, cwd, provenance } = this.options;
    const id = this.newId();
    this.parent = id;
    return {
      type: 'session.start',
      data: { sessionId, version: 1, producer: PRODUCER, copilotVersion: COPILOT_VERSION, startTime, context: { cwd } },
      id, timestamp: startTime, parentId: null, ...(provenance ?? {}),
    };
  }

  /** Events wait to be drained (an assistant message holding calls waits for the response to end). */
  get pending(): boolean {
    return this.queue.length > 0 || (this.open !== undefined && this.open.calls.length === 0);
  }

  /** The next event chains onto `id` (the last event another process appended). */
  chainOnto(id: string): void {
    this.parent = id;
  }

  /**
   * The queued events, each given its id and chained onto the one before. The assistant message under way
   * comes too unless it holds calls (`all`: it comes anyway).
   */
  drain(all = false): CopilotEvent[] {
    if (this.open !== undefined && (all || this.open.calls.length === 0)) this.closeResponse();
    const out: CopilotEvent[] = [];
    for (const { type, data, timestamp } of this.queue) {
      const id = this.newId();
      out.push({ type, data, id, timestamp, parentId: this.parent });
      this.parent = id;
    }
    this.queue = [];
    return out;
  }

  /**
   * The session ends. A call still awaiting its result is sent on resume with the CLI's own "interrupted"
   * result in its place: counted as changed.
   */
  end(): void {
    this.closeResponse();
    this.fidelity.change('tool_call', 'no result came: copilot sends it with its own "interrupted" result', this.calls.size);
    this.calls.clear();
  }

  /** The response under way ends: its assistant message is queued. */
  closeResponse(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    if (open.calls.length > 0) open.data.toolRequests = open.calls;
    this.queue.push({ type: 'assistant.message', data: open.data, timestamp: open.timestamp });
  }

  protected subagent(): string[] {
    return this.once('subagent');
  }

  protected nothing(): string[] {
    return [];
  }

  private once(what: Once): string[] {
    if (this.said.has(what)) return [];
    this.said.add(what);
    return [ONCE_TEXT[what]];
  }

  /** Queue an event that is not model output: the response under way ends before it. */
  private push(type: string, data: Record<string, unknown>, timestamp: string): void {
    this.closeResponse();
    this.queue.push({ type, data, timestamp });
  }

  /**
   * The assistant message for model output of `model`: the one under way, unless it already holds what must
   * come before this output (`startsNew`), when it is queued and a new one begins.
   */
  private message(timestamp: string, model: string | undefined, startsNew: (open: OpenMessage) => boolean): OpenMessage {
    if (this.open !== undefined && (startsNew(this.open) || (model !== undefined && this.open.named && this.open.data.model !== model))) {
      this.closeResponse();
    }
    if (this.open === undefined) {
      const name = this.options.model;
      this.open = { timestamp, calls: [], named: false, data: { messageId: this.newId(), content: '', ...(name !== undefined ? { model: name } : {}) } };
    }
    if (model !== undefined) {
      this.open.data.model = model;
      this.open.named = true;
    }
    return this.open;
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) return ['user event with empty text not written (the API rejects empty turns)'];
    this.push('user.message', { content: event.text, ...(images.length > 0 ? { attachments: images.map(blob) } : {}) }, event.timestamp);
    return [];
  }

  /** Kept as the message's `reasoningText` (read back from the file); the CLI never sends it on resume. */
  protected thinking(event: ThinkingEvent): string[] {
    const open = this.message(event.timestamp, event.model, (m) => m.data.content !== '' || m.calls.length > 0);
    open.data.reasoningText = typeof open.data.reasoningText === 'string' ? `${open.data.reasoningText}\n\n${event.text}` : event.text;
    this.fidelity.drop('reasoning', 'kept in the file, but copilot sends no reasoning back on resume');
    return this.once('reasoning');
  }

  /** One text per message: the CLI sends each assistant message's content as one chat message. */
  protected assistant(event: AssistantEvent): string[] {
    if (event.text.trim() === '') return [];
    const open = this.message(event.timestamp, event.model, (m) => m.data.content !== '' || m.calls.length > 0);
    open.data.content = event.text;
    return [];
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a Copilot session is written as the CLI recorded it.
    const call = writableCall(event, FORMAT);
    const open = this.message(event.timestamp, event.model, () => false);
    open.calls.push({ toolCallId: event.id, name: call.name, arguments: call.arguments, type: 'function' });
    this.calls.set(event.id, call.name);
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    const text = contentText(event.content);
    const images = contentImages(event.content).length;
    if (!this.calls.has(event.id)) {
      // The CLI would drop a result that answers no call: kept as user text, so the model still sees it.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      this.push('user.message', { content: `${header}\n${text}` }, event.timestamp);
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      if (images > 0) this.fidelity.drop('image', 'copilot sends a tool result\'s text only', images);
      return [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    this.calls.delete(event.id);
    this.push('tool.execution_complete', {
      toolCallId: event.id,
      success: !event.is_error,
      ...(event.is_error ? { error: { message: text, code: 'failure' } } : { result: { content: text } }),
    }, event.timestamp);
    // The file keeps the flag (the CLI shows it); the chat request it sends has no place for it.
    if (event.is_error) this.fidelity.drop('error_flag', 'kept in the file, but copilot sends results without an error flag');
    if (images > 0) this.fidelity.drop('image', 'copilot sends a tool result\'s text only', images);
    return [];
  }

  /**
   * A monitor notification as a user message holding what Claude Code sends for the same event (the "not user
   * input" preamble, then the task-notification XML): the CLI sends it on resume, in place.
   */
  protected notify(text: string, timestamp: string): string[] {
    this.push('user.message', { content: text }, timestamp);
    return [];
  }

  /**
   * The CLI's own compaction: on resume a `session.compaction_complete` replaces everything before it with one
   * user message quoting the earlier user messages and its `summaryContent`.
   */
  protected compaction(event: CompactionEvent): string[] {
    if (event.summary.trim() === '') {
      this.fidelity.drop('compaction', 'an empty summary: not written, the history before it is sent whole');
      return ['compaction with an empty summary not written (copilot would replace the history with nothing)'];
    }
    this.calls.clear();
    this.push('session.compaction_complete', {
      success: true, summaryContent: event.summary, ...(event.pre_tokens !== undefined ? { preCompactionTokens: event.pre_tokens } : {}),
    }, event.timestamp);
    return [];
  }
}
