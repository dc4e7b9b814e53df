// Anthropic-style message content blocks, as the CLIs whose sessions hold them (Claude Code, Factory Droid) store
// them: image blocks, tool result content (a string, or text and image blocks), and back to generic content.
import type { ContentPart, ImageInput } from '../events.js';
import { isObject } from '../util/is-object.js';

export type Block = Record<string, unknown>;

export function imageBlock(image: ImageInput): Block {
  return { type: 'image', source: { type: 'base64', media_type: image.media_type, data: image.data } };
}

/** A tool result's content: a string as it is, parts as text and image blocks. */
export function resultContent(content: string | ContentPart[]): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageBlock(part)));
}

/** The text of generic content: a string, or its text parts joined by newlines. */
export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}

/** A base64 image block as an image, or undefined. */
export function imageOfBlock(block: unknown): ImageInput | undefined {
  if (!isObject(block) || block.type !== 'image' || !isObject(block.source)) return undefined;
  const { source } = block;
  if (source.type !== 'base64' || typeof source.media_type !== 'string' || typeof source.data !== 'string') return undefined;
  return { media_type: source.media_type, data: source.data };
}

/** A message's content as blocks (a string is one text block). */
export function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** A tool_result block's content as generic content: a string, or text and image parts. */
export function resultOfBlock(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  const parts: ContentPart[] = [];
  for (const block of blocksOf(content)) {
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else {
      const image = imageOfBlock(block);
      if (image !== undefined) parts.push({ type: 'image', ...image });
    }
  }
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts;
}
