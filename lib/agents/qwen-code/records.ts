// Pure mapping from generic events to Qwen Code 0.24.4 chat records: `user`, `assistant` and `tool_result`
// records holding a Gemini Content (lib/gemini-content/), and a `system` `chat_compression` record for a
// compaction. A response's thoughts, text and tool calls go into one assistant record: on resume the CLI
// pairs a model Content's calls only with the responses in the user Contents right after it (a call followed
// by another model Content gets a "not recorded" error in place of its result). So an assistant record with
// calls is held until the response ends (a user turn, a result, the end); one without calls may be written at
// a flush, later output of the response then going into a record of its own (the CLI merges consecutive
// assistant messages when it sends them). The chain (`uuid`, `parentUuid`) is drawn when records are drained,
// so a writer can chain them onto what another process appended meanwhile.
import { randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ThinkingEvent, ToolCallEvent,
  ToolResultEvent, UserEvent,
} from '../../events.js';
import { contentImages, contentText, functionCallPart, functionResponsePart, inlineDataPart, type Part } from '../../gemini-content/parts.js';
import { toUsageMetadata } from '../../gemini-content/tokens.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import { RecentMap } from '../../util/recent.js';

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'qwen-code';

/** How many tool calls awaiting a result are remembered: memory stays flat however long the stream. */
const MAX_IDS = 100_000;

/** One chat record, as JSON. */
export type ChatRecord = Record<string, unknown>;

export interface QwenMapperOptions {
  sessionId: string;
  /** The project directory: every record's `cwd` (the CLI finds the session by the first one's). */
  cwd: string;
  /** Model for assistant records whose event names none. */
  model?: string;
  /** Extra record fields that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** Injected for tests; default crypto.randomUUID. */
  newId?: () => string;
}

type Once = 'subagent';

const ONCE_TEXT: Record<Once, string> = {
  subagent: 'events with "agent_id" belong to a subagent session and are not written to this chat; further ones are dropped silently',
};

export class QwenRecordMapper extends NotifyingMapper<string[]> {
  /** Records to write, in order, not chained yet. */
  private queue: ChatRecord[] = [];
  /** The assistant record of the response under way (its parts), not queued yet. */
  private open: { record: ChatRecord; parts: Part[]; calls: boolean } | undefined;
  /** The `uuid` of the last record written: the next one's `parentUuid`. */
  private parent: string | null = null;
  /** Tool call id -> its name, until its result comes. */
  private readonly calls = new RecentMap<string, string>(MAX_IDS);
  private readonly said = new Set<Once>();
  private readonly newId: () => string;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: QwenMapperOptions) {
    super();
    this.newId = options.newId ?? randomUUID;
  }

  // `map` (EventMapper) gives an event's warnings; its records wait in the queue until `drain`.

  protected subagent(): string[] {
    return this.once('subagent');
  }

  protected nothing(): string[] {
    return [];
  }

  /** Whether records wait to be drained (an assistant record holding calls waits for the response to end). */
  get pending(): boolean {
    return this.queue.length > 0 || (this.open !== undefined && !this.open.calls);
  }

  /** The last record's `uuid` (null before the first). */
  get lastUuid(): string | null {
    return this.parent;
  }

  /** The next record chains onto `uuid` (the last record another process appended). */
  chainOnto(uuid: string): void {
    this.parent = uuid;
  }

  /**
   * The queued records, chained in order onto the last one written. The response's assistant record comes
   * too unless it holds calls (`all`: it comes anyway, at the end of the session).
   */
  drain(all = false): ChatRecord[] {
    if (this.open !== undefined && (all || !this.open.calls)) this.closeResponse();
    const out: ChatRecord[] = [];
    for (const record of this.queue) {
      const uuid = this.newId();
      const { type, timestamp, ...rest } = record;
      out.push({ uuid, parentUuid: this.parent, sessionId: this.options.sessionId, timestamp, type, cwd: this.options.cwd, ...rest, ...(this.options.provenance ?? {}) });
      this.parent = uuid;
    }
    this.queue = [];
    return out;
  }

  /**
   * The session ends: the calls still awaiting a result are not sent (the CLI drops a call without its result
   * from the request it builds), and are counted so.
   */
  end(): void {
    this.closeResponse();
    this.fidelity.drop('tool_call', 'no result came: qwen sends no call without its result', this.calls.size);
    this.calls.clear();
  }

  private once(what: Once): string[] {
    if (this.said.has(what)) return [];
    this.said.add(what);
    return [ONCE_TEXT[what]];
  }

  /** Queue a record that is not model output: the response under way ends before it. */
  private push(record: ChatRecord): void {
    this.closeResponse();
    this.queue.push(record);
  }

  /** The response under way ends: its assistant record is queued. */
  closeResponse(): void {
    if (this.open === undefined) return;
    this.queue.push(this.open.record);
    this.open = undefined;
  }

  private userRecord(parts: Part[], timestamp: string): void {
    this.push({ type: 'user', timestamp, provenance: 'real_user', message: { role: 'user', parts } });
  }

  /** Add `part` to the response's assistant record (made when none is open). */
  private modelPart(part: Part, timestamp: string, model: string | undefined, usage: AssistantEvent['usage'], replaceUsage: boolean): void {
    if (this.open === undefined) {
      const name = model ?? this.options.model;
      const parts: Part[] = [];
      this.open = {
        record: { type: 'assistant', timestamp, provenance: 'assistant_output', ...(name !== undefined ? { model: name } : {}), message: { role: 'model', parts } },
        parts,
        calls: false,
      };
    }
    const { record, parts } = this.open;
    parts.push(part);
    if (model !== undefined) record.model = model;
    const usageMetadata = usage === undefined ? undefined : toUsageMetadata(usage);
    if (usageMetadata !== undefined && (replaceUsage || record.usageMetadata === undefined)) record.usageMetadata = usageMetadata;
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return ['user event with empty text not written (the CLI does not resume empty turns)'];
    }
    this.userRecord([...(event.text === '' ? [] : [{ text: event.text }]), ...images.map(inlineDataPart)], event.timestamp);
    return [];
  }

  /** Thinking as a thought part: the CLI sends it back as the assistant message's `reasoning_content`. */
  protected thinking(event: ThinkingEvent): string[] {
    this.modelPart({ text: event.text, thought: true }, event.timestamp, event.model, undefined, false);
    return [];
  }

  protected assistant(event: AssistantEvent): string[] {
    if (event.text.trim() === '') return [];
    this.modelPart({ text: event.text }, event.timestamp, event.model, event.usage, true);
    return [];
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a Qwen Code chat is written as the CLI recorded it.
    const own = writableCall(event, FORMAT);
    this.modelPart(functionCallPart(event.id, own.name, own.arguments), event.timestamp, event.model, event.usage, false);
    this.open!.calls = true;
    this.calls.set(event.id, own.name);
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    const text = contentText(event.content);
    const images = contentImages(event.content).map(inlineDataPart);
    const name = this.calls.get(event.id);
    if (name === undefined) {
      // A response the CLI could pair with no call (it would drop it): kept as user text, so the model still sees it.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      this.userRecord([{ text: `${header}\n${text}` }, ...images], event.timestamp);
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      return [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    this.calls.delete(event.id);
    const part = functionResponsePart(event.id, name, text, event.is_error);
    // A tool's images ride in the response's own parts: the CLI sends them in the tool message.
    if (images.length > 0) (part.functionResponse as Record<string, unknown>).parts = images;
    this.push({
      type: 'tool_result', timestamp: event.timestamp, provenance: 'tool_result',
      message: { role: 'user', parts: [part] },
      toolCallResult: { callId: event.id, status: event.is_error ? 'error' : 'success', resultDisplay: text },
    });
    // The CLI sends the text (`error` when there is no `output`) with no flag of its own.
    if (event.is_error) this.fidelity.drop('error_flag', 'kept in the chat, but qwen sends results without an error flag');
    return [];
  }

  /**
   * A monitor notification as a user record holding what Claude Code sends for the same event (the "not user
   * input" preamble, then the task-notification XML): the CLI sends it on resume, in place.
   */
  protected notify(text: string, timestamp: string): string[] {
    this.userRecord([{ text: text }], timestamp);
    return [];
  }



  /**
   * The CLI's own compression checkpoint: a `chat_compression` system record whose `compressedHistory`
   * replaces the whole history on resume, here the summary as one user Content.
   */
  protected compaction(event: CompactionEvent): string[] {
    this.calls.clear();
    const summary = event.summary.trim() === '' ? [] : [{ role: 'user', parts: [{ text: event.summary }] }];
    if (summary.length === 0) this.fidelity.drop('compaction', 'an empty summary: the history before it is cleared, nothing is sent');
    this.push({
      type: 'system', timestamp: event.timestamp, provenance: 'system', subtype: 'chat_compression',
      systemPayload: {
        compressedHistory: summary,
        completedToolCallIds: [],
      },
    });
    return [];
  }
}
