// `droid exec -o stream-json` (0.225) as generic events: input format `droid-stream-json`, a live input. Its
// lines: `system`/`init` (cwd, session_id, model), `message` (role user or assistant, `text`), `reasoning`
// (the same line can come twice: kept once per id), `tool_call` (`toolName`, `parameters`), `tool_result`
// (`isError`, `value`, or `error.message`), `completion` (the run's end and usage), each with the session id.
import type { GenericEvent } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { isObject } from '../../util/is-object.js';
import { RecentSet } from '../../util/recent.js';

export const INPUT_FORMAT = 'droid-stream-json';

type Json = Record<string, unknown>;

const LINE_TYPES = new Set(['system', 'message', 'reasoning', 'tool_call', 'tool_result', 'completion', 'error']);

/** The first line of a run: droid's `init` (a `reasoning_effort` and no `uuid`: Claude Code's and Qwen's have one). */
function isInit(value: unknown): boolean {
  return isObject(value) && value.type === 'system' && value.subtype === 'init' && typeof value.session_id === 'string'
    && 'reasoning_effort' in value && !('uuid' in value);
}

function timeOf(line: Json, now: string): string {
  try {
    return resolveTimestamp(line.timestamp, now);
  } catch {
    return now;
  }
}

function resultText(line: Json): string {
  if (typeof line.value === 'string') return line.value;
  if (isObject(line.error) && typeof line.error.message === 'string') return line.error.message;
  if (line.value === undefined || line.value === null) return '';
  return JSON.stringify(line.value);
}

class DroidStreamJsonAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private cwd: string | undefined;
  private model: string | undefined;
  /** Reasoning ids already given (droid repeats the line). */
  private readonly reasoned = new RecentSet<string>(10_000);

  map(value: unknown, now: string): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string' || !LINE_TYPES.has(value.type)) throw new InputError('not a droid exec stream-json line');
    const timestamp = timeOf(value, now);
    const model = this.model !== undefined ? { model: this.model } : {};
    switch (value.type) {
      case 'system':
        if (value.subtype === 'init') {
          if (typeof value.cwd === 'string' && value.cwd.startsWith('/')) this.cwd ??= value.cwd;
          if (typeof value.model === 'string' && value.model !== '') this.model = value.model;
        }
        return [];
      case 'message':
        if (typeof value.text !== 'string' || value.text.trim() === '') return [];
        return value.role === 'user' ? [{ type: 'user', text: value.text, timestamp }]
          : value.role === 'assistant' ? [{ type: 'assistant', text: value.text, ...model, timestamp }] : [];
      case 'reasoning': {
        if (typeof value.text !== 'string' || value.text.trim() === '') return [];
        const key = `${typeof value.id === 'string' ? value.id : ''}\n${value.text}`;
        if (this.reasoned.has(key)) return [];
        this.reasoned.add(key);
        return [{ type: 'thinking', text: value.text, ...model, timestamp }];
      }
      case 'tool_call':
        if (typeof value.id !== 'string' || typeof value.toolName !== 'string') throw new InputError('a tool_call line without "id" and "toolName"');
        return [{ type: 'tool_call', id: value.id, name: value.toolName, arguments: isObject(value.parameters) ? value.parameters : {}, ...model, timestamp }];
      case 'tool_result':
        if (typeof value.id !== 'string') throw new InputError('a tool_result line without "id"');
        return [{ type: 'tool_result', id: value.id, content: resultText(value), is_error: value.isError === true, timestamp }];
      default:
        return [];
    }
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  end(): GenericEvent[] {
    return [];
  }
}

export const droidStreamJson: InputFormat = {
  name: INPUT_FORMAT,
  detect: isInit,
  create: () => new DroidStreamJsonAdapter(),
};
