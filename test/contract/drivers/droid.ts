// Contract driver for Factory Droid: the root is `<HOME>/.factory` (settings naming the chat-completions mock as a
// custom model that takes images), the real `droid exec -s <id>` continues the session from the project directory
// with its own API and telemetry at the same loopback mock (it asks that API for the session first), and a
// request's `messages` are its elements (the CLI's own `<system-reminder>` context left out).
import { startMockChat } from '../../support/mock-chat-completions.js';
import { resumeWithDroid, writeDroidSettings } from '../../support/droid.js';
import { tempDir } from '../../support/run.js';
import { plainPlace, type ContractDriver, type NativeCall } from '../driver.js';
import { chatElements } from '../chat-elements.js';

/** The calls of a session file: each `tool_use` block of every assistant message. */
function nativeCalls(text: string): Map<string, NativeCall> {
  const calls = new Map<string, NativeCall>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value = JSON.parse(line);
    if (value.type !== 'message' || value.message?.role !== 'assistant' || !Array.isArray(value.message.content)) continue;
    for (const block of value.message.content) if (block.type === 'tool_use') calls.set(block.id, { name: block.name, args: block.input ?? {} });
  }
  return calls;
}

/** Text the CLI adds to the conversation itself (tools, skills, environment before each prompt). */
function isOwnContext(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>');
}

export const driver: ContractDriver = {
  format: 'droid',
  nativeSession: 'droid/resumed.jsonl',
  nativeCalls,
  keepsImages: true,
  marksErrors: false,
  place: () => plainPlace(),
  owned: () => true,
  async realCli() {
    const mock = await startMockChat();
    const home = tempDir('asyncai-log-contract-droid-');
    const place = { ...plainPlace({ HOME: home }), root: writeDroidSettings(home, `${mock.url}/v1`) };
    return {
      place,
      async resume(session) {
        const before = mock.requests.length;
        const run = await resumeWithDroid({ home, cwd: place.cwd, api: mock.url, session: session.session_id });
        return { run, request: mock.requests[before] };
      },
      close: () => mock.close(),
    };
  },
  elements: (request) => chatElements(request, { text: (text) => (isOwnContext(text) ? undefined : text) }),
  // The line droid appends after each turn it runs (reference: droid.md), never sent to the model.
  foreignLine: (_session, marker) => `${JSON.stringify({ type: 'agent_turn_outcome', turnId: marker, reason: 'completed', resultKind: 'text' })}\n`,
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
