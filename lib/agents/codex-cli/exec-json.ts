// Input adapter for `codex exec --json` (Codex CLI 0.171.0): thread/turn/item events in, generic events
// out. Codex actions become the tool calls a resuming Claude agent knows (a command is a Bash call with its
// output as the result); usage, cumulative in Codex, is attached per turn to that turn's last reply.
import type { ContentPart, GenericEvent } from '../../events.js';
import { CodexUsage, HeldAssistant, callAndResult, todos, toolId, unwrapShell } from './input-common.js';
import { WarnOnce, isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';

const EVENT_TYPES = new Set([
  'thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error',
]);

type Warn = (message: string) => void;

/** `apply_patch`'s own summary line per change kind. */
const CHANGE_LETTER: Record<string, string> = { add: 'A', delete: 'D', update: 'M' };

/** An MCP tool result's content parts (text, images) as tool result content. */
function mcpContent(result: unknown): string | ContentPart[] {
  if (!isObject(result) || !Array.isArray(result.content)) return result === undefined || result === null ? '' : JSON.stringify(result);
  return result.content.map((part): ContentPart => {
    if (isObject(part) && part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text };
    if (isObject(part) && part.type === 'image' && typeof part.data === 'string' && typeof part.mimeType === 'string') {
      return { type: 'image', media_type: part.mimeType, data: part.data };
    }
    return { type: 'text', text: JSON.stringify(part) };
  });
}

class CodexExecAdapter implements InputAdapter {
  readonly format = 'codex-exec-json';
  private turn = 0;
  /** Item ids whose tool_call went out at item.started, mapped to the call id used. */
  private readonly open = new Map<string, string>();
  /** The todo list last written per todo_list item, so unchanged updates write nothing. */
  private readonly lastTodos = new Map<string, string>();
  private todoWrites = 0;
  private readonly held = new HeldAssistant();
  private readonly usage = new CodexUsage();
  private readonly once = new WarnOnce();
  /** The last top-level error: turn.failed repeats it word for word. */
  private lastError: string | undefined;

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') {
      throw new InputError('expected a codex exec --json event (an object with a string "type")');
    }
    const out: GenericEvent[] = [];
    switch (value.type) {
      case 'thread.started':
        break;
      case 'turn.started':
        this.turn += 1;
        break;
      case 'turn.completed':
        this.usage.observe(value.usage);
        this.closeTurn(out, now, 'the turn ended before this call completed');
        this.held.release(out, this.usage.endTurn());
        break;
      case 'turn.failed': {
        const message = isObject(value.error) ? text(value.error, 'message') : undefined;
        warn(message !== undefined && message === this.lastError ? 'codex turn failed (see the error above)' : `codex turn failed: ${message ?? 'no message'}`);
        this.closeTurn(out, now, 'the turn failed before this call completed');
        this.held.release(out);
        break;
      }
      case 'error':
        this.lastError = text(value, 'message');
        warn(`codex error: ${this.lastError ?? 'no message'}`);
        break;
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        if (!isObject(value.item)) throw new InputError(`"${value.type}" without an "item" object`);
        this.item(value.type.slice(5), value.item, now, warn, out);
        break;
      default:
        this.once.warn(`type:${value.type}`, `unknown codex exec event type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
    }
    return out;
  }

  end(): GenericEvent[] {
    const out: GenericEvent[] = [];
    this.held.release(out, this.usage.endTurn());
    return out;
  }

  facts() {
    return {};
  }

  /** Calls still open when a turn ends get an error result, so the conversation stays well formed. */
  private closeTurn(out: GenericEvent[], now: string, why: string): void {
    for (const id of this.open.values()) {
      this.held.push(out, { type: 'tool_result', id, content: `[no result: ${why}]`, is_error: true, timestamp: now });
    }
    this.open.clear();
  }

  private callId(itemId: string): string {
    return toolId(`codex_${this.turn}_${itemId}`);
  }

  private item(phase: string, item: Record<string, unknown>, now: string, warn: Warn, out: GenericEvent[]): void {
    const itemId = text(item, 'id') ?? '';
    const kind = text(item, 'type') ?? '';
    const push = (event: GenericEvent) => this.held.push(out, event);
    switch (kind) {
      case 'agent_message':
      case 'plan':
        if (phase === 'completed') push({ type: 'assistant', text: text(item, 'text') ?? '', timestamp: now });
        return;
      case 'reasoning':
        // Codex reasoning carries no Anthropic signature: written as unsigned thinking, which each harness
        // keeps or drops (Claude Code's API rejects unsigned thinking, so its harness drops it with a note).
        if (phase === 'completed') push({ type: 'thinking', text: text(item, 'text') ?? '', timestamp: now });
        return;
      case 'command_execution': {
        const command = unwrapShell(text(item, 'command') ?? '');
        this.tool(phase, itemId, 'Bash', { command }, now, out, () => {
          const output = text(item, 'aggregated_output') ?? '';
          const code = typeof item.exit_code === 'number' ? item.exit_code : undefined;
          const failed = (code !== undefined && code !== 0) || (code === undefined && item.status !== 'completed');
          // Claude Code's own Bash results start a failure with its exit code; the resuming model reads them so.
          const content = code !== undefined && code !== 0 ? `Exit code ${code}\n${output}` : output;
          return { content, isError: failed };
        });
        return;
      }
      case 'file_change': {
        const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
        const args = { changes: changes.map((c) => ({ path: text(c, 'path') ?? '', kind: text(c, 'kind') ?? '' })) };
        this.tool(phase, itemId, 'apply_patch', args, now, out, () => {
          const lines = args.changes.map((c) => `${CHANGE_LETTER[c.kind] ?? '?'} ${c.path}`).join('\n');
          return item.status === 'completed'
            ? { content: `Success. Updated the following files:\n${lines}`, isError: false }
            : { content: `apply_patch ${String(item.status ?? 'failed')}:\n${lines}`, isError: true };
        });
        return;
      }
      case 'mcp_tool_call': {
        const name = `mcp__${text(item, 'server') ?? 'server'}__${text(item, 'tool') ?? 'tool'}`;
        const args = isObject(item.arguments) ? item.arguments : item.arguments === undefined || item.arguments === null ? {} : { arguments: item.arguments };
        this.tool(phase, itemId, name, args, now, out, () => {
          const error = isObject(item.error) ? text(item.error, 'message') ?? JSON.stringify(item.error) : undefined;
          if (error !== undefined) return { content: error, isError: true };
          const isError = item.status === 'failed' || (isObject(item.result) && item.result.is_error === true);
          return { content: mcpContent(item.result), isError };
        });
        return;
      }
      case 'web_search': {
        const query = text(item, 'query') ?? (isObject(item.action) ? text(item.action, 'query') : undefined) ?? '';
        this.tool(phase, itemId, 'WebSearch', { query }, now, out, () => ({
          content: '[Codex ran this web search itself; its results are not in the exec event stream]', isError: false,
        }));
        return;
      }
      case 'todo_list': {
        const list = todos(Array.isArray(item.items) ? item.items : []);
        const key = JSON.stringify(list);
        if (this.lastTodos.get(itemId) === key) return;
        this.lastTodos.set(itemId, key);
        this.todoWrites += 1;
        const id = `${this.callId(itemId)}_todo${this.todoWrites}`;
        for (const event of callAndResult({ id, name: 'TodoWrite', arguments: { todos: list }, timestamp: now }, 'Todo list updated.', false)) push(event);
        return;
      }
      case 'error':
        warn(`codex: ${text(item, 'message') ?? 'error item without a message'}`);
        return;
      default:
        this.once.warn(`item:${kind}`, `unknown codex item type ${previewValue(kind)}; skipped (further ones silently)`, warn);
    }
  }

  /** A tool-like item: the call when it starts (or completes unseen), the result when it completes. */
  private tool(
    phase: string, itemId: string, name: string, args: Record<string, unknown>, now: string, out: GenericEvent[],
    result: () => { content: string | ContentPart[]; isError: boolean },
  ): void {
    let id = this.open.get(itemId);
    if (id === undefined && phase !== 'updated') {
      id = this.callId(itemId);
      this.held.push(out, { type: 'tool_call', id, name, arguments: args, timestamp: now });
      this.open.set(itemId, id);
    }
    if (phase !== 'completed' || id === undefined) return;
    this.open.delete(itemId);
    const { content, isError } = result();
    this.held.push(out, { type: 'tool_result', id, content, is_error: isError, timestamp: now });
  }
}

/** `codex exec --json`: recognised by its dotted event types (`thread.started` first). */
export const codexExecJson: InputFormat = {
  name: 'codex-exec-json',
  detect: (value) => isObject(value) && typeof value.type === 'string' && value.type !== 'error' && EVENT_TYPES.has(value.type),
  create: () => new CodexExecAdapter(),
};
