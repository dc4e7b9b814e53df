// What each Claude Code record type is to a reader: conversation, context the model saw, or session state.
// The lists come from 142 real transcripts and the records Claude Code 2.1.328 writes
// (reference: claude-code-transcript.md). New types keep appearing; a reader warns once per unknown type.

import type { ImageInput } from '../../../events.js';
import { isObject } from '../../../util/is-object.js';
export { isObject } from '../../../util/is-object.js';

/** Session state, not conversation: skipped in silence (warning about them would teach that warnings are noise). */
export const STATE_TYPES: ReadonlySet<string> = new Set([
  'queue-operation', 'last-prompt', 'mode', 'permission-mode', 'ai-title', 'custom-title', 'agent-name',
  'summary', 'file-history-snapshot', 'file-history-delta', 'pr-link', 'atis-latch', 'bridge-session',
  'tools-used', 'api-request-shape', 'api-request-blob', 'api-request', 'cost-state',
]);

/** Turns: what `claude --resume` loads as messages. */
export const CONVERSATION_TYPES: ReadonlySet<string> = new Set(['user', 'assistant']);

/** Context the model saw without it being a turn (`--events`). */
export const CONTEXT_TYPES: ReadonlySet<string> = new Set(['system', 'attachment']);

export type RecordClass = 'conversation' | 'context' | 'state' | 'unknown';

/** The class of a record type. */
export function classifyRecordType(type: string): RecordClass {
  if (CONVERSATION_TYPES.has(type)) return 'conversation';
  if (CONTEXT_TYPES.has(type)) return 'context';
  if (STATE_TYPES.has(type)) return 'state';
  return 'unknown';
}

/** The model Claude Code writes on messages it made up itself (API errors, "No response requested."). */
export const SYNTHETIC_MODEL = '<synthetic>';

/** The usage a writer puts on records whose event reported none (this project's harness does): not usage. */
export function isPlaceholderUsage(usage: unknown): boolean {
  if (!isObject(usage)) return true;
  const keys = Object.keys(usage);
  return keys.length === 2 && usage.input_tokens === 0 && usage.output_tokens === 0;
}

/** True for a user record whose content is tool results only (one answer per parallel call, in Claude's layout). */
export function isToolResultsOnly(record: Record<string, unknown>): boolean {
  const message = record.message;
  if (!isObject(message) || !Array.isArray(message.content) || message.content.length === 0) return false;
  return message.content.every((block) => isObject(block) && block.type === 'tool_result');
}

/** The text blocks of a message's content joined (a string content as it is). */
export function textBlocks(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** An image block's data, when it has any. */
export function imageOf(block: Record<string, unknown>): ImageInput | undefined {
  const source = isObject(block.source) ? block.source : block;
  if (typeof source.media_type !== 'string' || source.media_type === '' || typeof source.data !== 'string') return undefined;
  return { media_type: source.media_type, data: source.data };
}

/** What the model saw of an attachment: its rendered form when Claude Code kept it, else its main text field. */
export function attachmentText(record: Record<string, unknown>, attachment: Record<string, unknown>): string | undefined {
  if (Array.isArray(record.rendered)) {
    const parts = record.rendered.filter((r) => isObject(r) && typeof r.content === 'string').map((r) => (r as { content: string }).content);
    if (parts.length > 0) return parts.join('\n');
  }
  for (const key of ['content', 'prompt', 'text', 'stdout']) {
    const value = attachment[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
