// Incremental convert into Droid sessions: a source that only grew is appended to the session written before
// (same session id, earlier bytes untouched, one header, the new messages chained onto the last one, ids never
// reused), and the real droid resumes old and new turns, the late result paired with its call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { resumeWithDroid, writeDroidSettings } from '../support/droid.js';
import { cleanEnv, runBin, tempDir } from '../support/run.js';

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

const at = (s: number) => new Date(Date.now() - 3600_000 + s * 1000).toISOString();
const ev = (o: object) => `${JSON.stringify(o)}\n`;

/** The first part of a source: a turn whose tool call has no result yet. */
const FIRST = [
  ev({ type: 'user', text: 'First question.', timestamp: at(1) }),
  ev({ type: 'assistant', text: 'First answer.', timestamp: at(2) }),
  ev({ type: 'user', text: 'List the files.', timestamp: at(3) }),
  ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(4) }),
].join('');
/** What the source adds later: the call's result, the answer, another turn. */
const GROWTH = [
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt', timestamp: at(5) }),
  ev({ type: 'assistant', text: 'There are two files.', timestamp: at(6) }),
  ev({ type: 'user', text: 'Thanks.', timestamp: at(7) }),
  ev({ type: 'assistant', text: 'You are welcome.', timestamp: at(8) }),
].join('');

const records = (file: string): any[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('incremental convert into Droid sessions', () => {
  test('a source that grows mid-turn is appended to its session, chained whole, and the real droid sends old and new turns', async () => {
    const home = tempDir('asyncai-log-incremental-droid-home-');
    const root = writeDroidSettings(home, `${mock.url}/v1`);
    const dir = tempDir('asyncai-log-incremental-droid-');
    const source = join(dir, 'events.ndjson');
    const convert = async () => {
      const r = await runBin(['convert', source, '--session-format', 'droid', '--session-dir', `droid=${root}`, '--cwd', dir], { cwd: tempDir(), env: cleanEnv({ HOME: home }) });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim());
    };
    writeFileSync(source, FIRST);
    const first = await convert();
    expect(first).toMatchObject({ status: 'converted', reason: 'new' });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    appendFileSync(source, GROWTH);
    const second = await convert();
    expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(second.harnesses[0]).toMatchObject({ session_id: session.session_id, session_file: session.session_file });
    expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);
    const [header, ...all] = records(session.session_file);
    expect(header).toMatchObject({ type: 'session_start', id: session.session_id });
    expect(all.every((r) => r.type === 'message')).toBe(true);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    all.forEach((r, i) => expect(r.parentId).toBe(i === 0 ? undefined : all[i - 1].id));

    const count = mock.requests.length;
    const resumed = await resumeWithDroid({ home, cwd: dir, api: mock.url, session: session.session_id });
    expect(resumed.code, resumed.stderr).toBe(0);
    const messages = (mock.requests[count].messages as any[]).filter((m) => m.role !== 'system');
    const tool = messages.find((m) => m.role === 'tool');
    // Droid sends a call id not of its own `call_` shape as `call_<id>_<n>`, the call's and its result's alike.
    const call = messages.find((m) => m.role === 'assistant' && m.tool_calls !== undefined);
    expect(call.tool_calls).toEqual([expect.objectContaining({ function: { name: 'Bash', arguments: '{"command":"ls"}' } })]);
    expect(tool.tool_call_id).toBe(call.tool_calls[0].id);
    expect(tool.tool_call_id).toContain('c_ls');
    expect(JSON.stringify(tool.content)).toContain('a.txt\\nb.txt');
    const text = JSON.stringify(messages);
    for (const said of ['First question.', 'First answer.', 'List the files.', 'There are two files.', 'Thanks.', 'You are welcome.']) expect(text).toContain(said);
  });
});
