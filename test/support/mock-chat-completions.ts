// A loopback mock of an OpenAI-compatible `/v1/chat/completions` (streaming) for driving the real CLIs that speak
// it (opencode, pi, qwen, droid) in tests. It records every request and answers with the next scripted reply
// (reasoning, text, tool calls) as SSE chat-completion chunks, then a usage chunk and `[DONE]`. Title requests
// get a fixed title. Any other GET is answered 404 and any other POST `{"ok":true}`: enough for droid's own API
// (FACTORY_API_BASE_URL) and telemetry, which its tests send here.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback, withJsonBody } from './http-json.js';

export type MockChatPart =
  | { text: string }
  | { reasoning: string }
  | { tool: { id: string; name: string; arguments: Record<string, unknown> } };

export interface MockChat {
  url: string;
  /** Every `/chat/completions` request body. */
  requests: any[];
  /** The conversation requests only (not the title generator's). */
  turns(): any[];
  script(...replies: MockChatPart[][]): void;
  close(): Promise<void>;
}

/** Whether a request is OpenCode's title call (its system prompt starts "You are a title generator"). */
export function isTitleRequest(body: any): boolean {
  const system = body?.messages?.[0];
  return system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith('You are a title generator');
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const data = { id, object: 'chat.completion.chunk', created: 1796118000, model: 'mock-model',
    choices: [{ index: 0, delta, finish_reason: finish }] };
  return `data: ${JSON.stringify(data)}\n\n`;
}

export async function startMockChat(fallback: MockChatPart[] = [{ text: 'resumed-ok' }]): Promise<MockChat> {
  const queue: MockChatPart[][] = [];
  const requests: any[] = [];
  let counter = 0;
  const server = createServer(withJsonBody((req: IncomingMessage, res: ServerResponse, body: any) => {
    const path = req.url ?? '';
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      // A CLI's own API (droid's session sync, flags, telemetry): every GET finds nothing, every POST is taken.
      const post = req.method === 'POST';
      res.writeHead(post ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(post ? { ok: true } : { error: { message: 'mock: not found' } }));
      return;
    }
    requests.push(body);
    const id = `chatcmpl-mock-${counter += 1}`;
    const parts = isTitleRequest(body) ? [{ text: 'Mock title' }] : queue.shift() ?? fallback;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk(id, { role: 'assistant', content: '' }));
    let tools = 0;
    for (const part of parts) {
      if ('text' in part) res.write(chunk(id, { content: part.text }));
      else if ('reasoning' in part) res.write(chunk(id, { reasoning_content: part.reasoning }));
      else {
        res.write(chunk(id, { tool_calls: [{ index: tools, id: part.tool.id, type: 'function',
          function: { name: part.tool.name, arguments: JSON.stringify(part.tool.arguments) } }] }));
        tools += 1;
      }
    }
    res.write(chunk(id, {}, tools > 0 ? 'tool_calls' : 'stop'));
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1796118000, model: 'mock-model', choices: [],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`);
    res.write('data: [DONE]\n\n');
    res.end();
  }));
  const { url, close } = await listenLoopback(server);
  return {
    url,
    requests,
    turns: () => requests.filter((body) => !isTitleRequest(body)),
    script: (...replies) => { queue.push(...replies); },
    close,
  };
}
