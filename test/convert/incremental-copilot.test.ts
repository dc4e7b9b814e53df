// Incremental convert into Copilot CLI sessions: a source that only grew is appended to the events file written
// before (same session id, earlier bytes untouched, the new events chained onto the last one, ids never reused),
// and the real copilot resumes old and new turns, the late result paired with its call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copilotRoot, resumeWithCopilot } from '../support/copilot-cli.js';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { cleanEnv, tempDir } from '../support/run.js';
import { convertGrowing, jsonLines, SAID } from '../support/growing-source.js';

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

describe('incremental convert into Copilot CLI sessions', () => {
  test('a source that grows mid-turn is appended to its session, chained whole, and the real copilot sends old and new turns', async () => {
    const home = tempDir('asyncai-log-incremental-copilot-home-');
    const root = copilotRoot(home);
    const dir = tempDir('asyncai-log-incremental-copilot-');
    const session = await convertGrowing('copilot-cli', root, dir, cleanEnv({ HOME: home }));
    const all = jsonLines(session.session_file);
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
    for (const said of SAID) expect(text).toContain(said);
  });
});
