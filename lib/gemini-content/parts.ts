// Gemini `Content` parts both ways, for the agents whose files hold them (Gemini CLI's chats, and Qwen Code's,
// a fork that kept Gemini's Content): text, `inlineData` images, thought parts, and `functionCall` /
// `functionResponse` parts carrying the call's id. What is particular to one CLI stays in its agent folder.
import type { ContentPart, ImageInput } from '../events.js';
import { isObject } from '../util/is-object.js';

/** One part of a Content, as JSON. */
export type Part = Record<string, unknown>;

/** An image as an `inlineData` part. */
export function inlineDataPart(image: ImageInput): Part {
  return { inlineData: { mimeType: image.media_type, data: image.data } };
}

/** A tool call as a `functionCall` part (the id is what pairs it with its response). */
export function functionCallPart(id: string, name: string, args: Record<string, unknown>): Part {
  return { functionCall: { id, name, args } };
}

/** A tool result as a `functionResponse` part: the text as `output`, or as `error` when the call failed. */
export function functionResponsePart(id: string, name: string, text: string, isError: boolean): Part {
  return { functionResponse: { id, name, response: isError ? { error: text } : { output: text } } };
}

/** The text parts of generic tool result content, joined by newlines. */
export function contentText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}

/** The images of generic tool result content. */
export function contentImages(content: string | ContentPart[]): ImageInput[] {
  return typeof content === 'string' ? [] : content.filter((p): p is { type: 'image' } & ImageInput => p.type === 'image');
}

/** The parts of a Content's `parts` (or a chat message's `content`: a string is one text part). */
export function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? { text: p } : p)).filter(isObject);
  return isObject(content) ? [content] : [];
}

/** The image of an `inlineData` part, or undefined. */
export function imageOfPart(part: Part): ImageInput | undefined {
  const data = part.inlineData;
  if (!isObject(data) || typeof data.mimeType !== 'string' || typeof data.data !== 'string') return undefined;
  return { media_type: data.mimeType, data: data.data };
}

/** The text of the parts that are not thoughts, joined by newlines. */
export function textOfParts(parts: Part[]): string {
  return parts.filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('\n');
}

/** The texts of the thought parts (`{text, thought: true}`), in order. */
export function thoughtsOfParts(parts: Part[]): string[] {
  return parts.filter((p) => p.thought === true && typeof p.text === 'string').map((p) => p.text as string);
}

/** A function response's `response` as text and whether it is an error. */
export function responseText(response: unknown): { text: string; error: boolean } {
  if (!isObject(response)) return { text: typeof response === 'string' ? response : '', error: false };
  if (response.error !== undefined) return { text: typeof response.error === 'string' ? response.error : JSON.stringify(response.error), error: true };
  const output = response.output ?? response.content ?? response.result;
  if (typeof output === 'string') return { text: output, error: false };
  return { text: JSON.stringify(output ?? response), error: false };
}
