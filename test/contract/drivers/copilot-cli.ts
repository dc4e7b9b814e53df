// Contract driver for GitHub Copilot CLI: the root is `<HOME>/.copilot`, the real `copilot --resume=<uuid> -p`
// runs from the project directory against the chat-completions mock (offline, no login), and a request's
// `messages` are its elements: the CLI's own context (the date before a prompt, the text part naming each
// attached image) left out.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startMockChat } from '../../support/mock-chat-completions.js';
import { copilotRoot, resumeWithCopilot, withoutDatetime } from '../../support/copilot-cli.js';
import { tempDir } from '../../support/run.js';
import { plainPlace, type ContractDriver, type NativeCall } from '../driver.js';
import { chatElements } from '../chat-elements.js';

/** The tool requests of every assistant message of an events file, by call id. */
function nativeCalls(text: string): Map<string, NativeCall> {
  const calls = new Map<string, NativeCall>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line);
    if (event.type !== 'assistant.message') continue;
    for (const request of event.data.toolRequests ?? []) calls.set(request.toolCallId, { name: request.name, args: request.arguments ?? {} });
  }
  return calls;
}

/** The id of the file's last event: a foreign event chains onto it, as the CLI's own do. */
function lastId(file: string): string | null {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return lines.length === 0 ? null : JSON.parse(lines.at(-1)!).id;
}

export const driver: ContractDriver = {
  format: 'copilot-cli',
  nativeSession: 'copilot-cli/resumed.jsonl',
  nativeCalls,
  keepsImages: true,
  marksErrors: false,
  place: () => plainPlace(),
  owned: (rel) => rel === 'session-state/' || rel.startsWith('session-state/'),
  async realCli() {
    const mock = await startMockChat();
    const home = tempDir('asyncai-log-contract-copilot-');
    const place = { ...plainPlace({ HOME: home }), root: copilotRoot(home) };
    return {
      place,
      async resume(session) {
        const before = mock.requests.length;
        // By the 8-hex prefix the CLI's help offers, as a person types it.
        const run = await resumeWithCopilot({ home, cwd: place.cwd, baseUrl: `${mock.url}/v1`, session: session.session_id.slice(0, 8) });
        return { run, request: mock.requests[before] };
      },
      close: () => mock.close(),
    };
  },
  elements: (request) => chatElements(request, {
    // The CLI names each attached image in a text part right before it, and puts the date before a prompt.
    text: (text, from, list, at) => (list[at + 1]?.type === 'image_url' ? undefined : from === 'user' ? withoutDatetime(text) : text),
  }),
  // A notice as the CLI appends to a session it runs, chained onto the file's last event (reference: copilot-cli.md).
  foreignLine: (session, marker) => `${JSON.stringify({
    type: 'session.info', data: { infoType: 'notice', message: marker }, id: randomUUID(), timestamp: new Date().toISOString(), parentId: lastId(session.session_file),
  })}\n`,
  // Its sessions are read through its input adapter, from the events file alone.
  plantSidecars: () => null,
};
