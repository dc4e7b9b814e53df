// Factory Droid sessions as generic events: input format `droid-session`, the JSON Lines file of 0.225 (a
// `session_start` header, then `message` lines of Anthropic-style content blocks, `compaction_state` and
// `agent_turn_outcome` lines). Droid reads the messages in file order, so they are mapped as they come: the
// context message it injects (`context-<id>`, `visibility: "llm_only"`) is its own and is made again on resume;
// a compaction says where its summary starts.
import type { GenericEvent, ImageInput } from '../../events.js';
import { resolveTimestamp } from '../../events.js';
import { blocksOf, imageOfBlock, resultOfBlock, type Block } from '../../anthropic-content/blocks.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../../input/types.js';
import { isObject } from '../../util/is-object.js';

export const INPUT_FORMAT = 'droid-session';

type Json = Record<string, unknown>;
type Warn = (message: string) => void;

/** A session's first line: `session_start` with its id (droid loads no history without `title` and `owner`). */
function isHeader(value: unknown): value is Json {
  return isObject(value) && value.type === 'session_start' && typeof value.id === 'string' && 'title' in value && 'owner' in value;
}

const LINE_TYPES = new Set(['session_start', 'message', 'compaction_state', 'agent_turn_outcome']);

/** The context droid injects before a prompt (tools, skills, environment): its own, made again on resume. */
function isOwnContext(line: Json, message: Json): boolean {
  return (typeof line.id === 'string' && line.id.startsWith('context-')) || message.visibility === 'llm_only';
}

function timeOf(line: Json, now: string): string {
  try {
    return resolveTimestamp(line.timestamp, now);
  } catch {
    return now;
  }
}

/** Text blocks joined as droid sends them (one text per block); blank when there is none. */
function textOfBlocks(blocks: Block[]): string {
  return blocks.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('\n');
}

class DroidSessionAdapter implements InputAdapter {
  readonly format = INPUT_FORMAT;
  private cwd: string | undefined;

  map(value: unknown, now: string, warn: Warn): GenericEvent[] {
    if (!isObject(value) || typeof value.type !== 'string') throw new InputError('not a Droid session line (an object with a "type")');
    if (!LINE_TYPES.has(value.type)) return [];
    if (value.type === 'session_start') {
      if (this.cwd === undefined && typeof value.cwd === 'string' && value.cwd.startsWith('/')) this.cwd = value.cwd;
      return [];
    }
    const timestamp = timeOf(value, now);
    if (value.type === 'compaction_state') {
      return [{ type: 'compaction', summary: typeof value.summaryText === 'string' ? value.summaryText : '', timestamp }];
    }
    if (value.type !== 'message') return [];
    const message = value.message;
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      warn('a message line without a user or assistant message: skipped');
      return [];
    }
    if (isOwnContext(value, message)) return [];
    const blocks = blocksOf(message.content);
    return message.role === 'assistant' ? this.assistant(message, blocks, timestamp) : this.user(blocks, timestamp);
  }

  facts(): SessionFacts {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }

  end(): GenericEvent[] {
    return [];
  }

  private user(blocks: Block[], timestamp: string): GenericEvent[] {
    const out: GenericEvent[] = [];
    for (const block of blocks) {
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        out.push({ type: 'tool_result', id: block.tool_use_id, content: resultOfBlock(block.content), is_error: block.is_error === true, timestamp });
      }
    }
    const text = textOfBlocks(blocks);
    const images = blocks.map(imageOfBlock).filter((i): i is ImageInput => i !== undefined);
    if (text.trim() !== '' || images.length > 0) out.push({ type: 'user', text, ...(images.length > 0 ? { images } : {}), timestamp });
    return out;
  }

  private assistant(message: Json, blocks: Block[], timestamp: string): GenericEvent[] {
    const model = typeof message.modelId === 'string' && message.modelId !== '' ? message.modelId : undefined;
    const out: GenericEvent[] = [];
    for (const block of blocks) {
      if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking.trim() !== '') {
        out.push({ type: 'thinking', text: block.thinking, ...(model ? { model } : {}), timestamp });
      } else if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') {
        out.push({ type: 'assistant', text: block.text, ...(model ? { model } : {}), timestamp });
      } else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        out.push({ type: 'tool_call', id: block.id, name: block.name, arguments: isObject(block.input) ? block.input : {}, ...(model ? { model } : {}), timestamp });
      }
    }
    return out;
  }
}

export const droidSession: InputFormat = {
  name: INPUT_FORMAT,
  detect: isHeader,
  create: () => new DroidSessionAdapter(),
};
