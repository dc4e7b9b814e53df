// The tests that prove the Gemini CLI harness: the real `gemini` lists and resumes (by uuid, from the project
// directory) the chat the built bin wrote, and sends every element of it, in order, to a loopback Gemini API
// mock; a year-old conversation survives the CLI's 30-day start-up cleanup that deletes an old-dated twin.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PRE } from '../../../lib/monitor/notification.js';
import { CANCELLED_ERROR } from '../../../lib/agents/gemini-cli/records.js';
import { startMockGemini, type MockGemini } from '../../support/mock-gemini.js';
import { resumeWithGemini, runGemini } from '../../support/gemini-cli.js';
import { tempDir } from '../../support/run.js';
import { PNG, chatLines, conversation, ev, geminiHome, writeGeminiSession } from './support.js';

let mock: MockGemini;
beforeAll(async () => {
  mock = await startMockGemini();
});
afterAll(async () => {
  await mock.close();
});

const YEAR = 365 * 24 * 3600 * 1000;
/** Event times a year back: only `lastUpdated` says the chat is alive. */
const BASE = Date.now() - YEAR;
const at = (minute: number) => new Date(BASE + minute * 60_000).toISOString();

const notification = (body: string) => `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n${body}\n</task-notification>`;

const STREAM = [
  ev({ type: 'user', text: 'Look at this screenshot and check the build.', images: [{ media_type: 'image/png', data: PNG }], timestamp: at(0) }),
  ev({ type: 'thinking', text: '**Planning** I will read the log and list the files.', timestamp: at(1) }),
  ev({ type: 'assistant', text: 'Checking.', usage: { input_tokens: 120, output_tokens: 8 }, timestamp: at(1) }),
  ev({ type: 'tool_call', id: 'c_read', name: 'read_file', arguments: { file_path: 'build.log' }, timestamp: at(2) }),
  ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(2) }),
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt', timestamp: at(3) }),
  ev({ type: 'tool_result', id: 'c_read', content: 'ENOENT: build.log', is_error: true, timestamp: at(3) }),
  ev({ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 'bk3v9q2xa', timestamp: at(4) }),
  ev({ type: 'assistant', text: 'The log is missing; there are two files.', timestamp: at(5) }),
  ev({ type: 'user', text: 'Take a screenshot.', timestamp: at(6) }),
  ev({ type: 'tool_call', id: 'c_shot', name: 'mcp__browser__screenshot', arguments: { url: 'http://localhost:3000' }, timestamp: at(7) }),
  ev({ type: 'tool_result', id: 'c_shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', media_type: 'image/png', data: PNG }], timestamp: at(8) }),
  ev({ type: 'tool_call', id: 'c_hang', name: 'Bash', arguments: { command: 'sleep 1000' }, timestamp: at(9) }),
  ev({ type: 'monitor_end', exit_code: 0, description: 'npm run watch', task_id: 'bk3v9q2xa', timestamp: at(10) }),
].join('');

const inline = { inlineData: { mimeType: 'image/png', data: PNG } };

/** What the model must receive: every element of STREAM, in order, then the resume prompt. */
const EXPECTED = [
  { role: 'user', parts: [{ text: 'Look at this screenshot and check the build.' }, inline] },
  { role: 'model', parts: [
    { text: 'Checking.' },
    { functionCall: { id: 'c_read', name: 'read_file', args: { file_path: 'build.log' } } },
    { functionCall: { id: 'c_ls', name: 'Bash', args: { command: 'ls' } } },
  ] },
  { role: 'user', parts: [
    { functionResponse: { id: 'c_read', name: 'read_file', response: { error: 'ENOENT: build.log' } } },
    { functionResponse: { id: 'c_ls', name: 'Bash', response: { output: 'a.txt\nb.txt' } } },
    { text: notification('<summary>Monitor event: "npm run watch"</summary>\n<event>build ok</event>') },
  ] },
  { role: 'model', parts: [{ text: 'The log is missing; there are two files.' }] },
  { role: 'user', parts: [{ text: 'Take a screenshot.' }] },
  { role: 'model', parts: [{ functionCall: { id: 'c_shot', name: 'mcp__browser__screenshot', args: { url: 'http://localhost:3000' } } }] },
  { role: 'user', parts: [{ functionResponse: { id: 'c_shot', name: 'mcp__browser__screenshot', response: { output: 'captured' } } }, inline] },
  { role: 'model', parts: [{ functionCall: { id: 'c_hang', name: 'Bash', args: { command: 'sleep 1000' } } }] },
  { role: 'user', parts: [
    { functionResponse: { id: 'c_hang', name: 'Bash', response: { error: CANCELLED_ERROR } } },
    { text: notification('<status>completed</status>\n<summary>Monitor "npm run watch" stream ended</summary>') },
    { text: 'Reply with exactly: resumed-ok' },
  ] },
];

describe('real gemini --resume', () => {
  test('a year-old chat is listed, survives the start-up cleanup, and resumes with every element sent in order', async () => {
    const cwd = tempDir();
    const { home, root } = geminiHome();
    const { session, file } = await writeGeminiSession(STREAM, cwd, root);

    // A twin with an old lastUpdated (another id): the CLI's cleanup deletes it, so the cleanup did run.
    const twinId = 'eeeeeeee-2222-4333-8444-555555555555';
    const twin = join(dirname(file), `session-2020-01-01T00-00-${twinId.slice(0, 8)}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const old = at(20);
    writeFileSync(twin, [{ ...lines[0], sessionId: twinId, lastUpdated: old }, ...lines.slice(1).filter((l) => !('$set' in l && 'lastUpdated' in l.$set))]
      .map((l) => `${JSON.stringify(l)}\n`).join(''));

    // Listed before the resume (the CLI's own bugs make a list after a resume unreliable).
    const list = await runGemini({ home, cwd, baseUrl: mock.url, args: ['--list-sessions'] });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`\\d+\\. Look at this screenshot and check the build\\. \\(.*\\) \\[${session}\\]`));

    const before = mock.streamed().length;
    const result = await resumeWithGemini({ home, cwd, baseUrl: mock.url, session });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('resumed-ok');
    const request = mock.streamed()[before]!;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(conversation(request.body)).toEqual(EXPECTED);
    // Thoughts stay in the file; the CLI never sends them.
    expect(JSON.stringify(request.body.contents)).not.toContain('I will read the log');
    expect(chatLines(file).find((l) => l.thoughts)?.thoughts).toEqual([
      { subject: 'Planning', description: 'I will read the log and list the files.', timestamp: at(1) },
    ]);

    expect(existsSync(file)).toBe(true);
    expect(existsSync(twin)).toBe(false);
  });
});
