// Pure mapping from generic events to Claude Code 2.1.328 transcript records. State is only what the
// format needs to link records: the chain's last uuid, the current turn's message.id, the tool calls seen,
// and task ids per monitor. No I/O: the harness serialises and writes what this returns.
import type {
  AssistantEvent, CompactionEvent, GenericEvent, ImageInput, MonitorEndEvent, MonitorEvent, ThinkingEvent,
  ToolCallEvent, ToolResultEvent, Usage, UserEvent,
} from '../../events.js';
import { callFor } from '../../events.js';
import { MonitorTasks } from '../../monitor/monitor-tasks.js';
import { PRE, PRE_HUMAN_TURN, renderReminder } from '../../monitor/notification.js';
import { RecentSet } from '../../util/recent.js';
import { laterTime, NO_USAGE } from './response.js';
import { sumUsage } from '../../usage.js';
import { randomUuid } from '../../util/random-id.js';
import { EventMapper } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';

/** The Claude Code version the records imitate (and were verified against). */
export const CLAUDE_CODE_VERSION = '2.1.328';
/** A model Claude Code knows, used when neither the event nor the options name one. */
export const DEFAULT_MODEL = 'claude-sonnet-4-5-20250929';

import { imageBlock, newMessageId, newRequestId, resultContent, textOf } from './content.js';
import { QUEUE_OPERATION, turnClass, type TurnClass } from './record-shapes.js';
import {
  onceOnly, SUBAGENT_WARNING, UNSIGNED_WARNING, type ClaudeRecord, type Mapped, type MapperOptions,
} from './mapper-types.js';

/**
 * How many tool call ids are remembered for matching results (bounded so memory stays flat). Claude Code keeps a
 * result only when it follows its call with no user turn between (a dangling call is dropped on load, and its
 * result with it), so a result more than 10,000 calls after its own is kept as text, which loses nothing.
 */
const MAX_TOOL_IDS = 10_000;

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'claude-code-cli';

export type { ClaudeRecord, Mapped, MapperOptions } from './mapper-types.js';

export class ClaudeRecordMapper extends EventMapper<Mapped> {
  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);
  /** The uuid of the last chain record written (null before the first). */
  parentUuid: string | null = null;
  private messageId: string | undefined;
  /** The request id of the response under way (one per message id). */
  private requestId: string | undefined;
  /** The usage of the turn's response: what its events reported, summed (see response.ts). */
  private responseUsage: Usage | undefined;
  /** The timestamp of the response's last record: the next one is written later. */
  private responseTime: string | undefined;
  private lastModel: string | undefined;
  private readonly toolIds: RecentSet<string>;
  /** Monitor task ids, and which had output (lib/monitor/monitor-tasks.ts). */
  private readonly tasks = new MonitorTasks();
  private warnedUnsigned = false;
  private readonly newUuid: () => string;
  private readonly common: ClaudeRecord;
  /**
   * The prototype of user, assistant and notification attachment records: `turnTailBytes` is the JSON of `common`
   * and the newline that close their line, encoded (they are serialised by template: serialize.ts).
   */
  private readonly turnPrototype: object;

  /** Makes user and assistant records (a class: its objects are allocated at their size, fields in place). */
  private readonly Turn: TurnClass;

  constructor(private readonly options: MapperOptions) {
    super();
    this.toolIds = new RecentSet<string>(MAX_TOOL_IDS);
    this.newUuid = options.newUuid ?? randomUuid;
    this.common = {
      userType: 'external',
      entrypoint: 'cli',
      cwd: options.cwd,
      sessionId: options.sessionId,
      version: CLAUDE_CODE_VERSION,
      ...(options.gitBranch !== undefined ? { gitBranch: options.gitBranch } : {}),
      ...(options.provenance ?? {}),
    };
    this.turnPrototype = Object.create(Object.prototype, {
      turnTailBytes: { value: Buffer.from(`,${JSON.stringify(this.common).slice(1)}\n`), enumerable: false },
      // Uuids drawn by randomUuid need no quoting check (an injected newUuid's might).
      plainUuids: { value: options.newUuid === undefined, enumerable: false },
    }) as object;
    this.Turn = turnClass(this.turnPrototype, this.common);
  }

  /** The uuid of the last chain record, for a `last-prompt` checkpoint. */
  get leafUuid(): string | null {
    return this.parentUuid;
  }

  /** The tool call id the last `map` made known (see `undo`). */
  private addedToolId: string | undefined;
  /** The response's usage and time before the last `map` (see `undo`). */
  private usageBefore: Usage | undefined;
  private timeBefore: string | undefined;

  /**
   * Undo the last `map` when its records could not be written: the chain goes on from `parentUuid`, and a
   * tool call that never reached the file is forgotten, so its result is kept as text rather than written as
   * a tool_result that Claude Code would drop together with its output.
   */
  undo(parentUuid: string | null): void {
    this.parentUuid = parentUuid;
    this.responseUsage = this.usageBefore;
    this.responseTime = this.timeBefore;
    if (this.addedToolId !== undefined) this.toolIds.delete(this.addedToolId);
    this.addedToolId = undefined;
  }

  /** A turn under way continues message `id` of request `requestId` (the last one of a reopened session). */
  continueMessage(id: string, requestId?: string): void {
    if (this.messageId === undefined) return;
    this.messageId = id;
    if (requestId !== undefined) this.requestId = requestId;
  }

  /** The turn under way continues as message `to` (its records were copied under that id; see fork.ts). */
  renameMessage(from: string, to: string): void {
    if (this.messageId === from) this.messageId = to;
  }

  /** Map one event; what it changes is kept until the next, so `undo` can take it back. */
  override map(event: GenericEvent): Mapped {
    this.addedToolId = undefined;
    this.usageBefore = this.responseUsage;
    this.timeBefore = this.responseTime;
    return super.map(event);
  }

  protected nothing(): Mapped {
    return { records: [], warnings: [] };
  }

  private warnedSubagent = false;

  /** Said once per session. */
  protected subagent(): Mapped {
    if (this.warnedSubagent) return { records: [], warnings: [] };
    this.warnedSubagent = true;
    return onceOnly(SUBAGENT_WARNING);
  }

  /**
   * Claude Code's compaction: a compact_boundary system record that starts a new root (parentUuid null,
   * logicalParentUuid naming the record before it), then the summary as an isCompactSummary user record.
   * A resume sends only what follows the last boundary.
   */
  protected compaction(event: CompactionEvent): Mapped {
    const uuid = this.newUuid();
    const compactMetadata: ClaudeRecord = {
      ...(event.trigger !== undefined ? { trigger: event.trigger } : {}),
      ...(event.pre_tokens !== undefined ? { preTokens: event.pre_tokens } : {}),
    };
    const boundary: ClaudeRecord = {
      parentUuid: null,
      logicalParentUuid: this.parentUuid,
      isSidechain: false,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: event.timestamp,
      uuid,
      level: 'info',
      compactMetadata,
      ...this.common,
    };
    this.parentUuid = uuid;
    this.endTurn();
    const records = [boundary];
    if (event.summary.trim() !== '') {
      records.push(this.userSide(event.summary, event.timestamp, { isVisibleInTranscriptOnly: true, isCompactSummary: true }));
    }
    return { records, warnings: [] };
  }

  /** A `last-prompt` record marking the current leaf, so a resume picks it over a foreign leaf. */
  lastPrompt(): ClaudeRecord | undefined {
    if (this.parentUuid === null) return undefined;
    return { type: 'last-prompt', leafUuid: this.parentUuid, sessionId: this.options.sessionId };
  }

  private chain(type: string, body: ClaudeRecord, timestamp: string): ClaudeRecord {
    const uuid = this.newUuid();
    const record: ClaudeRecord = {
      parentUuid: this.parentUuid,
      isSidechain: false,
      type,
      ...body,
      uuid,
      timestamp,
      ...this.common,
    };
    this.parentUuid = uuid;
    return record;
  }

  /**
   * A user or assistant record of the chain, with the same fields in the same order as `chain` gives it. Its
   * prototype carries the JSON of the common fields, so it can be serialised by template (see serialize.ts).
   */
  private turn(type: 'user' | 'assistant', message: ClaudeRecord, timestamp: string, requestId?: string): ClaudeRecord {
    const uuid = this.newUuid();
    const record = new this.Turn(this.parentUuid, type, message, uuid, timestamp, requestId) as unknown as ClaudeRecord;
    this.parentUuid = uuid;
    return record;
  }

  private userSide(content: unknown, timestamp: string, extra?: ClaudeRecord): ClaudeRecord {
    // A user-side record ends the assistant's turn: the next assistant block starts a new message.id.
    this.endTurn();
    if (extra === undefined) return this.turn('user', { role: 'user', content }, timestamp);
    return this.chain('user', { message: { role: 'user', content }, ...extra }, timestamp);
  }

  /** The turn (one API response) is over: the next assistant block starts a new message.id, usage and time. */
  private endTurn(): void {
    this.messageId = undefined;
    this.requestId = undefined;
    this.responseUsage = undefined;
    this.responseTime = undefined;
  }

  /** The response's usage with `usage` (an event's own) added: what its records carry from now on. */
  private addUsage(usage: Usage | undefined): Usage {
    if (usage !== undefined) this.responseUsage = this.responseUsage === undefined ? usage : sumUsage(this.responseUsage, usage);
    return this.responseUsage ?? NO_USAGE;
  }

  /** The time of the response's next record: its event's `time`, or just after the record before if not later. */
  private nextTime(time: string): string {
    this.responseTime = this.responseTime === undefined ? time : laterTime(this.responseTime, time);
    return this.responseTime;
  }

  /**
   * One content block of the turn's response. Every record of a response carries its usage so far (as Claude
   * Code repeats the response's usage on each) and a time later than the record before.
   */
  private assistantSide(
    block: ClaudeRecord, model: string | undefined, usage: Usage | undefined, stopReason: string | null, timestamp: string,
  ): ClaudeRecord {
    this.messageId ??= newMessageId();
    this.requestId ??= newRequestId();
    const resolved = model ?? this.lastModel ?? this.options.model ?? DEFAULT_MODEL;
    this.lastModel = resolved;
    return this.turn('assistant', {
      id: this.messageId,
      type: 'message',
      role: 'assistant',
      model: resolved,
      content: [block],
      stop_reason: stopReason,
      stop_sequence: null,
      usage: this.addUsage(usage),
    }, this.nextTime(timestamp), this.requestId);
  }

  protected user(event: UserEvent): Mapped {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return { records: [], warnings: ['user event with empty text not written (the API rejects empty turns)'] };
    }
    const content = images.length === 0
      ? event.text
      : [...(event.text === '' ? [] : [{ type: 'text', text: event.text }]), ...images.map(imageBlock)];
    return { records: [this.userSide(content, event.timestamp)], warnings: [] };
  }

  protected assistant(event: AssistantEvent): Mapped {
    // Claude Code drops empty assistant text on load; writing it would only add a dead record.
    if (event.text.trim() === '') return { records: [], warnings: [] };
    return {
      records: [this.assistantSide({ type: 'text', text: event.text }, event.model, event.usage, 'end_turn', event.timestamp)],
      warnings: [],
    };
  }

  protected thinking(event: ThinkingEvent): Mapped {
    if (!event.signature) {
      this.fidelity.drop('reasoning', 'unsigned: the API rejects it on resume');
      if (this.warnedUnsigned) return { records: [], warnings: [] };
      this.warnedUnsigned = true;
      return onceOnly(UNSIGNED_WARNING);
    }
    const block = { type: 'thinking', thinking: event.text, signature: event.signature };
    return { records: [this.assistantSide(block, event.model, undefined, null, event.timestamp)], warnings: [] };
  }

  protected toolCall(event: ToolCallEvent): Mapped {
    if (!this.toolIds.has(event.id)) {
      this.addedToolId = event.id;
      this.toolIds.add(event.id);
    }
    // A call that came from Claude Code itself is written as Claude Code recorded it.
    const call = callFor(event, FORMAT);
    const block = { type: 'tool_use', id: event.id, name: call.name, input: call.arguments };
    return { records: [this.assistantSide(block, event.model, event.usage, 'tool_use', event.timestamp)], warnings: [] };
  }

  protected toolResult(event: ToolResultEvent): Mapped {
    if (this.toolIds.has(event.id)) {
      const block = {
        type: 'tool_result',
        tool_use_id: event.id,
        content: resultContent(event.content),
        is_error: event.is_error,
      };
      return { records: [this.userSide([block], event.timestamp)], warnings: [] };
    }
    // Claude Code drops a tool_result that matches no tool_use on resume; keep its text as a user turn.
    const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
    const images = typeof event.content === 'string' ? [] : event.content.filter((p) => p.type === 'image');
    const prefix = `${header}\n`;
    const text = prefix + textOf(event.content);
    const content = images.length === 0
      ? text
      : [{ type: 'text', text }, ...images.map((p) => imageBlock(p as ImageInput))];
    const record = this.userSide(content, event.timestamp);
    this.fidelity.change('tool_result', 'no matching call: kept as user text');
    if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
    // The serialiser splices the result's own string after the header (serialize.ts, textAfter).
    if (typeof event.content === 'string') Object.defineProperty(record, 'textAfter', { value: [prefix, event.content] });
    return {
      records: [record],
      warnings: [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`],
    };
  }

  /**
   * The monitor triple Claude Code writes: queue enqueue, queued_command attachment (chain), queue remove. Field order is the
   * one Claude Code writes; the queue operations carry no uuid and leave the chain where it was.
   */
  private notification(xml: string, timestamp: string): ClaudeRecord[] {
    const sessionId = this.options.sessionId;
    const sourceUuid = this.newUuid();
    const deliveryId = this.newUuid();
    // Made from prototypes that mark them for serialisation by template (serialize.ts), fields in this order.
    const enqueue = Object.assign(Object.create(QUEUE_OPERATION) as ClaudeRecord, {
      type: 'queue-operation', operation: 'enqueue', timestamp, sessionId, content: xml,
    });
    const uuid = this.newUuid();
    const attachment = Object.assign(Object.create(this.turnPrototype) as ClaudeRecord, {
      parentUuid: this.parentUuid,
      isSidechain: false,
      attachment: {
        type: 'queued_command',
        prompt: xml,
        source_uuid: sourceUuid,
        delivery_id: deliveryId,
        commandMode: 'task-notification',
        origin: { kind: 'task-notification', producer: 'session-task' },
        timestamp,
      },
      type: 'attachment',
      uuid,
      timestamp,
      rendered: [{ content: renderReminder(PRE, xml) }],
      renderedInHumanTurn: [{ content: renderReminder(PRE_HUMAN_TURN, xml) }],
      renderedRole: 'system',
    }, this.common);
    this.parentUuid = uuid;
    const remove = Object.assign(Object.create(QUEUE_OPERATION) as ClaudeRecord, {
      type: 'queue-operation', operation: 'remove', timestamp, sessionId, content: xml,
      reason: 'absorbed_mid_turn', commandUuid: sourceUuid, deliveryId,
    });
    return [enqueue, attachment, remove];
  }

  protected monitorEvent(event: MonitorEvent): Mapped {
    return { records: this.notification(this.tasks.eventText(event), event.timestamp), warnings: [] };
  }

  protected monitorEnd(event: MonitorEndEvent): Mapped {
    return { records: this.notification(this.tasks.endText(event), event.timestamp), warnings: [] };
  }
}
