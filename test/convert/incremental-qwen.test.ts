// Incremental convert into Qwen Code chats: a source that only grew is appended to the chat written before
// (same session id, earlier bytes untouched, the new records chained onto the last one, ids never reused), and
// the real qwen resumes old and new turns, the late result paired with its call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { resumeWithQwen, writeQwenSettings } from '../support/qwen-code.js';
import { cleanEnv, tempDir } from '../support/run.js';
import { convertGrowing, jsonLines, SAID } from '../support/growing-source.js';

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

describe('incremental convert into Qwen Code chats', () => {
  test('a source that grows mid-turn is appended to its chat, chained whole, and the real qwen sends old and new turns', async () => {
    const home = tempDir('asyncai-log-incremental-qwen-home-');
    const root = writeQwenSettings(home);
    const dir = tempDir('asyncai-log-incremental-qwen-');
    const session = await convertGrowing('qwen-code', root, dir, cleanEnv({ HOME: home }));
    const all = jsonLines(session.session_file);
    expect(new Set(all.map((r) => r.uuid)).size).toBe(all.length);
    all.forEach((r, i) => expect(r.parentUuid).toBe(i === 0 ? null : all[i - 1].uuid));
    expect(all.every((r) => r.sessionId === session.session_id)).toBe(true);

    const count = mock.requests.length;
    const resumed = await resumeWithQwen({ home, cwd: dir, baseUrl: `${mock.url}/v1`, session: session.session_id });
    expect(resumed.code, resumed.stderr).toBe(0);
    const messages = (mock.requests[count].messages as any[]).filter((m) => m.role !== 'system');
    const tool = messages.find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 'c_ls' });
    expect(JSON.stringify(tool.content)).toContain('a.txt\\nb.txt');
    const text = JSON.stringify(messages);
    for (const said of SAID) expect(text).toContain(said);
  });
});
