// Contract driver for Pi. The root is pi's agent dir (`--session-dir pi=<dir>`, `$PI_CODING_AGENT_DIR`), whose
// models.json names the chat-completions mock; the real `pi --session <file> -p` continues the session from the
// project directory, with HOME and the agent dir isolated, and a request's `messages` are its elements. Pi replays
// a custom message (a monitor notification) and a compaction summary as user content.
import { readFileSync } from 'node:fs';
import { startMockChat } from '../../support/mock-chat-completions.js';
import { continueWithPi, piHome } from '../../support/pi.js';
import { tempDir } from '../../support/run.js';
import { plainPlace, type ContractDriver, type Element, type Place } from '../driver.js';

/** A place whose root is the agent dir `agentDir` (holding models.json). */
function place(agentDir: string, env: Record<string, string>): Place {
  return { root: agentDir, cwd: tempDir('asyncai-log-contract-cwd-'), env };
}

/** The id of the file's last entry: a foreign entry chains onto it, as pi's own appended ones do. */
function lastId(file: string): string | null {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  for (const line of lines.reverse()) {
    const value = JSON.parse(line);
    if (typeof value.id === 'string' && 'parentId' in value) return value.id;
  }
  return null;
}

export const driver: ContractDriver = {
  format: 'pi',
  nativeSession: 'pi/session.jsonl',
  // toolCall blocks of assistant messages: their id, name and arguments.
  nativeCalls: (text) => new Map(text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
    .filter((e) => e.type === 'message' && e.message.role === 'assistant')
    .flatMap((e) => (e.message.content as any[]).filter((b) => b.type === 'toolCall'))
    .map((b) => [b.id, { name: b.name, args: b.arguments }])),
  keepsImages: true,
  marksErrors: false,
  // Without a mock: pi's environment, the root not made yet.
  place: () => plainPlace({ TERM: 'dumb', PI_OFFLINE: '1' }),
  owned: (rel) => rel === 'sessions/' || rel.startsWith('sessions/'),
  async realCli() {
    const mock = await startMockChat();
    const home = piHome(mock.url);
    const at = place(home.agentDir, home.env);
    return {
      place: at,
      async resume(session) {
        const before = mock.requests.length;
        const run = await continueWithPi(home, at.cwd, session.session_file);
        return { run, request: mock.requests[before] };
      },
      close: () => mock.close(),
    };
  },
  elements(request) {
    const out: Element[] = [];
    for (const m of (request as any).messages as any[]) {
      if (m.role === 'system' || m.role === 'developer') continue;
      const from = m.role === 'assistant' ? 'model' : 'user';
      if (m.role === 'tool') {
        const text = typeof m.content === 'string' ? m.content : (m.content as any[]).map((c) => c.text ?? '').join('');
        out.push({ kind: 'result', id: m.tool_call_id, text });
        continue;
      }
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []) as any[];
      for (const part of parts) {
        if (part.type === 'text' && part.text !== '') out.push({ kind: 'text', from, text: part.text });
        else if (part.type === 'image_url') out.push({ kind: 'image' });
      }
      for (const call of (m.tool_calls ?? []) as any[]) out.push({ kind: 'call', id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) });
    }
    return out;
  },
  // A session name, as pi's `/name` appends: chained onto the last entry, and never sent to the model.
  foreignLine: (session, marker) => `${JSON.stringify({
    type: 'session_info', id: 'f0f0f0f0', parentId: lastId(session.session_file), timestamp: new Date().toISOString(), name: marker,
  })}\n`,
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
