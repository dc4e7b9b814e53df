// Pure mapping from generic events to Factory Droid 0.225 session lines: a `session_start` header (its `title` and
// `owner` are what make droid load the history at all), then `message` lines holding Anthropic-style content
// blocks (lib/anthropic-content/), each with an `id`, the previous one's id as `parentId` and a `timestamp` (a
// message without one makes droid exit 1), and `compaction_state` for a compaction. Droid reads the messages in
// file order and turns them into its model API's messages: an assistant message's `tool_use` blocks become its
// calls, each `tool_result` block of the next user message a result. So a response's thinking, text and calls
// go into one assistant message, held until the response ends when it holds calls (a flush between two calls
// of one response would leave the first call's results apart from it); results in one batch share a user
// message. Ids and parents are drawn when lines are drained, so a writer can chain them onto what another
// process (a resuming droid) appended meanwhile.
import { randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ThinkingEvent, ToolCallEvent, ToolResultEvent, UserEvent,
} from '../../events.js';
import { imageBlock, resultContent, textOf, type Block } from '../../anthropic-content/blocks.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import { RecentSet } from '../../util/recent.js';

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'droid';

/** How many tool calls awaiting a result are remembered: memory stays flat however long the stream. */
const MAX_IDS = 100_000;
/** The longest title written (droid titles a session by its first prompt). */
const TITLE_MAX = 200;

/** One session line, as JSON. */
export type DroidLine = Record<string, unknown>;

export interface DroidMapperOptions {
  sessionId: string;
  /** The project directory: the header's `cwd` (droid writes the resumed session's lines into its folder). */
  cwd: string;
  /** Extra header fields that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** The header is in the file already (a reopened session). */
  headerWritten?: boolean;
  /** Injected for tests; default crypto.randomUUID. */
  newId?: () => string;
}

interface Message {
  role: 'user' | 'assistant';
  content: Block[];
  timestamp: string;
  /** A user message of tool results only (later results of the same batch join it). */
  results?: boolean;
}

type Queued = Message | { compaction: CompactionEvent };

const SUBAGENT = 'events with "agent_id" belong to a subagent session and are not written to this session; further ones are dropped silently';

export class DroidRecordMapper extends NotifyingMapper<string[]> {
  /** Lines to write, in order, without ids yet. */
  private queue: Queued[] = [];
  /** The assistant message of the response under way, not queued yet. */
  private open: { message: Message; calls: boolean } | undefined;
  /** The id of the last message written: the next one's `parentId`. */
  private parent: string | undefined;
  /** Messages in the file (a compaction's anchor index). */
  private written = 0;
  private headerWritten: boolean;
  /** The first user text: the header's title. */
  private title: string | undefined;
  /** Tool call ids awaiting a result. */
  private readonly calls = new RecentSet<string>(MAX_IDS);
  private subagentSaid = false;
  private readonly newId: () => string;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: DroidMapperOptions) {
    super();
    this.newId = options.newId ?? randomUUID;
    this.headerWritten = options.headerWritten === true;
  }

  protected subagent(): string[] {
    if (this.subagentSaid) return [];
    this.subagentSaid = true;
    return [SUBAGENT];
  }

  protected nothing(): string[] {
    return [];
  }

  /** Whether lines wait to be drained (an assistant message holding calls waits for the response to end). */
  get pending(): boolean {
    return this.queue.length > 0 || (this.open !== undefined && !this.open.calls);
  }

  /** The next message's `parentId` is `id` (the last message another process appended). */
  chainOnto(id: string): void {
    this.parent = id;
  }

  /**
   * The queued lines, the header first when it is not written yet, each message chained onto the one before. The
   * response's assistant message comes too unless it holds calls (`all`: it comes anyway, at the end).
   */
  drain(all = false): DroidLine[] {
    if (this.open !== undefined && (all || !this.open.calls)) this.closeResponse();
    const out: DroidLine[] = [];
    if (this.queue.length === 0) return out;
    if (!this.headerWritten) {
      this.headerWritten = true;
      out.push({ type: 'session_start', id: this.options.sessionId, title: this.title ?? '', owner: '', version: 2, cwd: this.options.cwd, ...(this.options.provenance ?? {}) });
    }
    for (const item of this.queue) {
      if ('compaction' in item) {
        out.push(this.compactionLine(item.compaction));
        continue;
      }
      const id = this.newId();
      out.push({ type: 'message', id, ...(this.parent !== undefined ? { parentId: this.parent } : {}), timestamp: item.timestamp, message: { role: item.role, content: item.content } });
      this.parent = id;
      this.written += 1;
    }
    this.queue = [];
    return out;
  }

  /** The session ends: the response under way is queued, calls still awaiting a result are counted. */
  end(): void {
    this.closeResponse();
    this.fidelity.drop('tool_call', 'no result came: a model API takes no call without its result', this.calls.size);
    this.calls.clear();
  }

  /** The response under way ends: its assistant message is queued. */
  private closeResponse(): void {
    if (this.open === undefined) return;
    this.queue.push(this.open.message);
    this.open = undefined;
  }

  /** Queue a user message (the response under way ends before it). */
  private userMessage(content: Block[], timestamp: string): void {
    this.closeResponse();
    this.queue.push({ role: 'user', content, timestamp });
  }

  /** Add `block` to the response's assistant message (made when none is open). */
  private modelBlock(block: Block, timestamp: string): void {
    this.open ??= { message: { role: 'assistant', content: [], timestamp }, calls: false };
    this.open.message.content.push(block);
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return ['user event with empty text not written (the CLI does not resume empty turns)'];
    }
    if (this.title === undefined && event.text.trim() !== '') this.title = event.text.trim().replace(/\s+/g, ' ').slice(0, TITLE_MAX);
    this.userMessage([...(event.text === '' ? [] : [{ type: 'text', text: event.text }]), ...images.map(imageBlock)], event.timestamp);
    return [];
  }

  /**
   * Thinking as droid stores a chat-completions model's reasoning (its `reasoning_content`): kept in the session,
   * and not sent back on resume. An unsigned block would be sent, but as `<thinking>` text inside the assistant
   * message's text: reasoning is never sent as text.
   */
  protected thinking(event: ThinkingEvent): string[] {
    this.modelBlock({ type: 'thinking', signature: 'reasoning_content', signatureProvider: 'generic-chat-completion-api', thinking: event.text }, event.timestamp);
    this.fidelity.drop('reasoning', 'kept in the session, but droid sends no reasoning back');
    return [];
  }

  protected assistant(event: AssistantEvent): string[] {
    if (event.text.trim() === '') return [];
    this.modelBlock({ type: 'text', text: event.text }, event.timestamp);
    return [];
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a Droid session is written as droid recorded it.
    const own = writableCall(event, FORMAT);
    this.modelBlock({ type: 'tool_use', id: event.id, name: own.name, input: own.arguments }, event.timestamp);
    this.open!.calls = true;
    this.calls.add(event.id);
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    if (!this.calls.has(event.id)) {
      // A result droid could pair with no call: kept as user text, so the model still sees it.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      const images = typeof event.content === 'string' ? [] : event.content.flatMap((p) => (p.type === 'image' ? [imageBlock(p)] : []));
      this.userMessage([{ type: 'text', text: `${header}\n${textOf(event.content)}` }, ...images], event.timestamp);
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      return [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    this.calls.delete(event.id);
    this.closeResponse();
    const block = { type: 'tool_result', tool_use_id: event.id, is_error: event.is_error, content: resultContent(event.content) };
    const last = this.queue.at(-1);
    if (last !== undefined && 'role' in last && last.results === true) last.content.push(block);
    else this.queue.push({ role: 'user', content: [block], timestamp: event.timestamp, results: true });
    // Kept in the file; droid sends a chat-completions model the result's text with no flag of its own.
    if (event.is_error) this.fidelity.drop('error_flag', 'kept in the session, but droid sends results without an error flag');
    return [];
  }

  /** A monitor notification: a user message holding the text the other agents send for it. */
  protected notify(text: string, timestamp: string): string[] {
    this.userMessage([{ type: 'text', text }], timestamp);
    return [];
  }

  /**
   * Droid's own compaction line: on resume the summary replaces every message up to its anchor (the last
   * message before it), the messages after it follow.
   */
  protected compaction(event: CompactionEvent): string[] {
    this.closeResponse();
    this.calls.clear();
    this.queue.push({ compaction: event });
    return [];
  }

  private compactionLine(event: CompactionEvent): DroidLine {
    const summary = event.summary;
    return {
      type: 'compaction_state', id: this.newId(), timestamp: event.timestamp, summaryText: summary,
      summaryTokens: Math.ceil(summary.length / 4), summaryKind: 'llm_summary',
      ...(this.parent !== undefined ? { anchorMessage: { id: this.parent, index: this.written - 1 } } : {}),
      removedCount: this.written,
    };
  }
}
