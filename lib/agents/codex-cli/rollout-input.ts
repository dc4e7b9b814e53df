// Input adapter for Codex rollout files (`~/.codex/sessions/.../rollout-*.jsonl`, Codex CLI 0.171.0): the
// conversation is read from `response_item` lines (what the model saw), turns and usage from `event_msg`
// lines; Codex's own context (developer messages, environment context) becomes `context` events.
import type { ContentPart, GenericEvent, ImageInput, NativeCall } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { CodexUsage, HeldAssistant, callAndResult, joinArgv, todos, toolId } from './input-common.js';
import { FORMAT as CODEX_FORMAT } from './records.js';
import { WarnOnce, isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';

type Warn = (message: string) => void;

const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'world_state', 'token_usage_record', 'compacted']);

/** Text that Codex itself puts into user messages: the model saw it, but the user never typed it. */
const CONTEXT_TEXT = /^\s*(?:<(?:environment_context|user_instructions|INSTRUCTIONS|skills_instructions|permissions instructions|turn_aborted)\b|# AGENTS\.md instructions)/;

function parseArguments(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : { input: raw };
  } catch {
    return { input: raw };
  }
}

/** A data URL (`data:image/png;base64,...`) as an image, or undefined. */
function dataUrlImage(url: unknown): ImageInput | undefined {
  if (typeof url !== 'string') return undefined;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { media_type: match[1]!, data: match[2]! } : undefined;
}

/** A call as the generic tool it becomes, and as Codex recorded it when that is another name or other arguments. */
type MappedCall = { name: string; arguments: Record<string, unknown>; native?: NativeCall };

/**
 * The generic tool a Codex function call becomes: the resuming agent knows Bash, TodoWrite and mcp__ names.
 * A renamed call keeps Codex's own as `native`, which the Codex writer writes back (exec_command, not Bash).
 * A namespaced (MCP) call does not: `native` has no place for Codex's `namespace`, and the Codex writer
 * writes the joined name as before.
 */
function mapCall(name: string, namespace: string | undefined, args: Record<string, unknown>): MappedCall {
  if (namespace !== undefined) return { name: `${namespace}__${name}`, arguments: args };
  const renamed = (generic: string, genericArgs: Record<string, unknown>): MappedCall => (
    { name: generic, arguments: genericArgs, native: { format: CODEX_FORMAT, name, arguments: args } }
  );
  if (name === 'exec_command' && typeof args.cmd === 'string') {
    return renamed('Bash', { command: args.cmd, ...(typeof args.workdir === 'string' ? { workdir: args.workdir } : {}) });
  }
  if ((name === 'shell' || name === 'container.exec' || name === 'shell_command') && args.command !== undefined) {
    const command = Array.isArray(args.command) ? joinArgv(args.command.map(String)) : String(args.command);
    return renamed('Bash', { command, ...(typeof args.workdir === 'string' ? { workdir: args.workdir } : {}) });
  }
  if (name === 'update_plan' && Array.isArray(args.plan)) return renamed('TodoWrite', { todos: todos(args.plan) });
  return { name, arguments: args };
}

class CodexRolloutAdapter implements InputAdapter {
  readonly format = 'codex-rollout';
  private cwd: string | undefined;
  /** Call ids whose call was a command: their output says the exit code. */
  private readonly commands = new Set<string>();
  /** Call ids Codex marked failed (event_msg item_completed): the only error flag MCP outputs have. */
  private readonly failed = new Set<string>();
  private readonly held = new HeldAssistant();
  private readonly usage = new CodexUsage();
  private readonly once = new WarnOnce();
  private generated = 0;

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') {
      throw new InputError('expected a Codex rollout line (an object with "timestamp", "type" and "payload")');
    }
    const payload = isObject(value.payload) ? value.payload : {};
    let timestamp: string;
    try {
      timestamp = resolveTimestamp(value.timestamp, now);
    } catch (error) {
      throw new InputError((error as Error).message);
    }
    const out: GenericEvent[] = [];
    switch (value.type) {
      case 'session_meta':
        this.cwd ??= text(payload, 'cwd');
        break;
      case 'response_item':
        this.responseItem(payload, timestamp, warn, out);
        break;
      case 'event_msg':
        this.eventMsg(payload, warn, out);
        break;
      case 'compacted':
        // From here on Codex's model saw the summary instead of the history before it.
        this.held.push(out, { type: 'compaction', summary: text(payload, 'message') ?? '', timestamp });
        break;
      case 'turn_context':
      case 'world_state':
      case 'token_usage_record':
        // Settings and bookkeeping, not conversation (usage is taken from event_msg token_count).
        break;
      default:
        this.once.warn(`type:${value.type}`, `unknown rollout line type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
    }
    return out;
  }

  end(): GenericEvent[] {
    const out: GenericEvent[] = [];
    this.held.release(out, this.usage.endTurn());
    return out;
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  private eventMsg(payload: Record<string, unknown>, warn: Warn, out: GenericEvent[]): void {
    switch (payload.type) {
      case 'token_count':
        if (isObject(payload.info)) this.usage.observe(payload.info.total_token_usage);
        return;
      case 'task_complete':
      case 'turn_aborted': {
        const error = isObject(payload.error) ? text(payload.error, 'message') : undefined;
        if (error !== undefined) warn(`codex turn failed: ${error}`);
        else if (payload.type === 'turn_aborted') warn(`codex turn aborted${typeof payload.reason === 'string' ? ` (${payload.reason})` : ''}`);
        this.held.release(out, this.usage.endTurn());
        return;
      }
      case 'item_completed': {
        const item = isObject(payload.item) ? payload.item : {};
        if (item.status === 'failed' && typeof item.id === 'string') this.failed.add(toolId(item.id));
        return;
      }
      case 'error':
        warn(`codex error: ${text(payload, 'message') ?? 'no message'}`);
        return;
      default:
        // user_message, agent_message, task_started, ...: notifications for a UI that repeat what the
        // response items already hold.
        return;
    }
  }

  private id(raw: unknown): string {
    if (typeof raw === 'string' && raw !== '') return toolId(raw);
    this.generated += 1;
    return `codex_call_${this.generated}`;
  }

  private responseItem(item: Record<string, unknown>, timestamp: string, warn: Warn, out: GenericEvent[]): void {
    const push = (event: GenericEvent) => this.held.push(out, event);
    switch (item.type) {
      case 'message':
        this.message(item, timestamp, push);
        return;
      case 'reasoning': {
        const parts = [
          ...(Array.isArray(item.summary) ? item.summary : []),
          ...(Array.isArray(item.content) ? item.content : []),
        ].filter(isObject).map((p) => text(p, 'text')).filter((t): t is string => t !== undefined && t !== '');
        // OpenAI's encrypted_content is no Anthropic signature: this is unsigned thinking (see docs/input-formats.md).
        if (parts.length > 0) push({ type: 'thinking', text: parts.join('\n\n'), timestamp });
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const name = text(item, 'name') ?? 'tool';
        const args = item.type === 'custom_tool_call' ? { input: text(item, 'input') ?? '' } : parseArguments(item.arguments);
        const mapped = mapCall(name, text(item, 'namespace'), args);
        const id = this.id(item.call_id);
        if (mapped.name === 'Bash') this.commands.add(id);
        push({ type: 'tool_call', id, name: mapped.name, arguments: mapped.arguments, ...(mapped.native ? { native: mapped.native } : {}), timestamp });
        return;
      }
      case 'local_shell_call': {
        const action = isObject(item.action) ? item.action : {};
        const command = Array.isArray(action.command) ? joinArgv(action.command.map(String)) : '';
        const id = this.id(item.call_id ?? item.id);
        this.commands.add(id);
        push({ type: 'tool_call', id, name: 'Bash', arguments: { command }, timestamp });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.output(item, timestamp, push);
        return;
      case 'web_search_call': {
        const action = isObject(item.action) ? item.action : {};
        const query = text(action, 'query') ?? text(item, 'query') ?? '';
        const call = { id: this.id(item.id), name: 'WebSearch', arguments: { query }, timestamp };
        // Codex searches on the model's side; the rollout keeps the query, not the results.
        for (const event of callAndResult(call, '[Codex ran this web search itself; its results are not in the rollout]', false)) push(event);
        return;
      }
      default:
        this.once.warn(`item:${String(item.type)}`, `unknown rollout response item ${previewValue(item.type ?? null)}; skipped (further ones silently)`, warn);
    }
  }

  private message(item: Record<string, unknown>, timestamp: string, push: (event: GenericEvent) => void): void {
    const content = Array.isArray(item.content) ? item.content : [];
    if (item.role === 'assistant') {
      const said = content.filter(isObject).map((p) => text(p, 'text') ?? text(p, 'refusal')).filter((t): t is string => t !== undefined);
      if (said.length > 0) push({ type: 'assistant', text: said.join('\n'), timestamp });
      return;
    }
    // Developer and system messages are Codex's own instructions to its model, not part of the conversation.
    if (item.role !== 'user') {
      const said = content.filter(isObject).map((p) => text(p, 'text')).filter((t): t is string => t !== undefined);
      push({ type: 'context', kind: 'instructions', subtype: String(item.role ?? 'unknown'), text: said.join('\n'), timestamp });
      return;
    }
    const meta = isObject(item.internal_chat_message_metadata_passthrough) ? item.internal_chat_message_metadata_passthrough : {};
    const kinds = Array.isArray(meta.content_item_kinds) ? meta.content_item_kinds : undefined;
    const texts: string[] = [];
    const context: string[] = [];
    const images: ImageInput[] = [];
    content.forEach((part, index) => {
      if (!isObject(part)) return;
      const kind = kinds?.[index];
      if (part.type === 'input_text' && typeof part.text === 'string') {
        // Newer Codex labels each part (user.text vs environments.environment_context); older files need the text.
        const harness = typeof kind === 'string' ? !kind.startsWith('user.') && kind !== 'unknown' : CONTEXT_TEXT.test(part.text);
        (harness ? context : texts).push(part.text);
      } else if (part.type === 'input_image') {
        const image = dataUrlImage(part.image_url);
        if (image) images.push(image);
      }
    });
    if (context.length > 0) push({ type: 'context', kind: 'environment', text: context.join('\n'), timestamp });
    if (texts.length === 0 && images.length === 0) return;
    push({ type: 'user', text: texts.join('\n'), ...(images.length > 0 ? { images } : {}), timestamp });
  }

  private output(item: Record<string, unknown>, timestamp: string, push: (event: GenericEvent) => void): void {
    const id = this.id(item.call_id);
    let raw = item.output;
    let isError = this.failed.delete(id);
    // Older rollouts wrap the output as {content, success}.
    if (isObject(raw)) {
      isError = raw.success === false;
      raw = raw.content;
    }
    let content: string | ContentPart[];
    if (typeof raw === 'string') {
      content = raw;
      // Older Codex serialised command output as JSON {output, metadata:{exit_code}}.
      const legacy = /^\{"output":/.test(raw) ? parseArguments(raw) : undefined;
      if (legacy && typeof legacy.output === 'string') {
        content = legacy.output;
        if (isObject(legacy.metadata) && typeof legacy.metadata.exit_code === 'number') isError ||= legacy.metadata.exit_code !== 0;
      }
      const exit = this.commands.has(id) ? /^Process exited with code (-?\d+)$/m.exec(raw) : null;
      if (exit) isError ||= exit[1] !== '0';
      // Codex's tool router answers calls it cannot run with this text, and nothing else marks them.
      isError ||= /^unsupported (?:custom tool )?call: /.test(raw);
    } else if (Array.isArray(raw)) {
      content = raw.filter(isObject).flatMap((p): ContentPart[] => {
        if (p.type === 'input_text' && typeof p.text === 'string') return [{ type: 'text', text: p.text }];
        const image = p.type === 'input_image' ? dataUrlImage(p.image_url) : undefined;
        return image ? [{ type: 'image', ...image }] : [];
      });
    } else {
      content = '';
    }
    this.commands.delete(id);
    push({ type: 'tool_result', id, content, is_error: isError, timestamp });
  }
}

/** Codex rollout files: recognised by `{timestamp, type, payload}` with a rollout line type. */
export const codexRollout: InputFormat = {
  name: 'codex-rollout',
  detect: (value) => isObject(value) && typeof value.type === 'string' && LINE_TYPES.has(value.type) && isObject(value.payload),
  create: () => new CodexRolloutAdapter(),
};
