// Incremental convert into Copilot CLI sessions: a source that only grew is appended to the events file written
// before (same session id, earlier bytes untouched, the new events chained onto the last one, ids never reused),
// and the real copilot resumes old and new turns, the late result paired with its call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copilotRoot, resumeWithCopilot } from '../support/copilot-cli.js';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
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

const events = (file: string): any[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('incremental convert into Copilot CLI sessions', () => {
  test('a source that grows mid-turn is appended to its session, chained whole, and the real copilot sends old and new turns', async () => {
    const home = tempDir('asyncai-log-incremental-copilot-home-');
    const root = copilotRoot(home);
    const dir = tempDir('asyncai-log-incremental-copilot-');
    const source = join(dir, 'events.ndjson');
    const convert = async () => {
      const r = await runBin(['convert', source, '--session-format', 'copilot-cli', '--session-dir', `copilot-cli=${root}`, '--cwd', dir], { cwd: tempDir(), env: cleanEnv({ HOME: home }) });
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
    const all = events(session.session_file);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    all.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : all[i - 1].id));
    expect(all.map((e) => e.type)).toEqual(['session.start', 'user.message', 'assistant.message', 'user.message', 'assistant.message',
      'tool.execution_complete', 'assistant.message', 'user.message', 'assistant.message']);

    const count = mock.requests.length;
    const resumed = await resumeWithCopilot({ home, cwd: dir, baseUrl: `${mock.url}/v1`, session: session.session_id });
    expect(resumed.code, resumed.stderr).toBe(0);
    const messages = (mock.requests[count].messages as any[]).filter((m) => m.role !== 'system');
    expect(messages.filter((m) => m.role === 'tool')).toEqual([expect.objectContaining({ tool_call_id: 'c_ls', content: 'a.txt\nb.txt' })]);
    const text = JSON.stringify(messages);
    for (const said of ['First question.', 'First answer.', 'List the files.', 'There are two files.', 'Thanks.', 'You are welcome.']) expect(text).toContain(said);
  });
});
