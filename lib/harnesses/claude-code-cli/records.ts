// Pure mapping from generic events to Claude Code 2.1.328 transcript records. State is only what the
// format needs to link records: the chain's last uuid, the current turn's message.id, the tool calls seen,
// and task ids per monitor. No I/O: the harness serialises and writes what this returns.
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ContentPart, GenericEvent, ImageInput, MonitorEndEvent, MonitorEvent, ThinkingEvent,
  ToolCallEvent, ToolResultEvent, UserEvent,
} from '../../events.js';
import { newTaskId } from '../../monitor/task-id.js';
import { endNotification, eventNotification, PRE, PRE_HUMAN_TURN, renderReminder, monitorOutcome } from './notification.js';
import { RecentMap, RecentSet } from './recent.js';

/** The Claude Code version the records imitate (and were verified against). */
export const CLAUDE_CODE_VERSION = '2.1.328';
/** A model Claude Code knows, used when neither the event nor the options name one. */
export const DEFAULT_MODEL = 'claude-sonnet-4-5-20250929';

/** How many tool call ids are remembered for matching results (bounded so memory stays flat). */
const MAX_TOOL_IDS = 100_000;
/** How many monitor task ids are remembered (for ids per description, and which produced output). */
const MAX_TASKS = 100_000;

export type ClaudeRecord = Record<string, unknown>;

export interface MapperOptions {
  sessionId: string;
  cwd: string;
  model?: string;
  gitBranch?: string;
  provenance?: Record<string, unknown>;
  /** Injected for tests; defaults to crypto.randomUUID. */
  newUuid?: () => string;
}

/** What a mapped event produced: records, and warnings for the caller to report. */
export interface Mapped {
  records: ClaudeRecord[];
  warnings: string[];
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Random bytes drawn 4 KiB at a time: one randomBytes call per message id cost microseconds each. */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

function randomAlnum(length: number): string {
  if (randomAt + length > randomPool.length) {
    randomPool = randomBytes(Math.max(4096, length));
    randomAt = 0;
  }
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALNUM[randomPool[randomAt + i]! % ALNUM.length];
  randomAt += length;
  return out;
}

function imageBlock(image: ImageInput): ClaudeRecord {
  return { type: 'image', source: { type: 'base64', media_type: image.media_type, data: image.data } };
}

function resultContent(content: string | ContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageBlock(part)));
}

function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}

export class ClaudeRecordMapper {
  /** The uuid of the last chain record written (null before the first). */
  parentUuid: string | null = null;
  private messageId: string | undefined;
  private lastModel: string | undefined;
  private readonly toolIds = new RecentSet<string>(MAX_TOOL_IDS);
  private readonly taskIds = new RecentMap<string, string>(MAX_TASKS);
  /** Task ids that have had at least one event: their end says "stream ended", not "without output". */
  private readonly tasksWithOutput = new RecentSet<string>(MAX_TASKS);
  private warnedUnsigned = false;
  private readonly newUuid: () => string;
  private readonly common: ClaudeRecord;

  constructor(private readonly options: MapperOptions) {
    this.newUuid = options.newUuid ?? randomUUID;
    this.common = {
      userType: 'external',
      entrypoint: 'cli',
      cwd: options.cwd,
      sessionId: options.sessionId,
      version: CLAUDE_CODE_VERSION,
      ...(options.gitBranch !== undefined ? { gitBranch: options.gitBranch } : {}),
      ...(options.provenance ?? {}),
    };
  }

  /** The uuid of the last chain record, for a `last-prompt` checkpoint. */
  get leafUuid(): string | null {
    return this.parentUuid;
  }

  /** The tool call id the last `map` made known (see `undo`). */
  private addedToolId: string | undefined;

  /**
   * Undo the last `map` when its records could not be written: the chain goes on from `parentUuid`, and a
   * tool call that never reached the file is forgotten, so its result is kept as text rather than written as
   * a tool_result that Claude Code would drop together with its output.
   */
  undo(parentUuid: string | null): void {
    this.parentUuid = parentUuid;
    if (this.addedToolId !== undefined) this.toolIds.delete(this.addedToolId);
    this.addedToolId = undefined;
  }

  /** The turn under way continues as message `to` (its records were copied under that id; see fork.ts). */
  renameMessage(from: string, to: string): void {
    if (this.messageId === from) this.messageId = to;
  }

  map(event: GenericEvent): Mapped {
    this.addedToolId = undefined;
    if (event.agent_id !== undefined) return this.subagentEvent();
    switch (event.type) {
      case 'user': return this.user(event);
      case 'assistant': return this.assistant(event);
      case 'thinking': return this.thinking(event);
      case 'tool_call': return this.toolCall(event);
      case 'tool_result': return this.toolResult(event);
      case 'monitor_event': return this.monitorEvent(event);
      case 'monitor_end': return this.monitorEnd(event);
      case 'compaction': return this.compaction(event);
      // Context the model saw (system/attachment records read back by `asyncai-log read --events`): Claude
      // Code regenerates its own on resume, so writing it would duplicate it; accepted and not written.
      case 'context': return { records: [], warnings: [] };
    }
  }

  private warnedSubagent = false;

  /** A subagent's event (`agent_id`) belongs to its own session, never to this conversation's turns. */
  private subagentEvent(): Mapped {
    const warnings = this.warnedSubagent
      ? []
      : ['events with "agent_id" belong to a subagent session and are not written to this transcript; further ones are dropped silently'];
    this.warnedSubagent = true;
    return { records: [], warnings };
  }

  /**
   * Claude Code's compaction: a compact_boundary system record that starts a new root (parentUuid null,
   * logicalParentUuid naming the record before it), then the summary as an isCompactSummary user record.
   * A resume sends only what follows the last boundary.
   */
  private compaction(event: CompactionEvent): Mapped {
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
    this.messageId = undefined;
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

  private userSide(content: unknown, timestamp: string, extra: ClaudeRecord = {}): ClaudeRecord {
    // A user-side record ends the assistant's turn: the next assistant block starts a new message.id.
    this.messageId = undefined;
    return this.chain('user', { message: { role: 'user', content }, ...extra }, timestamp);
  }

  private assistantSide(
    block: ClaudeRecord, model: string | undefined, usage: unknown, stopReason: string | null, timestamp: string,
  ): ClaudeRecord {
    this.messageId ??= `msg_${randomAlnum(24)}`;
    const resolved = model ?? this.lastModel ?? this.options.model ?? DEFAULT_MODEL;
    this.lastModel = resolved;
    return this.chain('assistant', {
      message: {
        id: this.messageId,
        type: 'message',
        role: 'assistant',
        model: resolved,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: usage ?? { input_tokens: 0, output_tokens: 0 },
      },
    }, timestamp);
  }

  private user(event: UserEvent): Mapped {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return { records: [], warnings: ['user event with empty text not written (the API rejects empty turns)'] };
    }
    const content = images.length === 0
      ? event.text
      : [...(event.text === '' ? [] : [{ type: 'text', text: event.text }]), ...images.map(imageBlock)];
    return { records: [this.userSide(content, event.timestamp)], warnings: [] };
  }

  private assistant(event: AssistantEvent): Mapped {
    // Claude Code drops empty assistant text on load; writing it would only add a dead record.
    if (event.text.trim() === '') return { records: [], warnings: [] };
    return {
      records: [this.assistantSide({ type: 'text', text: event.text }, event.model, event.usage, 'end_turn', event.timestamp)],
      warnings: [],
    };
  }

  private thinking(event: ThinkingEvent): Mapped {
    if (!event.signature) {
      const warnings = this.warnedUnsigned
        ? []
        : ['unsigned thinking is not written to Claude Code transcripts (the API rejects it on resume); further ones are dropped silently'];
      this.warnedUnsigned = true;
      return { records: [], warnings };
    }
    const block = { type: 'thinking', thinking: event.text, signature: event.signature };
    return { records: [this.assistantSide(block, event.model, undefined, null, event.timestamp)], warnings: [] };
  }

  private toolCall(event: ToolCallEvent): Mapped {
    if (!this.toolIds.has(event.id)) this.addedToolId = event.id;
    this.toolIds.add(event.id);
    const block = { type: 'tool_use', id: event.id, name: event.name, input: event.arguments };
    return { records: [this.assistantSide(block, event.model, event.usage, 'tool_use', event.timestamp)], warnings: [] };
  }

  private toolResult(event: ToolResultEvent): Mapped {
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
    const text = `${header}\n${textOf(event.content)}`;
    const content = images.length === 0
      ? text
      : [{ type: 'text', text }, ...images.map((p) => imageBlock(p as ImageInput))];
    return {
      records: [this.userSide(content, event.timestamp)],
      warnings: [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`],
    };
  }

  private taskId(description: string, given: string | undefined): string {
    if (given !== undefined) return given;
    let id = this.taskIds.get(description);
    if (id === undefined) {
      id = newTaskId();
      this.taskIds.set(description, id);
    }
    return id;
  }

  /**
   * The seed's triple: queue enqueue, queued_command attachment (chain), queue remove. Field order is the
   * one Claude Code writes; the queue operations carry no uuid and leave the chain where it was.
   */
  private notification(xml: string, timestamp: string): ClaudeRecord[] {
    const sessionId = this.options.sessionId;
    const sourceUuid = this.newUuid();
    const deliveryId = this.newUuid();
    const enqueue = { type: 'queue-operation', operation: 'enqueue', timestamp, sessionId, content: xml };
    const uuid = this.newUuid();
    const attachment: ClaudeRecord = {
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
      ...this.common,
    };
    this.parentUuid = uuid;
    const remove = {
      type: 'queue-operation', operation: 'remove', timestamp, sessionId, content: xml,
      reason: 'absorbed_mid_turn', commandUuid: sourceUuid, deliveryId,
    };
    return [enqueue, attachment, remove];
  }

  private monitorEvent(event: MonitorEvent): Mapped {
    const description = event.description ?? 'monitor';
    const taskId = this.taskId(description, event.task_id);
    if (!this.tasksWithOutput.has(taskId)) this.tasksWithOutput.add(taskId);
    const xml = eventNotification(taskId, description, event.event, event.note);
    return { records: this.notification(xml, event.timestamp), warnings: [] };
  }

  private monitorEnd(event: MonitorEndEvent): Mapped {
    const description = event.description ?? 'monitor';
    const taskId = this.taskId(description, event.task_id);
    const outcome = monitorOutcome(event, this.tasksWithOutput.has(taskId));
    const xml = endNotification(taskId, description, outcome);
    return { records: this.notification(xml, event.timestamp), warnings: [] };
  }
}
