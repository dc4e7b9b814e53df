// A loopback mock of the Gemini API (v1beta) for driving the real `gemini` binary in tests. It records every
// request and answers `:streamGenerateContent` with the next scripted reply (text and function calls) as SSE
// events, the last one with `finishReason: "STOP"`; `:generateContent` and `:countTokens` get fixed answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback, withJsonBody } from './http-json.js';

export type MockPart =
  | { text: string }
  | { functionCall: { name: string; args: Record<string, unknown> } }
  | { text: string; thought: true };

export interface MockGemini {
  url: string;
  /** Every request: its path (`/v1beta/models/<model>:<method>`) and parsed body. */
  requests: { path: string; body: any }[];
  /** The `:streamGenerateContent` requests only: the conversation turns the CLI sent. */
  streamed(): { path: string; body: any }[];
  script(...replies: MockPart[][]): void;
  close(): Promise<void>;
}

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };

export async function startMockGemini(fallback: MockPart[] = [{ text: 'resumed-ok' }]): Promise<MockGemini> {
  const queue: MockPart[][] = [];
  const requests: { path: string; body: any }[] = [];
  const server = createServer(withJsonBody((req: IncomingMessage, res: ServerResponse, body: any) => {
    const path = req.url ?? '';
    requests.push({ path, body });
    if (req.method === 'POST' && path.includes(':streamGenerateContent')) {
      const parts = queue.shift() ?? fallback;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // One event per part, then the finish reason: the CLI fails a stream that ends without one.
      parts.forEach((part) => {
        res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }] })}\r\n\r\n`);
      });
      const last = { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE };
      res.write(`data: ${JSON.stringify(last)}\r\n\r\n`);
      res.end();
      return;
    }
    if (req.method === 'POST' && path.includes(':generateContent')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'mock summary' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE }));
      return;
    }
    if (req.method === 'POST' && path.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 404, message: 'mock: not found', status: 'NOT_FOUND' } }));
  }));
  const { url, close } = await listenLoopback(server);
  return {
    url,
    requests,
    streamed: () => requests.filter((r) => r.path.includes(':streamGenerateContent')),
    script: (...replies) => { queue.push(...replies); },
    close,
  };
}
