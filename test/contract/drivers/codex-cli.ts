// Contract driver for Codex: the root is CODEX_HOME (its config.toml names the Responses API mock), the real
// `codex exec resume <id>` runs from the project directory, and a request's `input` items are its elements.
import { startMockOpenAI, writeCodexConfig } from '../../support/mock-openai.js';
import { runCodex } from '../../support/run.js';
import { plainPlace, type ContractDriver, type Element } from '../driver.js';

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((c: any) => c.text ?? '').join('') : '';
}

export const driver: ContractDriver = {
  format: 'codex-cli',
  nativeSession: 'codex-rollout/parallel.jsonl',
  // function_call response items (the parallel fixture holds no other kind of call).
  nativeCalls: (text) => new Map(text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
    .filter((l) => l.type === 'response_item' && l.payload.type === 'function_call')
    .map((l) => [l.payload.call_id, { name: l.payload.name, args: JSON.parse(l.payload.arguments) }])),
  keepsImages: true,
  marksErrors: false,
  place: () => plainPlace(),
  owned: () => true,
  async realCli() {
    const mock = await startMockOpenAI();
    const place = plainPlace();
    writeCodexConfig(place.root, mock.url);
    return {
      place,
      async resume(session) {
        const before = mock.requests.length;
        const run = await runCodex({ codexHome: place.root, cwd: place.cwd, args: ['resume', session.session_id, 'Reply with exactly: resumed-ok'] });
        return { run, request: mock.requests[before]?.body };
      },
      close: () => mock.close(),
    };
  },
  elements(request) {
    const out: Element[] = [];
    for (const item of (request as any).input as any[]) {
      if (item.type === 'message') {
        const body = text(item.content);
        // Codex's own instructions and environment; a monitor notification (a developer message of ours) stays.
        if (item.role === 'developer' && !body.includes('<task-notification>')) continue;
        if (item.role === 'user' && body.startsWith('<environment_context>')) continue;
        for (const part of item.content as any[]) {
          if (part.type === 'input_image') out.push({ kind: 'image' });
          else out.push({ kind: 'text', from: item.role === 'assistant' ? 'model' : 'user', text: part.text });
        }
      } else if (item.type === 'function_call') {
        out.push({ kind: 'call', id: item.call_id, name: item.name, args: JSON.parse(item.arguments) });
      } else if (item.type === 'function_call_output') {
        out.push({ kind: 'result', id: item.call_id, text: text(item.output) });
      }
    }
    return out;
  },
  // An event_msg, as Codex appends on resume: state for its own display, not sent to the model.
  foreignLine: (_session, marker) => `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'agent_message', message: marker } })}\n`,
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
