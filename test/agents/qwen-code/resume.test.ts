// The real qwen (0.24.4) on chats the bin wrote: `qwen sessions list` lists them from the project, `qwen -c`
// continues the latest one, a chat resumed by qwen and then read gives back both conversations, and a
// compaction's checkpoint replaces the history before it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { runQwen, writeQwenSettings } from '../../support/qwen-code.js';
import { cleanEnv, FIXTURES, runBin, sessionOf, tempDir } from '../../support/run.js';
import { join } from 'node:path';

const EVENTS = readFileSync(join(FIXTURES, 'events', 'contract.ndjson'), 'utf8');

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

/** A qwen home and a project, and the contract fixture written there as a Qwen Code chat. */
async function written(events = EVENTS): Promise<{ home: string; cwd: string; session: { session_id: string; session_file: string } }> {
  const home = tempDir('asyncai-log-qwen-home-');
  const cwd = tempDir('asyncai-log-qwen-project-');
  const root = writeQwenSettings(home);
  const r = await runBin(['--session-format', 'qwen-code', '--session-dir', `qwen-code=${root}`, '--cwd', cwd], { input: events, cwd, env: cleanEnv({ HOME: home }) });
  expect(r.code, r.stderr).toBe(0);
  return { home, cwd, session: sessionOf(r) };
}

describe('the real qwen on a chat the bin wrote', () => {
  test('qwen sessions list --json lists it from the project, titled by its first prompt', async () => {
    const { home, cwd, session } = await written();
    const listed = await runQwen({ home, cwd, baseUrl: `${mock.url}/v1`, args: ['sessions', 'list', '--json'] });
    expect(listed.code, listed.stderr).toBe(0);
    const entries = listed.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(entries).toEqual([expect.objectContaining({ sessionId: session.session_id, prompt: 'Check the build, and look at this screenshot.' })]);
  });

  test('qwen -c continues it (the latest of the project), and read then gives both conversations', async () => {
    const { home, cwd, session } = await written();
    const before = mock.requests.length;
    const resumed = await runQwen({ home, cwd, baseUrl: `${mock.url}/v1`, args: ['-c', '-p', 'Reply with exactly: resumed-ok'] });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.stringify(mock.requests[before])).toContain('contract-listing.txt');
    const read = await runBin(['read', '--events', session.session_file], { env: cleanEnv({ HOME: home }) });
    expect(read.code, read.stderr).toBe(0);
    const texts = read.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)).filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
    expect(texts[0]).toBe('Check the build, and look at this screenshot.');
    expect(texts.slice(-2)).toEqual(['Reply with exactly: resumed-ok', 'resumed-ok']);
  });

  test('a compaction replaces what came before it: qwen sends its summary, then what follows', async () => {
    const ev = (o: object) => `${JSON.stringify(o)}\n`;
    const { home, cwd, session } = await written([
      ev({ type: 'user', text: 'OLD_QUESTION' }), ev({ type: 'assistant', text: 'OLD_ANSWER' }),
      ev({ type: 'compaction', summary: 'THE_SUMMARY' }), ev({ type: 'user', text: 'NEW_QUESTION' }), ev({ type: 'assistant', text: 'NEW_ANSWER' }),
    ].join(''));
    const before = mock.requests.length;
    const resumed = await runQwen({ home, cwd, baseUrl: `${mock.url}/v1`, args: ['--resume', session.session_id, '-p', 'Reply with exactly: resumed-ok'] });
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = JSON.stringify((mock.requests[before].messages as any[]).filter((m) => m.role !== 'system'));
    expect(sent).not.toContain('OLD_QUESTION');
    expect(sent).not.toContain('OLD_ANSWER');
    const order = ['THE_SUMMARY', 'NEW_QUESTION', 'NEW_ANSWER', 'resumed-ok'].map((t) => sent.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
