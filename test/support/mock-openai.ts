// A loopback mock of the OpenAI Responses API for driving the real `codex` binary in tests. It records
// every request body and answers with the next scripted list of output items (messages or function calls)
// as the smallest SSE stream Codex accepts: output_item.done per item, then response.completed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listenLoopback, withJsonBody } from './http-json.js';

export type MockItem =
  | { type: 'message'; text: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: Record<string, unknown> }
  /** Any output item, sent as it is (reasoning, web_search_call, namespaced function calls, ...). */
  | { type: 'raw'; item: Record<string, unknown> }
  /** Not an item: a reply holding it is answered with `response.failed` carrying this error. */
  | { type: 'fail'; code: string; message: string };

export interface MockOpenAI {
  url: string;
  requests: { path: string; body: any }[];
  script(...replies: MockItem[][]): void;
  close(): Promise<void>;
}

function item(spec: Exclude<MockItem, { type: 'fail' }>, index: number): Record<string, unknown> {
  if (spec.type === 'raw') return spec.item;
  if (spec.type === 'message') {
    return { type: 'message', id: `msg_mock_${index}`, role: 'assistant', status: 'completed',
      content: [{ type: 'output_text', text: spec.text, annotations: [] }] };
  }
  return { type: 'function_call', id: `fc_mock_${index}`, status: 'completed', call_id: spec.call_id, name: spec.name,
    arguments: JSON.stringify(spec.arguments) };
}

export async function startMockOpenAI(fallback: MockItem[] = [{ type: 'message', text: 'resumed-ok' }]): Promise<MockOpenAI> {
  const queue: MockItem[][] = [];
  const requests: { path: string; body: any }[] = [];
  let counter = 0;
  const server = createServer(withJsonBody((req: IncomingMessage, res: ServerResponse, body: any) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path.endsWith('/responses')) {
      requests.push({ path, body });
      const items = queue.shift() ?? fallback;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const responseId = `resp_mock_${counter += 1}`;
      res.write(`event: response.created\ndata: ${JSON.stringify({ type: 'response.created', response: { id: responseId } })}\n\n`);
      const failure = items.find((spec) => spec.type === 'fail');
      if (failure && failure.type === 'fail') {
        const failed = { type: 'response.failed', response: { id: responseId, error: { code: failure.code, message: failure.message } } };
        res.write(`event: response.failed\ndata: ${JSON.stringify(failed)}\n\n`);
        res.end();
        return;
      }
      items.forEach((spec, i) => {
        if (spec.type === 'fail') return;
        const data = { type: 'response.output_item.done', output_index: i, item: item(spec, counter * 100 + i) };
        res.write(`event: response.output_item.done\ndata: ${JSON.stringify(data)}\n\n`);
      });
      const completed = { type: 'response.completed', response: { id: responseId, usage: {
        input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 } } };
      res.write(`event: response.completed\ndata: ${JSON.stringify(completed)}\n\n`);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'mock: not found' } }));
  }));
  const { url, close } = await listenLoopback(server);
  return {
    url,
    requests,
    script: (...replies) => { queue.push(...replies); },
    close,
  };
}

/** Write `$CODEX_HOME/config.toml` pointing Codex at the mock. */
export function writeCodexConfig(codexHome: string, mockUrl: string): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), [
    'model = "mock-model"',
    'model_provider = "mock"',
    '[model_providers.mock]',
    'name = "Mock Responses"',
    `base_url = "${mockUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    '',
  ].join('\n'));
}
