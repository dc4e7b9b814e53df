// The elements of a chat-completions request (its `messages`), as the drivers of the agents that send one read
// them (Copilot CLI, Droid, Qwen Code): the system prompt left out, a tool message a result (its text parts
// joined by newlines), a user or assistant message its text and image parts, then its tool calls.
import type { Element } from './driver.js';

/** The parts of an OpenAI message's content (a string is one text part; an empty one none). */
export function contentParts(content: unknown): any[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

export interface ChatElementOptions {
  /**
   * The text a non-empty text part (`list[at]`) of a message `from` the user or the model stands for, or
   * undefined when it is the CLI's own context (default: its text).
   */
  text?(text: string, from: 'user' | 'model', list: readonly any[], at: number): string | undefined;
  /** A tool message's image parts are elements too, after its result. */
  resultImages?: boolean;
}

/** The elements of `request`, in order. */
export function chatElements(request: unknown, options: ChatElementOptions = {}): Element[] {
  const out: Element[] = [];
  for (const m of (request as any).messages as any[]) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const list = contentParts(m.content);
      out.push({ kind: 'result', id: m.tool_call_id, text: list.filter((p) => p.type === 'text').map((p) => p.text).join('\n') });
      if (options.resultImages === true) for (const p of list) if (p.type === 'image_url') out.push({ kind: 'image' });
      continue;
    }
    const from = m.role === 'assistant' ? 'model' : 'user';
    const list = contentParts(m.content);
    list.forEach((part, at) => {
      if (part.type === 'text' && part.text !== '') {
        const text = options.text === undefined ? part.text : options.text(part.text, from, list, at);
        if (text !== undefined) out.push({ kind: 'text', from, text });
      } else if (part.type === 'image_url') {
        out.push({ kind: 'image' });
      }
    });
    for (const call of (m.tool_calls ?? []) as any[]) out.push({ kind: 'call', id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) });
  }
  return out;
}
