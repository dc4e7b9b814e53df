// What a run killed mid-stream leaves: the journal on disk holds every event received before the kill. SIGKILL:
// the journal loaded as docs/opencode.md says (`asyncai-log --session-format opencode --cwd <dir> < <journal>`) is a
// session the real opencode continues with all of it. SIGTERM: the run loads it itself before it exits.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { continueWithOpencode, opencodeHome, type OpencodeHome } from '../../support/opencode.js';
import { BIN } from '../../support/run.js';
import { binEnv, ev, projectDir, writeOpencodeSession } from './support.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, second)).toISOString();

/** Sent before the kill: each chunk waits until the journal holds it. */
const RECEIVED = [
  ev({ type: 'user', text: 'Check the build please.', timestamp: at(0) }),
  ev({ type: 'assistant', text: 'Checking.', timestamp: at(1) }) + ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(2) }),
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt', timestamp: at(3) }),
];

/** Start the bin on a pipe, feed RECEIVED chunk by chunk, each once the journal shows it; then `signal`. */
async function killedRun(home: OpencodeHome, dir: string, signal: NodeJS.Signals): Promise<{ journal: string; code: number | null; exit: NodeJS.Signals | null; id: string }> {
  const child = spawn(process.execPath, [BIN, '--session-format', 'opencode', '--cwd', dir], { cwd: dir, env: binEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
  const until = async (ok: () => boolean) => {
    while (!ok()) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  await until(() => out.includes('\n'));
  const session = JSON.parse(out.split('\n')[0]!).result;
  const journal: string = session.session_file;
  const lines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).length : 0);
  for (const chunk of RECEIVED) {
    const before = readFileSync(journal, 'utf8');
    child.stdin.write(chunk);
    await until(() => readFileSync(journal, 'utf8') !== before);
  }
  expect(lines()).toBeGreaterThan(1);
  child.kill(signal);
  const [code, exit] = await closed;
  return { journal, code, exit, id: session.session_id };
}

const EXPECTED_START = [
  { role: 'user', content: 'Check the build please.' },
  { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c_ls', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }] },
  { role: 'tool', tool_call_id: 'c_ls', content: 'a.txt' },
];

function sent(body: any): unknown[] {
  return body.messages.filter((m: any) => m.role !== 'system').slice(0, 3).map((m: any) => {
    const { role, content, tool_calls, tool_call_id } = m;
    const text = Array.isArray(content) ? content.map((c: any) => c.text).join('') : content;
    return { role, content: text, ...(tool_calls ? { tool_calls } : {}), ...(tool_call_id ? { tool_call_id } : {}) };
  });
}

let mock: MockChat;
let home: OpencodeHome;
beforeAll(async () => {
  mock = await startMockChat();
  home = opencodeHome(mock.url);
});
afterAll(async () => {
  await mock.close();
});

describe('killed mid-stream', () => {
  let killed: Awaited<ReturnType<typeof killedRun>>;
  let loaded: Awaited<ReturnType<typeof writeOpencodeSession>>;
  let termed: Awaited<ReturnType<typeof killedRun>>;
  const requests: Record<string, any> = {};
  beforeAll(async () => {
    const dir = projectDir(home, 'killed', false);
    const other = projectDir(home, 'termed', false);
    [killed, termed] = await Promise.all([killedRun(home, dir, 'SIGKILL'), killedRun(home, other, 'SIGTERM')]);
    loaded = await writeOpencodeSession(home, dir, readFileSync(killed.journal));
    for (const [name, where, id] of [['killed', dir, loaded.id], ['termed', other, termed.id]] as const) {
      const before = mock.turns().length;
      const result = await continueWithOpencode(home, where, id);
      expect(result.stdout).toContain('resumed-ok');
      requests[name] = mock.turns()[before];
    }
  }, 300_000);

  test('SIGKILL: the journal loaded as docs/opencode.md says gives a session holding everything received', () => {
    expect(killed.exit).toBe('SIGKILL');
    expect(loaded.result.code).toBe(0);
    expect(sent(requests.killed)).toEqual(EXPECTED_START);
  });

  test('SIGTERM: the run loads the session itself, exits 143, and it holds everything received', () => {
    expect(termed.code).toBe(143);
    expect(sent(requests.termed)).toEqual(EXPECTED_START);
  });
});
