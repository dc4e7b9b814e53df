// The real droid (0.225) on a session the bin wrote, one write shared by every check: `droid search` finds it,
// `droid exec --fork` copies it into a new session (no API needed) and `droid exec -s` continues it in place
// (against the loopback API), each sending the summary of its compaction and what follows, nothing before; read
// then gives both conversations of the session continued in place.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { resumeWithDroid, runDroid, writeDroidSettings } from '../../support/droid.js';
import { cleanEnv, runBin, sessionOf, tempDir, type RunResult } from '../../support/run.js';

const ev = (o: object) => `${JSON.stringify(o)}\n`;
const EVENTS = [
  ev({ type: 'user', text: 'OLD_QUESTION' }), ev({ type: 'assistant', text: 'OLD_ANSWER' }),
  ev({ type: 'compaction', summary: 'THE_SUMMARY' }),
  ev({ type: 'user', text: 'NEW_QUESTION' }), ev({ type: 'tool_call', id: 'call_1', name: 'Bash', arguments: { command: 'ls' } }),
  ev({ type: 'tool_result', id: 'call_1', content: 'LISTING', is_error: false }), ev({ type: 'assistant', text: 'NEW_ANSWER' }),
].join('');

let mock: MockChat;
let home: string;
let cwd: string;
let session: { session_id: string; session_file: string };
const runs: Record<'search' | 'fork' | 'inPlace', { run: RunResult; request?: any }> = {} as never;

beforeAll(async () => {
  mock = await startMockChat();
  home = tempDir('asyncai-log-droid-home-');
  cwd = tempDir('asyncai-log-droid-project-');
  const root = writeDroidSettings(home, `${mock.url}/v1`);
  const written = await runBin(['--session-format', 'droid', '--session-dir', `droid=${root}`, '--cwd', cwd], { input: EVENTS, cwd, env: cleanEnv({ HOME: home }) });
  if (written.code !== 0) throw new Error(`the bin failed: ${written.stderr}`);
  session = sessionOf(written);
  runs.search = { run: await runDroid({ home, cwd, api: mock.url, args: ['search', 'NEW_QUESTION', '--json'] }) };
  let before = mock.requests.length;
  runs.fork = { run: await resumeWithDroid({ home, cwd, api: mock.url, session: session.session_id, fork: true, json: true }) };
  runs.fork.request = mock.requests[before];
  before = mock.requests.length;
  runs.inPlace = { run: await resumeWithDroid({ home, cwd, api: mock.url, session: session.session_id }) };
  runs.inPlace.request = mock.requests[before];
}, 240_000);
afterAll(async () => {
  await mock?.close();
});

/** What a request sent after the system prompt, as one string. */
const sent = (request: any) => JSON.stringify((request.messages as any[]).filter((m) => m.role !== 'system'));

describe('the real droid on a session the bin wrote', () => {
  test('droid search finds it by a message\'s text', () => {
    expect(runs.search.run.code, runs.search.run.stderr).toBe(0);
    expect(runs.search.run.stdout).toContain(session.session_id);
  });

  test.each(['fork', 'inPlace'] as const)('exec %s sends the compaction\'s summary and what follows, in order, nothing before it', (which) => {
    const { run, request } = runs[which];
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('resumed-ok');
    const text = sent(request);
    expect(text).not.toContain('OLD_QUESTION');
    expect(text).not.toContain('OLD_ANSWER');
    const order = ['THE_SUMMARY', 'NEW_QUESTION', '"call_1"', 'LISTING', 'NEW_ANSWER', 'Reply with exactly: resumed-ok'].map((t) => text.indexOf(t));
    expect(order.every((i) => i >= 0), text).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('--fork makes a new session in the project\'s folder naming the written one as its parent', () => {
    const id = JSON.parse(runs.fork.run.stdout.trim().split('\n').at(-1)!).session_id as string;
    expect(id).not.toBe(session.session_id);
    expect(readdirSync(dirname(session.session_file))).toContain(`${id}.jsonl`);
    const header = JSON.parse(readFileSync(join(dirname(session.session_file), `${id}.jsonl`), 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ type: 'session_start', id, parent: session.session_id });
  });

  test('-s appends to the same file, and read then gives both conversations', async () => {
    const read = await runBin(['read', '--events', session.session_file], { env: cleanEnv({ HOME: home }) });
    expect(read.code, read.stderr).toBe(0);
    const texts = read.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)).filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
    expect(texts[0]).toBe('OLD_QUESTION');
    expect(texts.slice(-2)).toEqual(['Reply with exactly: resumed-ok', 'resumed-ok']);
  });
});
