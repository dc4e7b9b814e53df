// GitHub Copilot CLI events as input: `copilot-events`, the lines of `session-state/<uuid>/events.jsonl` (1.0.102)
// and the same events as `copilot -p --output-format json` prints them live (where the streaming ones are marked
// `ephemeral` and a last `result` line ends the run). Every line is the envelope `{type, data, id, timestamp,
// parentId}`; the CLI replays a session file in file order, and so is it read: user messages (their images, from
// inline attachments or the file's `session.binary_asset` events), assistant messages (reasoning, text, tool
// requests), tool results (`success` false: an error), compactions; the rest is bookkeeping.
import type { GenericEvent, ImageInput, NativeCall, Usage } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { PRE } from '../../monitor/notification.js';
import { parseMonitorNotification } from '../../monitor/task-notification.js';
import { RecentMap } from '../../util/recent.js';
import { FORMAT } from './records.js';

export const INPUT_FORMAT = 'copilot-events';

type Json = Record<string, unknown>;
type Warn = (message: string) => void;

/** How many binary assets are remembered (an attachment names one written earlier in the file). */
const MAX_ASSETS = 1_000;

/** A Copilot session event: a dotted `type`, a `data` object, a string `id`, a `timestamp`, and the `parentId` key. */
function isSessionEvent(value: unknown): value is Json {
  return isObject(value) && typeof value.type === 'string' && value.type.includes('.') && isObject(value.data)
    && typeof value.id === 'string' && typeof value.timestamp === 'string' && 'parentId' in value;
}

/** The last line `--output-format json` prints: `{type: "result", sessionId, exitCode, usage}`. */
function isRunResult(value: Json): boolean {
  return value.type === 'result' && typeof value.sessionId === 'string' && !('data' in value);
}

/** Copilot's usage record (`inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`) in generic terms. */
function usageOf(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const n = (key: string) => (typeof usage[key] === 'number' && Number.isFinite(usage[key]) ? usage[key] : 0);
  return {
    input_tokens: n('inputTokens'), output_tokens: n('outputTokens'),
    cache_read_input_tokens: n('cacheReadTokens'), cache_creation_input_tokens: n('cacheWriteTokens'),
  };
}

/** A call as the generic tool it becomes, with Copilot's own call as `native` when that is another name or other arguments. */
export function mapCopilotCall(name: string, args: Json): { name: string; arguments: Json; native?: NativeCall } {
  const native = { format: FORMAT, name, arguments: args };
  if (name === 'bash' && typeof args.command === 'string') {
    return { name: 'Bash', arguments: { command: args.command, ...(typeof args.description === 'string' ? { description: args.description } : {}) }, native };
  }
  if (name === 'view' && typeof args.path === 'string') return { name: 'Read', arguments: { file_path: args.path }, native };
  return { name, arguments: args };
}

class CopilotEventsAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private cwd: string | undefined;
  private readonly assets = new RecentMap<string, ImageInput>(MAX_ASSETS);
  /** The usage of the model call whose message comes next (a usage record precedes its message). */
  private usage: Usage | undefined;

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (isObject(value) && isRunResult(value)) return [];
    if (!isSessionEvent(value)) throw new InputError('not a Copilot CLI session event (type, data, id, timestamp, parentId)');
    // Streaming pieces of what a later whole event carries, and the run's own notices.
    if (value.ephemeral === true) return [];
    const data = value.data as Json;
    const timestamp = this.timeOf(value.timestamp, now);
    switch (value.type) {
      case 'session.start':
      case 'session.resume': {
        const cwd = isObject(data.context) ? data.context.cwd : undefined;
        if (this.cwd === undefined && typeof cwd === 'string' && cwd.startsWith('/')) this.cwd = cwd;
        return [];
      }
      case 'session.binary_asset':
        if (typeof data.assetId === 'string' && typeof data.data === 'string' && typeof data.mimeType === 'string') {
          this.assets.set(data.assetId, { media_type: data.mimeType, data: data.data });
        }
        return [];
      case 'session.usage_record':
        this.usage = usageOf(isObject(data.usage) ? data.usage : undefined);
        return [];
      case 'user.message':
        return this.user(data, timestamp, warn);
      case 'assistant.message':
        return this.assistant(data, timestamp);
      case 'tool.execution_complete':
        return this.result(data, timestamp);
      case 'session.compaction_complete':
        if (data.success !== true || typeof data.summaryContent !== 'string') return [];
        return [{ type: 'compaction', summary: data.summaryContent, ...(typeof data.preCompactionTokens === 'number' ? { pre_tokens: data.preCompactionTokens } : {}), timestamp }];
      default:
        return []; // bookkeeping: turns, usage, the system prompt the CLI makes again, tool progress
    }
  }

  end(): GenericEvent[] {
    return [];
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  private timeOf(value: unknown, now: string): string {
    try {
      return resolveTimestamp(value, now);
    } catch {
      return now;
    }
  }

  /** An attachment's image: inline `data`, or the binary asset it names; undefined when it is no image. */
  private image(attachment: Json, warn: Warn): ImageInput | undefined {
    const mime = attachment.mimeType;
    if (typeof mime !== 'string' || !mime.startsWith('image/')) return undefined;
    if (typeof attachment.data === 'string') return { media_type: mime, data: attachment.data };
    if (typeof attachment.assetId === 'string') {
      const asset = this.assets.get(attachment.assetId);
      if (asset !== undefined) return asset;
      warn(`attachment asset ${JSON.stringify(attachment.assetId)} is not in the session: the image is left out`);
    }
    return undefined;
  }

  private user(data: Json, timestamp: string, warn: Warn): GenericEvent[] {
    const said = typeof data.content === 'string' ? data.content : '';
    const images = (Array.isArray(data.attachments) ? data.attachments : []).filter(isObject)
      .map((a) => this.image(a, warn)).filter((i): i is ImageInput => i !== undefined);
    if (images.length === 0 && said.startsWith(`${PRE}\n\n`)) {
      const parsed = parseMonitorNotification(said.slice(PRE.length + 2));
      if (parsed?.kind === 'event') {
        return [{ type: 'monitor_event', event: parsed.event, description: parsed.description, task_id: parsed.taskId, ...(parsed.note !== undefined ? { note: parsed.note } : {}), timestamp }];
      }
      if (parsed?.kind === 'end') {
        return [{ type: 'monitor_end', exit_code: parsed.exitCode, description: parsed.description, task_id: parsed.taskId, ...(parsed.stopped ? { stopped: true } : {}), timestamp }];
      }
    }
    if (said.trim() === '' && images.length === 0) return [];
    return [{ type: 'user', text: said, ...(images.length > 0 ? { images } : {}), timestamp }];
  }

  private assistant(data: Json, timestamp: string): GenericEvent[] {
    const model = text(data, 'model');
    const named = model !== undefined && model !== '' ? { model } : {};
    let usage = this.usage;
    this.usage = undefined;
    const out: GenericEvent[] = [];
    if (typeof data.reasoningText === 'string' && data.reasoningText.trim() !== '') out.push({ type: 'thinking', text: data.reasoningText, ...named, timestamp });
    if (typeof data.content === 'string' && data.content.trim() !== '') {
      out.push({ type: 'assistant', text: data.content, ...named, ...(usage ? { usage } : {}), timestamp });
      usage = undefined;
    }
    for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
      if (!isObject(request) || typeof request.toolCallId !== 'string' || typeof request.name !== 'string') continue;
      const call = mapCopilotCall(request.name, isObject(request.arguments) ? request.arguments : {});
      out.push({ type: 'tool_call', id: request.toolCallId, ...call, ...named, ...(usage ? { usage } : {}), timestamp });
      usage = undefined;
    }
    return out;
  }

  private result(data: Json, timestamp: string): GenericEvent[] {
    const id = text(data, 'toolCallId');
    if (id === undefined || id === '') return [];
    const failed = data.success !== true;
    const result = isObject(data.result) ? data.result : undefined;
    const error = isObject(data.error) ? data.error : undefined;
    const said = failed && error !== undefined && typeof error.message === 'string' ? error.message
      : result !== undefined && typeof result.content === 'string' ? result.content : '';
    return [{ type: 'tool_result', id, content: said, is_error: failed, timestamp }];
  }
}

export const copilotEvents: InputFormat = {
  name: INPUT_FORMAT,
  detect: isSessionEvent,
  create: () => new CopilotEventsAdapter(),
};
