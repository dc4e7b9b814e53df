// Input adapter for `gemini -p ... --output-format stream-json` (Gemini CLI 0.61.0): init, message, tool_use,
// tool_result, error and result lines in, generic events out. Streamed reply chunks are joined into one reply,
// and the run's token counts (the result line's stats) are attached to the last one.
import type { AssistantEvent, GenericEvent, Usage } from '../../events.js';
import { WarnOnce, isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';
import { fromGeminiTokens } from '../../gemini-content/tokens.js';

export const STREAM_FORMAT = 'gemini-stream-json';

type Warn = (message: string) => void;

/** What a successful call's result says when the CLI printed nothing for it (a read_file's display is empty). */
export const NO_OUTPUT = '[Gemini CLI printed no output for this call: its stream-json carries what a tool displays, not what the model saw]';

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * The result line's `stats` as generic usage. `input_tokens` is the prompt count with the cached tokens
 * inside, `output_tokens` the candidates' without thoughts; what the total holds beyond the two is taken for
 * thoughts, which the Messages API counts as output.
 */
export function streamUsage(stats: unknown): Usage | undefined {
  if (!isObject(stats)) return undefined;
  const input = count(stats.input_tokens);
  const output = count(stats.output_tokens);
  const thoughts = Math.max(0, count(stats.total_tokens) - input - output);
  if (input + output + thoughts === 0) return undefined;
  return fromGeminiTokens({ input, output, cached: count(stats.cached), thoughts, tool: 0 });
}

/** A line's own time (the CLI writes RFC 3339 with milliseconds), else `now`. */
function timeOf(value: Record<string, unknown>, now: string): string {
  const at = text(value, 'timestamp');
  return at !== undefined && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : now;
}

class GeminiStreamAdapter implements InputAdapter {
  readonly format = STREAM_FORMAT;
  private model: string | undefined;
  /** The reply being streamed: deltas are joined into it; held so the run's usage can be attached. */
  private reply: AssistantEvent | undefined;
  private readonly once = new WarnOnce();

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') {
      throw new InputError('expected a gemini stream-json event (an object with a string "type")');
    }
    const at = timeOf(value, now);
    const out: GenericEvent[] = [];
    switch (value.type) {
      case 'init':
        this.model = text(value, 'model') ?? this.model;
        break;
      case 'message':
        this.message(value, at, out);
        break;
      case 'tool_use': {
        const id = text(value, 'tool_id');
        if (id === undefined) throw new InputError('"tool_use" without a string "tool_id"');
        const args = isObject(value.parameters) ? value.parameters : {};
        this.emit(out, { type: 'tool_call', id, name: text(value, 'tool_name') ?? 'tool', arguments: args, timestamp: at });
        break;
      }
      case 'tool_result': {
        const id = text(value, 'tool_id');
        if (id === undefined) throw new InputError('"tool_result" without a string "tool_id"');
        const isError = value.status === 'error';
        const output = typeof value.output === 'string' ? value.output : value.output === undefined ? '' : JSON.stringify(value.output);
        const error = isObject(value.error) ? text(value.error, 'message') : undefined;
        const content = isError ? error ?? output : output === '' ? NO_OUTPUT : output;
        this.emit(out, { type: 'tool_result', id, content, is_error: isError, timestamp: at });
        break;
      }
      case 'error':
        warn(`gemini ${text(value, 'severity') ?? 'error'}: ${text(value, 'message') ?? 'no message'}`);
        break;
      case 'result': {
        this.release(out, streamUsage(value.stats));
        if (value.status === 'error') {
          const message = isObject(value.error) ? text(value.error, 'message') : undefined;
          warn(`gemini run failed: ${message ?? 'no message'}`);
        }
        break;
      }
      default:
        this.once.warn(`type:${value.type}`, `unknown gemini stream-json event type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
    }
    return out;
  }

  end(): GenericEvent[] {
    const out: GenericEvent[] = [];
    this.release(out);
    return out;
  }

  facts() {
    return {};
  }

  private message(value: Record<string, unknown>, at: string, out: GenericEvent[]): void {
    const content = typeof value.content === 'string' ? value.content : '';
    if (value.role === 'user') {
      this.emit(out, { type: 'user', text: content, timestamp: at });
    } else if (value.role === 'assistant') {
      // Consecutive deltas are one reply the CLI printed as it streamed; anything else in between ends it.
      if (this.reply !== undefined && value.delta === true) {
        this.reply.text += content;
        return;
      }
      this.release(out);
      this.reply = { type: 'assistant', text: content, timestamp: at, ...(this.model !== undefined ? { model: this.model } : {}) };
    } else {
      throw new InputError(`"message" with an unknown role ${previewValue(value.role)}`);
    }
  }

  /** Every event but a reply ends the reply held before it, so the order of events never changes. */
  private emit(out: GenericEvent[], event: GenericEvent): void {
    this.release(out);
    out.push(event);
  }

  private release(out: GenericEvent[], usage?: Usage): void {
    if (this.reply === undefined) return;
    if (usage !== undefined) this.reply.usage = usage;
    out.push(this.reply);
    this.reply = undefined;
  }
}

/** `gemini --output-format stream-json`: recognised by its first line, `{"type":"init","session_id":...}`. */
export const geminiStreamJson: InputFormat = {
  name: STREAM_FORMAT,
  detect: (value) => isObject(value) && value.type === 'init' && typeof value.session_id === 'string',
  create: () => new GeminiStreamAdapter(),
};
