// The pieces of Claude Code message content the record mapper (records.ts) builds: message ids in the API's
// shape, image blocks, tool result content.
import { randomBytes } from 'node:crypto';
import type { ContentPart, ImageInput } from '../../events.js';
import type { ClaudeRecord } from './mapper-types.js';

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Random bytes drawn 4 KiB at a time: one randomBytes call per message id cost microseconds each. */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

function randomAlnum(length: number): string {
  if (randomAt + length > randomPool.length) {
    randomPool = randomBytes(Math.max(4096, length));
    randomAt = 0;
  }
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALNUM[randomPool[randomAt + i]! % ALNUM.length];
  randomAt += length;
  return out;
}

/** A new message id in the shape the API gives them. */
export function newMessageId(): string {
  return `msg_${randomAlnum(24)}`;
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
