// Pi session files (`~/.pi/agent/sessions/--<cwd>--/*.jsonl`, pi 0.73.1) as input: recognised by their header
// (`{"type":"session","id":...}`). A session is a tree; pi continues the chain that ends at the file's last entry,
// so the entries are held (only the fields read) and that chain comes out of `end()`, as pi sends it: a compaction's
// summary replaces what is before its first kept entry. pi's own tools (`bash {command}`, `read {path}`, ...) become
// the generic ones, keeping pi's call as `native`. `pi --mode json -p` prints the same header first, then its
// agent events: a stream whose next line is one of those is read live, each message as its `message_end` comes.
import type { ContentPart, GenericEvent, ImageInput, NativeCall, Usage } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { isObject, text, WarnOnce } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';
import { PRE } from '../../monitor/notification.js';
import { parseMonitorNotification } from '../../monitor/task-notification.js';
import { FORMAT, NOTIFICATION_TYPE } from './records.js';

/** The input format name of pi session files. */
export const INPUT_FORMAT = 'pi-session';

type Warn = (message: string) => void;

/** Entry types that hold nothing the model is sent (settings, bookkeeping, extension state). */
const QUIET_TYPES = new Set(['model_change', 'thinking_level_change', 'label', 'session_info', 'custom']);
const KNOWN_TYPES = new Set([...QUIET_TYPES, 'message', 'compaction', 'branch_summary', 'custom_message']);
/** The agent events of `pi --mode json` (after the header): only `message_end` carries a whole message. */
const LIVE_TYPES = new Set([
  'agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update', 'message_end',
  'tool_execution_start', 'tool_execution_update', 'tool_execution_end',
]);

/** The fields of an entry the mapping reads. */
const KEPT_FIELDS = ['type', 'id', 'parentId', 'timestamp', 'message', 'summary', 'firstKeptEntryId', 'tokensBefore', 'customType', 'content'] as const;

function slim(entry: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_FIELDS) if (entry[key] !== undefined) kept[key] = entry[key];
  return kept;
}

/** Pi's usage (`{input, output, cacheRead, cacheWrite}`) in the Messages API's terms, or undefined. */
export function fromPiUsage(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const n = (key: string) => (typeof usage[key] === 'number' ? usage[key] : 0);
  return {
    input_tokens: n('input'), output_tokens: n('output'),
    cache_read_input_tokens: n('cacheRead'), cache_creation_input_tokens: n('cacheWrite'),
  };
}

/** A call as the generic tool it becomes, with pi's own call as `native` when that is another name or other arguments. */
export function mapPiCall(name: string, args: Record<string, unknown>): { name: string; arguments: Record<string, unknown>; native?: NativeCall } {
  const renamed = (generic: string, genericArgs: Record<string, unknown>) => (
    { name: generic, arguments: genericArgs, native: { format: FORMAT, name, arguments: args } }
  );
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (name === 'bash' && typeof args.command === 'string') {
    return renamed('Bash', { command: args.command, ...(typeof args.timeout === 'number' ? { timeout: args.timeout * 1000 } : {}) });
  }
  if (name === 'read' && path !== undefined) {
    return renamed('Read', { file_path: path, ...(typeof args.offset === 'number' ? { offset: args.offset } : {}), ...(typeof args.limit === 'number' ? { limit: args.limit } : {}) });
  }
  if (name === 'write' && path !== undefined && typeof args.content === 'string') return renamed('Write', { file_path: path, content: args.content });
  if (name === 'edit' && path !== undefined && Array.isArray(args.edits)) {
    const edits = args.edits.filter(isObject).map((e) => ({ old_string: text(e, 'oldText') ?? '', new_string: text(e, 'newText') ?? '' }));
    if (edits.length === 1) return renamed('Edit', { file_path: path, ...edits[0]! });
    return renamed('MultiEdit', { file_path: path, edits });
  }
  return { name, arguments: args };
}

function piImage(part: Record<string, unknown>): ImageInput | undefined {
  const data = text(part, 'data');
  const mediaType = text(part, 'mimeType');
  return data !== undefined && mediaType !== undefined && mediaType !== '' ? { media_type: mediaType, data } : undefined;
}

/** A user-side content (a string, or text and image blocks): its text parts joined, and its images. */
function userContent(content: unknown): { text: string; images: ImageInput[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: ImageInput[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'image') {
      const image = piImage(part);
      if (image) images.push(image);
    }
  }
  return { text: texts.join('\n'), images };
}

function resultContent(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  const parts: ContentPart[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image') {
      const image = piImage(part);
      if (image) parts.push({ type: 'image', ...image });
    }
  }
  // A result of one text block is that text, as the other readers give it.
  return parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : parts;
}

/** How a pi session is read: by default the chain pi continues (from the file's last entry). */
export interface PiReadOptions {
  /** The entry the chain is read back from instead (`read --branch`). */
  leaf?: string;
}

export class PiSessionAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private cwd: string | undefined;
  private held: Record<string, unknown>[] = [];
  private readonly once = new WarnOnce();
  private seenHeader = false;
  /** Undefined until the first line after the header says: `pi --mode json` events (true) or session entries. */
  private live: boolean | undefined;
  private readonly earlier: string[][] = [];

  constructor(private readonly options: PiReadOptions = {}) {}

  /** Whether an entry of id `id` was read (a `--branch` leaf must be one). */
  hasEntry(id: string): boolean {
    return this.held.some((entry) => entry.id === id);
  }

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') throw new InputError('expected a pi session entry (an object with a string "type")');
    if (value.type === 'session') {
      if (!this.seenHeader) this.cwd = text(value, 'cwd');
      this.seenHeader = true;
      return [];
    }
    this.live ??= LIVE_TYPES.has(value.type);
    if (this.live) {
      const out: GenericEvent[] = [];
      if (value.type === 'message_end' && isObject(value.message)) this.message(value.message, this.time(value, now), warn, out);
      return out;
    }
    if (!KNOWN_TYPES.has(value.type)) {
      this.once.warn(`type:${value.type}`, `unknown pi entry type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
      return [];
    }
    if (typeof value.id !== 'string') throw new InputError('a pi session entry needs a string "id"');
    this.held.push(slim(value));
    return [];
  }

  end(now: string, warn: Warn): GenericEvent[] {
    const path = this.branch();
    const out: GenericEvent[] = [];
    const at = path.findLastIndex((entry) => entry.type === 'compaction');
    if (at < 0) {
      for (const entry of path) this.entry(entry, now, warn, out);
      return out;
    }
    // What pi sends: the summary, then the entries from the first kept one up to the compaction, then the rest.
    const compaction = path[at]!;
    const kept = path.findIndex((entry, i) => i < at && entry.id === compaction.firstKeptEntryId);
    const before = kept < 0 ? at : kept;
    for (const entry of path.slice(0, before)) this.entry(entry, now, warn, out);
    out.push({ type: 'compaction', summary: typeof compaction.summary === 'string' ? compaction.summary : '', trigger: 'auto',
      ...(typeof compaction.tokensBefore === 'number' ? { pre_tokens: compaction.tokensBefore } : {}), timestamp: this.time(compaction, now) });
    for (const entry of [...path.slice(before, at), ...path.slice(at + 1)]) {
      // An earlier compaction inside what a later one keeps was already summarised by it.
      if (entry.type !== 'compaction') this.entry(entry, now, warn, out);
    }
    return out;
  }

  /** Incremental convert: the ids of the branch an earlier conversion read, at its end. */
  earlierEnd(): void {
    this.earlier.push(this.branch().map((entry) => entry.id as string));
  }

  /**
   * Whether the events now are the earlier conversion's followed by more: its branch is where the branch now
   * starts, and no compaction since keeps entries of it (pi would then send them after the summary).
   */
  extendsEarlier(): boolean {
    const path = this.branch();
    return this.earlier.every((ids) => {
      if (!ids.every((id, i) => path[i]?.id === id)) return false;
      return path.every((entry, at) => {
        if (at < ids.length || entry.type !== 'compaction') return true;
        const kept = path.findIndex((e, i) => i < at && e.id === entry.firstKeptEntryId);
        return kept < 0 || kept >= ids.length;
      });
    });
  }

  facts(): SessionFacts {
    return this.cwd !== undefined && this.cwd !== '' ? { cwd: this.cwd } : {};
  }

  /**
   * The chain from the last entry (or the leaf asked for) back through `parentId`, first entry first (as pi's
   * buildSessionContext).
   */
  private branch(): Record<string, unknown>[] {
    const byId = new Map<string, Record<string, unknown>>();
    for (const entry of this.held) byId.set(entry.id as string, entry);
    const path: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    let current = this.options.leaf !== undefined ? byId.get(this.options.leaf) : this.held.at(-1);
    while (current !== undefined && !seen.has(current.id as string)) {
      seen.add(current.id as string);
      path.push(current);
      current = typeof current.parentId === 'string' ? byId.get(current.parentId) : undefined;
    }
    return path.reverse();
  }

  private time(entry: Record<string, unknown>, now: string): string {
    const message = isObject(entry.message) ? entry.message : {};
    for (const candidate of [entry.timestamp, message.timestamp]) {
      try {
        if (candidate !== undefined) return resolveTimestamp(candidate, now);
      } catch {
        // a bad time: try the other
      }
    }
    return now;
  }

  private entry(entry: Record<string, unknown>, now: string, warn: Warn, out: GenericEvent[]): void {
    const timestamp = this.time(entry, now);
    switch (entry.type) {
      case 'message':
        if (isObject(entry.message)) this.message(entry.message, timestamp, warn, out);
        return;
      case 'custom_message':
        this.custom(entry.customType, entry.content, timestamp, out);
        return;
      case 'branch_summary':
        out.push({ type: 'context', kind: 'branch_summary', text: typeof entry.summary === 'string' ? entry.summary : '', timestamp });
        return;
      default:
        return; // settings and bookkeeping
    }
  }

  /** A custom message: a monitor notification of ours back as its monitor event, any other as context. */
  private custom(customType: unknown, content: unknown, timestamp: string, out: GenericEvent[]): void {
    const said = userContent(content).text;
    if (customType === NOTIFICATION_TYPE && said.startsWith(`${PRE}\n\n`)) {
      const parsed = parseMonitorNotification(said.slice(PRE.length + 2));
      if (parsed?.kind === 'event') {
        out.push({ type: 'monitor_event', event: parsed.event, description: parsed.description, task_id: parsed.taskId, ...(parsed.note !== undefined ? { note: parsed.note } : {}), timestamp });
        return;
      }
      if (parsed?.kind === 'end') {
        out.push({ type: 'monitor_end', exit_code: parsed.exitCode, description: parsed.description, task_id: parsed.taskId, ...(parsed.stopped ? { stopped: true } : {}), timestamp });
        return;
      }
    }
    out.push({ type: 'context', kind: 'custom_message', ...(typeof customType === 'string' ? { subtype: customType } : {}), text: said, timestamp });
  }

  private message(message: Record<string, unknown>, timestamp: string, warn: Warn, out: GenericEvent[]): void {
    switch (message.role) {
      case 'user': {
        const { text: said, images } = userContent(message.content);
        if (said.trim() !== '' || images.length > 0) out.push({ type: 'user', text: said, ...(images.length > 0 ? { images } : {}), timestamp });
        return;
      }
      case 'assistant':
        this.assistant(message, timestamp, warn, out);
        return;
      case 'toolResult': {
        const id = text(message, 'toolCallId');
        if (id === undefined || id === '') return;
        out.push({ type: 'tool_result', id, content: resultContent(message.content), is_error: message.isError === true, timestamp });
        return;
      }
      case 'custom':
        this.custom(message.customType, message.content, timestamp, out);
        return;
      default:
        // bashExecution, branchSummary, compactionSummary: pi's own context.
        out.push({ type: 'context', kind: String(message.role ?? 'unknown'), timestamp });
    }
  }

  private assistant(message: Record<string, unknown>, timestamp: string, warn: Warn, out: GenericEvent[]): void {
    // Pi drops a failed or aborted response when it replays the session.
    if (message.stopReason === 'error' || message.stopReason === 'aborted') {
      this.once.warn('failed', `a pi response that ${message.stopReason === 'error' ? 'failed' : 'was aborted'} is left out, as pi leaves it out on resume (further ones silently)`, warn);
      return;
    }
    const model = text(message, 'model');
    let usage = fromPiUsage(message.usage);
    let first = true;
    const stamp = () => {
      const extra = { ...(first && model !== undefined ? { model } : {}) };
      first = false;
      return extra;
    };
    const withUsage = () => {
      const extra = usage !== undefined ? { usage } : {};
      usage = undefined;
      return extra;
    };
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (!isObject(block)) continue;
      if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') {
        out.push({ type: 'thinking', text: block.thinking, ...stamp(), timestamp });
      } else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
        out.push({ type: 'assistant', text: block.text, ...stamp(), ...withUsage(), timestamp });
      } else if (block.type === 'toolCall') {
        const id = text(block, 'id');
        if (id === undefined || id === '') continue;
        const mapped = mapPiCall(text(block, 'name') || 'tool', isObject(block.arguments) ? block.arguments : {});
        out.push({ type: 'tool_call', id, name: mapped.name, arguments: mapped.arguments, ...(mapped.native ? { native: mapped.native } : {}), ...stamp(), ...withUsage(), timestamp });
      }
    }
  }
}

/** Pi session files: recognised by their header line. */
export const piSession: InputFormat = {
  name: INPUT_FORMAT,
  detect: (value) => isObject(value) && value.type === 'session' && typeof value.id === 'string',
  create: () => new PiSessionAdapter(),
};
