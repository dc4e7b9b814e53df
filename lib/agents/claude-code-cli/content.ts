// The pieces of Claude Code message content the record mapper (records.ts) builds: message ids in the API's
// shape, image blocks, tool result content.
import type { ContentPart, ImageInput } from '../../events.js';
import type { ClaudeRecord } from './mapper-types.js';
import { randomAlnum } from '../../util/random-id.js';

/** A new message id in the shape the API gives them. */
export function newMessageId(): string {
  return randomAlnum('msg_', 24);
}

export function imageBlock(image: ImageInput): ClaudeRecord {
  return { type: 'image', source: { type: 'base64', media_type: image.media_type, data: image.data } };
}

export function resultContent(content: string | ContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageBlock(part)));
}

export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}
