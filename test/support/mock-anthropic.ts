// A loopback mock of the Anthropic Messages API for driving the real `claude` binary in tests.
// It records every request body and answers each with the next scripted reply (text or tool_use blocks),
// streamed as the Messages API SSE sequence the CLI expects.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenLoopback, withJsonBody } from './http-json.js';

/** One content block of a scripted reply. */
export type MockBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string }
  /** Not a block: a reply holding it is answered with this HTTP error instead of a message. */
  | { type: 'error'; status: number; error_type: string; message: string };

/** A request the mock received: the parsed JSON body. */
export interface MockRequest {
  path: string;
  body: any;
}

export interface MockAnthropic {
  url: string;
  requests: MockRequest[];
  /** Queue replies; when the queue is empty the mock answers with `fallback`. */
  script(...replies: MockBlock[][]): void;
  /**
   * Consult `router` before the queue: a reply it returns answers that request (undefined: use the queue).
   * Lets a test answer a subagent's own requests apart from the main conversation's.
   */
  route(router: (body: any) => MockBlock[] | undefined): void;
  close(): Promise<void>;
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function reply(res: ServerResponse, blocks: MockBlock[], model: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `msg_mock_${Math.random().toString(36).slice(2, 12)}`;
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null,
      stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'error') return;
    if (block.type === 'thinking') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  const toolUse = blocks.some((b) => b.type === 'tool_use');
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn',
    stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/** Start the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockAnthropic(fallback: MockBlock[] = [{ type: 'text', text: 'resumed-ok' }]): Promise<MockAnthropic> {
  const queue: MockBlock[][] = [];
  const requests: MockRequest[] = [];
  let router: ((body: any) => MockBlock[] | undefined) | undefined;
  const server: Server = createServer(withJsonBody((req: IncomingMessage, res: ServerResponse, body: any) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path.startsWith('/v1/messages') && !path.includes('count_tokens')) {
      requests.push({ path, body });
      if (body && body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'msg_mock_sync', type: 'message', role: 'assistant', model: body.model,
          content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 } }));
        return;
      }
      const blocks = router?.(body) ?? queue.shift() ?? fallback;
      const failure = blocks.find((b) => b.type === 'error');
      if (failure && failure.type === 'error') {
        res.writeHead(failure.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: failure.error_type, message: failure.message } }));
        return;
      }
      reply(res, blocks, String(body?.model ?? 'claude-sonnet-4-5-20250929'));
      return;
    }
    if (path.includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'mock: not found' } }));
  }));
  const { url, close } = await listenLoopback(server);
  return {
    url,
    requests,
    script: (...replies) => { queue.push(...replies); },
    route: (fn) => { router = fn; },
    close,
  };
}
