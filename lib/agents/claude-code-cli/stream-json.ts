// Input adapter for `claude -p --output-format stream-json --verbose` (Claude Code 2.1.328): assistant and
// user lines in, generic events out. Subagent lines become events marked with their agent_id (harnesses
// keep them out of the main conversation); API errors and the final result are reported, never turns.
import type { ContentPart, GenericEvent, ImageInput } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { WarnOnce, isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';

type Warn = (message: string) => void;

const LINE_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event']);

/** System lines that describe the run, not the conversation (init is read for its cwd). */
const SYSTEM_SUBTYPES = new Set([
  'init', 'status', 'thinking_tokens', 'api_retry', 'compact_boundary', 'task_started', 'task_progress', 'task_updated',
  'task_notification', 'background_tasks_changed', 'hook_started', 'hook_progress', 'hook_response', 'informational',
]);

function image(block: Record<string, unknown>): ImageInput | undefined {
  const source = isObject(block.source) ? block.source : undefined;
  if (!source || source.type !== 'base64' || typeof source.media_type !== 'string' || typeof source.data !== 'string') return undefined;
  return { media_type: source.media_type, data: source.data };
}

class ClaudeStreamJsonAdapter implements InputAdapter {
  readonly format = 'claude-stream-json';
  private cwd: string | undefined;
  /** The message.id whose usage went out last: every block line of a response repeats it. */
  private lastUsageMessage: string | undefined;
  private readonly once = new WarnOnce();

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') {
      throw new InputError('expected a claude stream-json line (an object with a string "type")');
    }
    let timestamp: string;
    try {
      timestamp = resolveTimestamp(value.timestamp, now);
    } catch (error) {
      throw new InputError((error as Error).message);
    }
    switch (value.type) {
      case 'system':
        return this.system(value, warn);
      case 'assistant':
        return this.subagent(value, this.assistant(value, timestamp, warn));
      case 'user':
        return this.subagent(value, this.user(value, timestamp, warn));
      case 'result':
        this.result(value, warn);
        return [];
      case 'stream_event':
        // Partial deltas (--include-partial-messages): the complete assistant line follows each block.
        return [];
      default:
        this.once.warn(`type:${value.type}`, `unknown claude stream-json line type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
        return [];
    }
  }

  end(): GenericEvent[] {
    return [];
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  private system(line: Record<string, unknown>, warn: Warn): GenericEvent[] {
    const subtype = text(line, 'subtype') ?? '';
    if (subtype === 'init') this.cwd ??= text(line, 'cwd');
    else if (!SYSTEM_SUBTYPES.has(subtype)) {
      this.once.warn(`system:${subtype}`, `unknown claude stream-json system subtype ${previewValue(subtype)}; skipped (further ones silently)`, warn);
    }
    return [];
  }

  /**
   * A subagent's line (parent_tool_use_id set) is marked with its agent id: it belongs to the subagent's own
   * session, and the main conversation gets the subagent's work as the Agent tool's result.
   */
  private subagent(line: Record<string, unknown>, events: GenericEvent[]): GenericEvent[] {
    const parent = text(line, 'parent_tool_use_id');
    if (parent === undefined) return events;
    const agentId = text(line, 'agent_id') ?? parent;
    for (const event of events) event.agent_id = agentId;
    return events;
  }

  private assistant(line: Record<string, unknown>, timestamp: string, warn: Warn): GenericEvent[] {
    const message = isObject(line.message) ? line.message : undefined;
    if (!message) throw new InputError('assistant line without a "message" object');
    const model = text(message, 'model');
    if (line.is_api_error_message === true) {
      const status = typeof line.api_error_status === 'number' ? ` ${line.api_error_status}` : '';
      const said = this.plainText(message.content);
      warn(`claude API error${status}: ${said}`);
      return [{ type: 'context', kind: 'synthetic', subtype: 'api_error', text: said, timestamp }];
    }
    // Claude Code's own synthetic replies ("No response requested.") were never said by a model.
    if (model === '<synthetic>') return [{ type: 'context', kind: 'synthetic', text: this.plainText(message.content), timestamp }];
    const messageId = text(message, 'id');
    const content = Array.isArray(message.content) ? message.content : [];
    const events: GenericEvent[] = [];
    const withModel = model !== undefined ? { model } : {};
    // Every block line of one response repeats its usage: it goes once, on the first text or tool call.
    const usage = (): { usage?: Record<string, unknown> } => {
      if (!isObject(message.usage) || (messageId !== undefined && messageId === this.lastUsageMessage)) return {};
      this.lastUsageMessage = messageId;
      return { usage: message.usage };
    };
    for (const block of content) {
      if (!isObject(block)) continue;
      switch (block.type) {
        case 'text':
          events.push({ type: 'assistant', text: text(block, 'text') ?? '', timestamp, ...withModel, ...usage() });
          break;
        case 'thinking':
          events.push({
            type: 'thinking', text: text(block, 'thinking') ?? '', timestamp, ...withModel,
            ...(typeof block.signature === 'string' && block.signature !== '' ? { signature: block.signature } : {}),
          });
          break;
        case 'tool_use': {
          const id = text(block, 'id') ?? '';
          const name = text(block, 'name') ?? '';
          if (id === '' || name === '') {
            warn('tool_use block without an id or name; dropped');
            break;
          }
          events.push({ type: 'tool_call', id, name, arguments: isObject(block.input) ? block.input : {}, timestamp, ...withModel, ...usage() });
          break;
        }
        default:
          this.once.warn(`block:${String(block.type)}`, `assistant ${previewValue(block.type ?? null)} blocks have no generic event; dropped (further ones silently)`, warn);
      }
    }
    return events;
  }

  private user(line: Record<string, unknown>, timestamp: string, warn: Warn): GenericEvent[] {
    const message = isObject(line.message) ? line.message : undefined;
    if (!message) throw new InputError('user line without a "message" object');
    if (typeof message.content === 'string') return [{ type: 'user', text: message.content, timestamp }];
    const content = Array.isArray(message.content) ? message.content : [];
    const events: GenericEvent[] = [];
    const texts: string[] = [];
    const images: ImageInput[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_result') {
        const id = text(block, 'tool_use_id') ?? '';
        if (id === '') {
          warn('tool_result block without a tool_use_id; dropped');
          continue;
        }
        events.push({ type: 'tool_result', id, content: this.resultContent(block.content, warn), is_error: block.is_error === true, timestamp });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text);
      } else if (block.type === 'image' && image(block)) {
        images.push(image(block)!);
      } else {
        this.once.warn(`user:${String(block.type)}`, `user ${previewValue(block.type ?? null)} blocks have no generic event; dropped (further ones silently)`, warn);
      }
    }
    if (texts.length > 0 || images.length > 0) {
      events.push({ type: 'user', text: texts.join('\n'), ...(images.length > 0 ? { images } : {}), timestamp });
    }
    return events;
  }

  private resultContent(content: unknown, warn: Warn): string | ContentPart[] {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content.filter(isObject).flatMap((block): ContentPart[] => {
      if (block.type === 'text' && typeof block.text === 'string') return [{ type: 'text', text: block.text }];
      const img = block.type === 'image' ? image(block) : undefined;
      if (img) return [{ type: 'image', ...img }];
      this.once.warn(`result:${String(block.type)}`, `tool_result ${previewValue(block.type ?? null)} parts have no generic form; dropped (further ones silently)`, warn);
      return [];
    });
  }

  private plainText(content: unknown): string {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content.filter(isObject).map((b) => text(b, 'text') ?? '').join(' ').trim();
  }

  private result(line: Record<string, unknown>, warn: Warn): void {
    const subtype = text(line, 'subtype') ?? 'unknown';
    if (line.is_error !== true && subtype === 'success') return;
    const errors = Array.isArray(line.errors) ? line.errors.map(String).join('; ') : '';
    const said = text(line, 'result') ?? errors;
    warn(`claude run ended with an error (${subtype}${typeof line.terminal_reason === 'string' ? `, ${line.terminal_reason}` : ''})${said ? `: ${said}` : ''}`);
  }
}

/** `claude -p --output-format stream-json --verbose`: snake_case `session_id` on every line. */
export const claudeStreamJson: InputFormat = {
  name: 'claude-stream-json',
  detect: (value) => isObject(value) && typeof value.type === 'string' && LINE_TYPES.has(value.type) && typeof value.session_id === 'string'
    // `droid exec -o stream-json` starts with a system init line too, one with no uuid and a reasoning_effort.
    && !(value.type === 'system' && !('uuid' in value) && 'reasoning_effort' in value),
  create: () => new ClaudeStreamJsonAdapter(),
};
