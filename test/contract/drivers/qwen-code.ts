// Contract driver for Qwen Code: the root is `<HOME>/.qwen` (settings that keep the CLI offline and let it send
// images), the real `qwen --resume <uuid> -p` runs from the project directory against the chat-completions
// mock, and a request's `messages` are its elements (the CLI's own `<system-reminder>` parts left out).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startMockChat } from '../../support/mock-chat-completions.js';
import { resumeWithQwen, writeQwenSettings } from '../../support/qwen-code.js';
import { tempDir } from '../../support/run.js';
import { plainPlace, type ContractDriver, type NativeCall } from '../driver.js';
import { chatElements } from '../chat-elements.js';

/** The calls of a chat file: each `functionCall` part of every record. */
function nativeCalls(text: string): Map<string, NativeCall> {
  const calls = new Map<string, NativeCall>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    for (const part of JSON.parse(line).message?.parts ?? []) {
      if (typeof part.functionCall?.id === 'string') calls.set(part.functionCall.id, { name: part.functionCall.name, args: part.functionCall.args ?? {} });
    }
  }
  return calls;
}

/** Text the CLI adds to the conversation itself (skills, environment, the date before the new prompt). */
function isOwnContext(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>');
}

/** Whether a request is the CLI's own side request (its memory extraction after a turn), not the conversation. */
function isSideRequest(body: any): boolean {
  const system = body?.messages?.[0];
  return system?.role === 'system' && typeof system.content === 'string' && !system.content.includes('Qwen Code');
}

export const driver: ContractDriver = {
  format: 'qwen-code',
  nativeSession: 'qwen-code/resumed.jsonl',
  nativeCalls,
  keepsImages: true,
  marksErrors: false,
  place: () => plainPlace(),
  owned: () => true,
  async realCli() {
    const mock = await startMockChat();
    const home = tempDir('asyncai-log-contract-qwen-');
    const place = { ...plainPlace({ HOME: home }), root: writeQwenSettings(home) };
    return {
      place,
      async resume(session) {
        const before = mock.requests.length;
        const run = await resumeWithQwen({ home, cwd: place.cwd, baseUrl: `${mock.url}/v1`, session: session.session_id });
        return { run, request: mock.requests.slice(before).find((body) => !isSideRequest(body)) };
      },
      close: () => mock.close(),
    };
  },
  elements: (request) => chatElements(request, { text: (text) => (isOwnContext(text) ? undefined : text), resultImages: true }),
  // A telemetry record as the CLI appends on resume, chained onto the file's last record (reference: qwen-code.md).
  foreignLine(session, marker) {
    const records = readFileSync(session.session_file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    const last = records.at(-1);
    return `${JSON.stringify({ uuid: randomUUID(), parentUuid: last?.uuid ?? null, sessionId: session.session_id, timestamp: new Date().toISOString(),
      type: 'system', provenance: 'system', cwd: last?.cwd, subtype: 'ui_telemetry', systemPayload: { uiEvent: { 'event.name': marker } } })}\n`;
  },
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
