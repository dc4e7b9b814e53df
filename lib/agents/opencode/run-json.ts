// Input adapter for `opencode run --format json` (OpenCode 1.18.33): one line per finished part (step_start,
// text, reasoning, tool_use, step_finish) or error in, generic events out. A step is one model response; its
// token counts (step_finish) are attached to its last reply or tool call. The user's prompt is not printed.
import type { GenericEvent } from '../../events.js';
import { WarnOnce, isObject, text } from '../../input/adapter-kit.js';
import { InputError, type InputAdapter, type InputFormat } from '../../input/types.js';
import { previewValue } from '../../lines/line-messages.js';
import { fromOpencodeTokens, iso, toolResult } from '../../opencode-store/export-reader.js';

export const RUN_FORMAT = 'opencode-run-json';

const PART_TYPES = new Set(['step_start', 'text', 'reasoning', 'tool_use', 'step_finish']);

type Warn = (message: string) => void;

class OpencodeRunAdapter implements InputAdapter {
  readonly format = RUN_FORMAT;
  /**
   * The step's last reply or tool call and what came after it (its result, a later thought): held until the
   * next one comes or the step's usage is known, so the usage can go on it without reordering anything.
   */
  private held: GenericEvent[] = [];
  private readonly once = new WarnOnce();

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') {
      throw new InputError('expected an opencode run --format json event (an object with a string "type")');
    }
    const at = iso(value.timestamp, now);
    const out: GenericEvent[] = [];
    if (value.type === 'error') {
      const error = isObject(value.error) ? value.error : {};
      const message = isObject(error.data) ? text(error.data, 'message') : undefined;
      warn(`opencode error: ${message ?? text(error, 'name') ?? 'no message'}`);
      return out;
    }
    if (!PART_TYPES.has(value.type)) {
      this.once.warn(`type:${value.type}`, `unknown opencode run event type ${previewValue(value.type)}; skipped (further ones silently)`, warn);
      return out;
    }
    const part = value.part;
    if (!isObject(part)) throw new InputError(`"${value.type}" without a "part" object`);
    const started = isObject(part.time) ? iso(part.time.start, at) : at;
    switch (value.type) {
      case 'text':
        // Text OpenCode marks ignored was never sent to the model.
        if (typeof part.text === 'string' && part.ignored !== true) this.carrier(out, { type: 'assistant', text: part.text, timestamp: started });
        break;
      case 'reasoning':
        // No signature: each harness keeps or drops unsigned thinking (Claude Code's drops it with a note).
        if (typeof part.text === 'string' && part.text !== '') this.push(out, { type: 'thinking', text: part.text, timestamp: started });
        break;
      case 'tool_use': {
        const id = text(part, 'callID');
        if (id === undefined) throw new InputError('"tool_use" without a string "part.callID"');
        const state = isObject(part.state) ? part.state : {};
        const times = isObject(state.time) ? state.time : {};
        const args = isObject(state.input) ? state.input : {};
        this.carrier(out, { type: 'tool_call', id, name: text(part, 'tool') ?? 'tool', arguments: args, timestamp: iso(times.start, at) });
        // The line comes when the call has finished; one still running (never printed so) would get no result.
        if (state.status === 'completed' || state.status === 'error') this.push(out, toolResult(id, state, iso(times.end, at)));
        break;
      }
      case 'step_finish':
        this.release(out, fromOpencodeTokens(part.tokens));
        break;
      default:
        break;
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

  /** A reply or tool call: what was held goes out, and this is held in its place. */
  private carrier(out: GenericEvent[], event: GenericEvent): void {
    this.release(out);
    this.held.push(event);
  }

  /** Any other event: after what is held, in order. */
  private push(out: GenericEvent[], event: GenericEvent): void {
    if (this.held.length > 0) this.held.push(event);
    else out.push(event);
  }

  private release(out: GenericEvent[], usage?: Record<string, unknown>): void {
    const [first] = this.held;
    if (usage !== undefined && (first?.type === 'assistant' || first?.type === 'tool_call')) first.usage = usage;
    out.push(...this.held);
    this.held = [];
  }
}

/** `opencode run --format json`: each line names its session (`sessionID`) and holds a `part` (or an `error`). */
export const opencodeRunJson: InputFormat = {
  name: RUN_FORMAT,
  detect: (value) => isObject(value) && typeof value.sessionID === 'string' && typeof value.type === 'string'
    && ((PART_TYPES.has(value.type) && isObject(value.part)) || (value.type === 'error' && isObject(value.error))),
  create: () => new OpencodeRunAdapter(),
};
