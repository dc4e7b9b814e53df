// Maps one Claude Code record to generic events: the inverse of the harness's records.ts. Pure apart from
// an injected spill resolver; state is what spans records: which responses already gave their model and
// usage (responses.ts), a compaction boundary waiting for its summary, and which warnings were already given.
import {
  resolveTimestamp, type CompactionEvent, type ContentPart, type ContextEvent, type GenericEvent, type ImageInput,
  type ToolResultEvent, type Usage,
} from '../../../events.js';
import { ResponseLedger } from './responses.js';
import { attachmentText, imageOf, isObject, SYNTHETIC_MODEL, textBlocks } from './record-types.js';
import { SPILL, SPILL_PHRASE, type SpillRead } from './spill.js';
import type { JsonSource } from '../../../json/raw-json.js';
import { parseMonitorNotification } from '../../../monitor/task-notification.js';

export interface TranscriptEventMapperOptions {
  /** Also emit `context` events (system and attachment records, meta user records, synthetic messages). */
  includeEvents?: boolean;
  /** Mark every event as a subagent's (`agent_id`). */
  agentId?: string;
  /** Resolve a spilled-output pointer; without it pointers are left as they are. */
  resolveSpill?: (path: string) => SpillRead;
  /** Timestamp for events whose record has none before any record had one. */
  now?: string;
  /**
   * Map a stretch of the branch without knowing what came before it (a worker thread's share, see
   * worker-pool.ts): which events get their response's model and usage is left to `resolveResponse` on
   * the mapper that knows (see `deferredResponse`), and a once-only warning is handed over with its key.
   */
  deferred?: { anonymousPrefix: string };
}

/** Reports a problem with the record being mapped; `onceKey` is set when the warning is given once per key. */
type Warn = (message: string, onceKey?: string) => void;

/** The state that spans records, handed from one stretch of the branch to the next. */
export interface MapperCarry {
  lastTimestamp?: string;
  boundary?: PendingBoundary;
}

interface PendingBoundary {
  timestamp: string;
  trigger?: string;
  preTokens?: number;
}

/**
 * Maps the records of one branch, in file order, to generic events (the second pass): the reader's direction,
 * records -> events (the writer's ClaudeRecordMapper goes events -> records).
 */
export class TranscriptEventMapper {
  private lastTimestamp: string | undefined;
  /** Which responses already gave their model, and how much of their usage. */
  private readonly responses = new ResponseLedger();
  private boundary: PendingBoundary | undefined;
  private readonly warned = new Set<string>();
  private anonymous = 0;
  /** A record's time fell back on the time before this mapper's first record (deferred mapping). */
  leanedOnStart = false;
  /** The source of the huge record being mapped, if it is one. */
  private source: JsonSource | undefined;

  constructor(private readonly options: TranscriptEventMapperOptions = {}) {}

  /**
   * The events of one record on the branch being read. `source`: the record was parsed piecewise from a huge
   * line (see parseHugeRecord): its long strings are looked at through their raw bytes, not flattened.
   */
  map(record: Record<string, unknown>, warn: Warn, source?: JsonSource): GenericEvent[] {
    this.source = source;
    try {
      return this.mapRecord(record, warn);
    } finally {
      this.source = undefined;
    }
  }

  private mapRecord(record: Record<string, unknown>, warn: Warn): GenericEvent[] {
    const timestamp = this.timestamp(record);
    const out: GenericEvent[] = [];
    if (record.type === 'system' && record.subtype === 'compact_boundary') {
      this.flushBoundary(out);
      const meta = isObject(record.compactMetadata) ? record.compactMetadata : {};
      this.boundary = { timestamp };
      if (typeof meta.trigger === 'string') this.boundary.trigger = meta.trigger;
      if (typeof meta.preTokens === 'number' && Number.isInteger(meta.preTokens) && meta.preTokens >= 0) this.boundary.preTokens = meta.preTokens;
      return this.mark(out);
    }
    if (record.type === 'user' && record.isCompactSummary === true) {
      const message = isObject(record.message) ? record.message : {};
      out.push(this.compaction(textBlocks(message.content) ?? '', this.boundary?.timestamp ?? timestamp));
      this.boundary = undefined;
      return this.mark(out);
    }
    this.flushBoundary(out);
    switch (record.type) {
      case 'user': this.user(record, timestamp, out, warn); break;
      case 'assistant': this.assistant(record, timestamp, out, warn); break;
      case 'system': this.context(out, 'system', timestamp, typeof record.subtype === 'string' ? record.subtype : undefined,
        typeof record.content === 'string' ? record.content : undefined); break;
      case 'attachment': this.attachment(record, timestamp, out, warn); break;
      default: break;
    }
    return this.mark(out);
  }

  /** Events still held when the branch ends (a boundary whose summary never came). */
  end(): GenericEvent[] {
    const out: GenericEvent[] = [];
    this.flushBoundary(out);
    return this.mark(out);
  }

  /** The state that spans records: what the next stretch must start from. */
  carry(): MapperCarry {
    return {
      ...(this.lastTimestamp !== undefined ? { lastTimestamp: this.lastTimestamp } : {}),
      ...(this.boundary !== undefined ? { boundary: this.boundary } : {}),
    };
  }

  /** Take on the state a stretch mapped elsewhere ended with (its model and usage were resolved here). */
  adopt(carry: MapperCarry): void {
    if (carry.lastTimestamp !== undefined) this.lastTimestamp = carry.lastTimestamp;
    this.boundary = carry.boundary;
  }

  /** A compaction boundary is waiting for its summary (the next record decides what it becomes). */
  get boundaryPending(): boolean {
    return this.boundary !== undefined;
  }

  /** In branch order, what an event a deferred mapper made carries of its response (see ResponseLedger.resolve). */
  resolveResponse(id: string, hasModel: boolean, usageFill: string): { model: boolean; usage: string } {
    return this.responses.resolve(id, hasModel, usageFill);
  }

  /** A once-only warning a deferred mapper handed over, given here unless it was given before. */
  warnOnce(key: string, message: string, warn: (message: string) => void): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    warn(`${message} (reported once)`);
  }

  private mark(events: GenericEvent[]): GenericEvent[] {
    if (this.options.agentId !== undefined) for (const event of events) event.agent_id = this.options.agentId;
    return events;
  }

  private timestamp(record: Record<string, unknown>): string {
    try {
      if (typeof record.timestamp === 'string') {
        this.lastTimestamp = resolveTimestamp(record.timestamp, '');
        return this.lastTimestamp;
      }
    } catch {
      // Not a usable time: the previous record's stands in.
    }
    if (this.lastTimestamp === undefined) this.leanedOnStart = true;
    return this.lastTimestamp ?? this.options.now ?? new Date().toISOString();
  }

  private once(key: string, message: string, warn: Warn): void {
    if (this.options.deferred) {
      warn(message, key);
      return;
    }
    this.warnOnce(key, message, warn);
  }

  private compaction(summary: string, timestamp: string): CompactionEvent {
    const event: CompactionEvent = { type: 'compaction', summary, timestamp };
    if (this.boundary?.trigger !== undefined) event.trigger = this.boundary.trigger;
    if (this.boundary?.preTokens !== undefined) event.pre_tokens = this.boundary.preTokens;
    return event;
  }

  private flushBoundary(out: GenericEvent[]): void {
    if (this.boundary === undefined) return;
    out.push(this.compaction('', this.boundary.timestamp));
    this.boundary = undefined;
  }

  private context(out: GenericEvent[], kind: string, timestamp: string, subtype?: string, text?: string, data?: Record<string, unknown>): void {
    if (!this.options.includeEvents) return;
    const event: ContextEvent = {
      type: 'context',
      kind,
      ...(subtype !== undefined ? { subtype } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(data !== undefined ? { data } : {}),
      timestamp,
    };
    out.push(event);
  }

  /** A Monitor notification (queued mid-turn as an attachment, or between turns as a user record). */
  private monitor(xml: string, timestamp: string, out: GenericEvent[]): boolean {
    const parsed = parseMonitorNotification(xml);
    if (!parsed) return false;
    if (parsed.kind === 'event') {
      out.push({
        type: 'monitor_event', event: parsed.event, description: parsed.description, task_id: parsed.taskId,
        ...(parsed.note !== undefined ? { note: parsed.note } : {}), timestamp,
      });
    } else {
      out.push({
        type: 'monitor_end', exit_code: parsed.exitCode, description: parsed.description, task_id: parsed.taskId,
        ...(parsed.stopped ? { stopped: true } : {}), timestamp,
      });
    }
    return true;
  }

  private user(record: Record<string, unknown>, timestamp: string, out: GenericEvent[], warn: Warn): void {
    const message = isObject(record.message) ? record.message : undefined;
    const content = message?.content;
    if (record.isMeta === true) {
      this.context(out, 'meta', timestamp, undefined, textBlocks(content));
      return;
    }
    if (typeof content === 'string') {
      if (this.startsWith(content, '<task-notification>') && this.monitor(content, timestamp, out)) return;
      out.push({ type: 'user', text: content, timestamp });
      return;
    }
    if (!Array.isArray(content)) {
      this.once('user-content', 'a user record without message content was skipped', warn);
      return;
    }
    let texts: string[] = [];
    let images: ImageInput[] = [];
    const flush = () => {
      if (texts.length === 0 && images.length === 0) return;
      out.push({ type: 'user', text: texts.join('\n'), ...(images.length > 0 ? { images } : {}), timestamp });
      texts = [];
      images = [];
    };
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text);
      } else if (block.type === 'image') {
        const image = imageOf(block);
        if (image) images.push(image);
        else this.once('user-image', 'an image without base64 data was skipped', warn);
      } else if (block.type === 'tool_result') {
        flush();
        const result = this.toolResult(block, timestamp, warn);
        if (result) out.push(result);
      } else {
        this.once(`user-part:${String(block.type)}`, `user content of type ${JSON.stringify(block.type)} has no generic event; skipped`, warn);
      }
    }
    flush();
  }

  private toolResult(block: Record<string, unknown>, timestamp: string, warn: Warn): ToolResultEvent | undefined {
    if (typeof block.tool_use_id !== 'string' || block.tool_use_id === '') {
      this.once('result-id', 'a tool_result without tool_use_id was skipped', warn);
      return undefined;
    }
    let content: string | ContentPart[];
    if (typeof block.content === 'string') {
      content = this.unspill(block.content, warn);
    } else if (Array.isArray(block.content)) {
      content = [];
      for (const part of block.content) {
        if (!isObject(part)) continue;
        if (part.type === 'text' && typeof part.text === 'string') {
          content.push({ type: 'text', text: this.unspill(part.text, warn) });
        } else if (part.type === 'image') {
          const image = imageOf(part);
          if (image) content.push({ type: 'image', ...image });
          else this.once('result-image', 'a tool_result image without base64 data was skipped', warn);
        } else {
          this.once(`result-part:${String(part.type)}`, `tool_result content of type ${JSON.stringify(part.type)} has no generic part; skipped`, warn);
        }
      }
    } else {
      content = '';
    }
    return { type: 'tool_result', id: block.tool_use_id, content, is_error: block.is_error === true, timestamp };
  }

  /** The spilled output a pointer names, or the pointer itself (with a warning) when it cannot be read. */
  private unspill(text: string, warn: Warn): string {
    const resolve = this.options.resolveSpill;
    if (!resolve || this.source?.mayHold(text, SPILL_PHRASE) === false) return text;
    const match = SPILL.exec(text);
    if (!match) return text;
    const path = match[1]!;
    const read = resolve(path);
    if (read.ok) return read.text;
    // A planted link may stand for every spill of the session: reported once, not once per pointer.
    if (read.link !== undefined) this.once(`spill-link:${read.link}`, `spilled output ${path} is not read: ${read.reason}; the pointer is kept`, warn);
    else warn(`spilled output ${path} is ${read.reason}; the pointer is kept`);
    return text;
  }

  // Tests on strings that may be a huge record's ropes: a look at the whole string would flatten it.

  private startsWith(text: string, prefix: string): boolean {
    return (this.source?.head(text, prefix.length) ?? text).startsWith(prefix);
  }

  /** All white space (what `trim` removes), or empty. */
  private blank(text: string): boolean {
    const head = this.source?.head(text, 1);
    if (head !== undefined && /^\S/.test(head)) return false;
    return text.trim() === '';
  }

  private assistant(record: Record<string, unknown>, timestamp: string, out: GenericEvent[], warn: Warn): void {
    const message = isObject(record.message) ? record.message : undefined;
    if (!message || !Array.isArray(message.content)) {
      this.once('assistant-content', 'an assistant record without message content was skipped', warn);
      return;
    }
    const model = typeof message.model === 'string' ? message.model : undefined;
    if (model === SYNTHETIC_MODEL || record.isApiErrorMessage === true) {
      // Claude Code's own words (API errors, "No response requested."), not the model's.
      this.context(out, 'synthetic', timestamp, record.isApiErrorMessage === true ? 'api_error' : undefined, textBlocks(message.content));
      return;
    }
    const id = typeof message.id === 'string' && message.id !== ''
      ? message.id : `\u0000${this.options.deferred?.anonymousPrefix ?? ''}${(this.anonymous += 1)}`;
    for (const block of message.content) {
      if (!isObject(block)) continue;
      switch (block.type) {
        case 'text': {
          // Claude Code drops empty assistant text on load; model and usage go to the next block instead.
          if (typeof block.text !== 'string' || this.blank(block.text)) break;
          out.push(this.withResponse({ type: 'assistant', text: block.text, timestamp }, id, model, message.usage));
          break;
        }
        case 'thinking': {
          if (typeof block.thinking !== 'string') break;
          out.push(this.withResponse({
            type: 'thinking', text: block.thinking,
            ...(typeof block.signature === 'string' && block.signature !== '' ? { signature: block.signature } : {}),
            timestamp,
          }, id, model, undefined));
          break;
        }
        case 'tool_use': {
          if (typeof block.id !== 'string' || block.id === '' || typeof block.name !== 'string' || block.name === '') {
            this.once('tool-use', 'a tool_use without id or name was skipped', warn);
            break;
          }
          if (!isObject(block.input) && block.input !== undefined) {
            this.once('tool-input', 'a tool_use whose input is not an object is read with empty arguments', warn);
          }
          const args = isObject(block.input) ? block.input : {};
          out.push(this.withResponse({ type: 'tool_call', id: block.id, name: block.name, arguments: args, timestamp }, id, model, message.usage));
          break;
        }
        default:
          this.once(`assistant-part:${String(block.type)}`, `assistant content of type ${JSON.stringify(block.type)} has no generic event; skipped`, warn);
      }
    }
  }

  /** `event` with its response's model and usage as the ledger gives them (see ResponseLedger.attach). */
  private withResponse<E extends GenericEvent & { model?: string; usage?: Usage }>(event: E, id: string, model: string | undefined, usage: unknown): E {
    return this.responses.attach(event, id, model, usage, this.options.deferred !== undefined);
  }

  /** A record whose attachment is a queued Monitor notification, or other context. */
  private attachment(record: Record<string, unknown>, timestamp: string, out: GenericEvent[], warn: Warn): void {
    const attachment = isObject(record.attachment) ? record.attachment : {};
    if (attachment.type === 'queued_command' && attachment.commandMode === 'task-notification'
      && typeof attachment.prompt === 'string' && this.monitor(attachment.prompt, timestamp, out)) {
      return;
    }
    if (!this.options.includeEvents) return;
    const text = attachmentText(record, attachment);
    // Claude Code spills big hook and command output from attachments too: read as a tool result's spill is.
    this.context(out, 'attachment', timestamp, typeof attachment.type === 'string' ? attachment.type : undefined,
      text !== undefined ? this.unspill(text, warn) : undefined);
  }
}
