// Incremental convert into Droid sessions: a source that only grew is appended to the session written before
// (same session id, earlier bytes untouched, one header, the new messages chained onto the last one, ids never
// reused), and the real droid resumes old and new turns, the late result paired with its call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { resumeWithDroid, writeDroidSettings } from '../support/droid.js';
import { cleanEnv, tempDir } from '../support/run.js';
import { convertGrowing, jsonLines, SAID } from '../support/growing-source.js';

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

describe('incremental convert into Droid sessions', () => {
  test('a source that grows mid-turn is appended to its session, chained whole, and the real droid sends old and new turns', async () => {
    const home = tempDir('asyncai-log-incremental-droid-home-');
    const root = writeDroidSettings(home, `${mock.url}/v1`);
    const dir = tempDir('asyncai-log-incremental-droid-');
    const session = await convertGrowing('droid', root, dir, cleanEnv({ HOME: home }));
    const [header, ...all] = jsonLines(session.session_file);
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
    for (const said of SAID) expect(text).toContain(said);
  });
});
