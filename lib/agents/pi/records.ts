// Pure mapping from generic events to Pi 0.73.1 session entries (`{type, id, parentId, timestamp, ...}`), the lines
// `pi --session <file>` loads: the header, user and assistant messages (text, toolCall blocks), toolResult messages,
// monitor notifications as custom messages, compactions. Each entry chains onto the one before it (pi continues
// the chain that ends at the file's last line). An assistant message is held until something not the model's
// comes: pi replays each message as one chat message, and a call must sit in the message its results follow.
// Entries are queued until the harness drains them, so the first of a batch can still chain onto what a resuming
// pi appended meanwhile (`chainQueueOnto`).
import { createHash } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ContentPart, ImageInput, ThinkingEvent, ToolCallEvent,
  ToolResultEvent, Usage, UserEvent,
} from '../../events.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import type { QueueingMapper } from '../../session/jsonl-harness.js';
import { RecentMap } from '../../util/recent.js';

/** This writer's format name: the `native.format` of calls it writes as pi recorded them. */
export const FORMAT = 'pi';
/** The Pi version the entries imitate (and were verified against). */
export const PI_VERSION = '0.73.1';
/** The session file version pi 0.73.1 writes (an older one is migrated, and the file rewritten). */
export const SESSION_VERSION = 3;
/** The `customType` of a monitor notification (a custom message: sent to the model as user content, no user turn). */
export const NOTIFICATION_TYPE = 'task-notification';

/** How many tool call ids are remembered (bounded so memory stays flat). */
const MAX_IDS = 100_000;

/** One line of a pi session file. */
export type PiEntry = Record<string, unknown>;

/** Pi's token usage (every assistant message needs one: pi reads `usage.totalTokens` of each on resume). */
export interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * An event's usage in pi's terms. The Messages API's shape (`input_tokens` without the cache reads and writes) and
 * OpenAI's (`input_tokens` with the cached ones, given as `cached_input_tokens` or `input_tokens_details`) are
 * understood; pi's `input` is the input not read from the cache.
 */
export function toPiUsage(usage: Usage | undefined): PiUsage {
  const u = usage ?? {};
  const details = typeof u.input_tokens_details === 'object' && u.input_tokens_details !== null
    ? u.input_tokens_details as Record<string, unknown> : undefined;
  const openAi = u.cached_input_tokens !== undefined || details !== undefined;
  const cacheRead = openAi ? count(u.cached_input_tokens ?? details?.cached_tokens) : count(u.cache_read_input_tokens);
  const cacheWrite = count(openAi ? u.cache_write_input_tokens : u.cache_creation_input_tokens);
  const input = openAi ? Math.max(0, count(u.input_tokens) - cacheRead) : count(u.input_tokens);
  const output = count(u.output_tokens);
  return {
    input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function addUsage(a: PiUsage, b: PiUsage): PiUsage {
  return {
    input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite, totalTokens: a.totalTokens + b.totalTokens, cost: a.cost,
  };
}

function image(part: ImageInput): Record<string, unknown> {
  return { type: 'image', data: part.data, mimeType: part.media_type };
}

function resultContent(content: string | ContentPart[]): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : image(part)));
}

function epochMs(timestamp: string): number {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * The entry ids of a session: 8 hex digits drawn from the session id and a counter, so a later run that maps the
 * same events again (a reopened session) names each entry as the run that wrote it did.
 */
export function entryIds(sessionId: string): () => string {
  let n = 0;
  return () => createHash('sha256').update(`${sessionId}:${n += 1}`).digest('hex').slice(0, 8);
}

export interface PiMapperOptions {
  sessionId: string;
  cwd: string;
  /** The header's time (RFC 3339): the same instant as the file name. */
  startedAt: string;
  /** Extra header fields that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** The model of assistant messages whose events name none. */
  model?: string;
}

/** The assistant message being gathered: its content blocks, summed usage and model. */
interface OpenMessage {
  content: Record<string, unknown>[];
  usage: PiUsage;
  model: string | undefined;
  timestamp: string;
  calls: number;
}

type Once = 'thinking' | 'subagent';

const ONCE_TEXT: Record<Once, string> = {
  thinking: 'thinking is not written to pi sessions (pi sends another model\'s thinking back as text the model said); further thinking is dropped silently',
  subagent: 'events with "agent_id" belong to a subagent session and are not written to this session; further ones are dropped silently',
};

export class PiRecordMapper extends NotifyingMapper<string[]> implements QueueingMapper {
  private nextId: () => string;
  /** The id the next entry chains onto: the last entry of the file (null before the first). */
  private parent: string | null = null;
  private open: OpenMessage | undefined;
  /** Tool call ids of this session, with their tool's name (a toolResult names its tool). */
  private readonly calls = new RecentMap<string, string>(MAX_IDS);
  private readonly said = new Set<Once>();
  /** Entries mapped and not drained yet, in file order. */
  private queue: PiEntry[] = [];
  /** The model the events last named (a reader names it on a response's first event, which may be thinking). */
  private lastModel: string | undefined;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: PiMapperOptions) {
    super();
    this.nextId = entryIds(options.sessionId);
  }

  /** Entries are queued. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** The queued entries, in order (the held assistant message stays held). */
  drain(): PiEntry[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }

  /** The first queued entry chains onto `id` (the last entry another process appended before it is written). */
  chainQueueOnto(id: string): void {
    const first = this.queue[0];
    if (first !== undefined) first.parentId = id;
    else this.parent = id;
  }

  /** The first line of the file: pi ignores (and, opened by path, truncates) a file that does not start with it. */
  header(): PiEntry {
    const { sessionId, cwd, startedAt, provenance } = this.options;
    return { type: 'session', version: SESSION_VERSION, id: sessionId, timestamp: startedAt, cwd, ...(provenance ?? {}) };
  }

  /** The held assistant message, queued (the end of the session, or before what is not the model's). */
  closeOpen(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const model = open.model ?? this.options.model;
    this.entry('message', open.timestamp, {
      message: {
        role: 'assistant', content: open.content, ...(model !== undefined ? { model } : {}), usage: open.usage,
        stopReason: open.calls > 0 ? 'toolUse' : 'stop', timestamp: epochMs(open.timestamp),
      },
    });
  }

  /**
   * Go on in a file an earlier run wrote: what the replay queued and held is that run's (dropped), and the ids
   * drawn from here on are of a stream of their own (`salt`), so none can be one the file holds already, however
   * the replay's draws differ from that run's: a repeated id would make pi's chain a loop.
   */
  continueFile(salt: string): void {
    this.open = undefined;
    this.queue = [];
    this.nextId = entryIds(`${this.options.sessionId}:${salt}`);
  }

  /** Entries after this chain onto `id` (a reopened file's last entry). */
  chainOnto(id: string): void {
    this.parent = id;
  }

  protected subagent(): string[] {
    return this.once('subagent');
  }

  protected nothing(): string[] {
    return [];
  }

  protected thinking(event: ThinkingEvent): string[] {
    if (event.model !== undefined) this.lastModel = event.model;
    // Pi replays thinking as reasoning only to the model (provider and API) that made it; any other's comes back
    // as text the model said. Nothing in an event names the provider and API, so none is written.
    this.fidelity.drop('reasoning', 'pi sends another model\'s thinking as said text');
    return this.once('thinking');
  }



  /** Queue an entry chained onto the one before. */
  private entry(type: string, timestamp: string, fields: Record<string, unknown>): void {
    const id = this.nextId();
    this.queue.push({ type, id, parentId: this.parent, timestamp, ...fields });
    this.parent = id;
  }

  private once(what: Once): string[] {
    if (this.said.has(what)) return [];
    this.said.add(what);
    return [ONCE_TEXT[what]];
  }

  /** A message of the user's side: the held assistant message goes first. */
  private userSide(type: string, timestamp: string, fields: Record<string, unknown>): void {
    this.closeOpen();
    this.entry(type, timestamp, fields);
  }

  /** The open assistant message for model output of `model` (a new one when the model changed). */
  private modelOutput(given: string | undefined, timestamp: string): OpenMessage {
    if (given !== undefined) this.lastModel = given;
    const model = given ?? (this.open === undefined ? this.lastModel : undefined);
    if (this.open !== undefined && model !== undefined && this.open.model !== undefined && this.open.model !== model) this.closeOpen();
    this.open ??= { content: [], usage: toPiUsage(undefined), model, timestamp, calls: 0 };
    this.open.model ??= model;
    return this.open;
  }

  protected user(event: UserEvent): string[] {
    const images = event.images ?? [];
    const blank = event.text.trim() === '';
    if (blank && images.length === 0) return ['user event with empty text not written (the API rejects empty turns)'];
    const content = [...(blank ? [] : [{ type: 'text', text: event.text }]), ...images.map(image)];
    this.userSide('message', event.timestamp, { message: { role: 'user', content, timestamp: epochMs(event.timestamp) } });
    return [];
  }

  protected assistant(event: AssistantEvent): string[] {
    const open = this.modelOutput(event.model, event.timestamp);
    if (event.text.trim() !== '') open.content.push({ type: 'text', text: event.text });
    open.usage = addUsage(open.usage, toPiUsage(event.usage));
    return [];
  }

  protected toolCall(event: ToolCallEvent): string[] {
    // A call that came from a pi session is written as pi recorded it.
    const call = writableCall(event, FORMAT);
    const open = this.modelOutput(event.model, event.timestamp);
    open.content.push({ type: 'toolCall', id: event.id, name: call.name, arguments: call.arguments });
    open.calls += 1;
    open.usage = addUsage(open.usage, toPiUsage(event.usage));
    this.calls.set(event.id, call.name);
    return [];
  }

  protected toolResult(event: ToolResultEvent): string[] {
    const toolName = this.calls.get(event.id);
    if (toolName === undefined) {
      // Pi's chat request has no place for a result that answers no call: kept as user text.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      const content = [{ type: 'text', text: header }, ...resultContent(event.content)];
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      this.userSide('message', event.timestamp, { message: { role: 'user', content, timestamp: epochMs(event.timestamp) } });
      return [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`];
    }
    // The file keeps the flag (pi shows it), but the chat request pi sends has no place for it.
    if (event.is_error) this.fidelity.drop('error_flag', 'pi sends results without an error flag');
    const message = {
      role: 'toolResult', toolCallId: event.id, toolName, content: resultContent(event.content), isError: event.is_error,
      timestamp: epochMs(event.timestamp),
    };
    this.userSide('message', event.timestamp, { message });
    return [];
  }

  /**
   * A monitor notification as the model should see it: the text Claude Code sends for the same event (the "not
   * user input" preamble, then the task-notification XML), in a custom message, which pi sends as user content
   * without making it a user turn (the session's title stays the first thing the user said).
   */
  protected notify(text: string, timestamp: string): string[] {
    const content = [{ type: 'text', text: text }];
    this.userSide('custom_message', timestamp, { customType: NOTIFICATION_TYPE, content, display: true });
    return [];
  }

  /**
   * Pi's own compaction entry: on resume pi sends its summary first, then the entries from `firstKeptEntryId` up
   * to it, then those after it. The compaction keeps nothing before it: `firstKeptEntryId` is its own id.
   */
  protected compaction(event: CompactionEvent): string[] {
    this.closeOpen();
    const id = this.nextId();
    this.queue.push({
      type: 'compaction', id, parentId: this.parent, timestamp: event.timestamp, summary: event.summary,
      firstKeptEntryId: id, tokensBefore: event.pre_tokens ?? 0,
    });
    this.parent = id;
    return [];
  }
}
