// The real copilot (1.0.102) on sessions the bin wrote: `copilot --continue` continues the latest one, a session
// resumed by the CLI and then read gives back both conversations, one resumed while the stream still runs keeps
// both conversations for the next resume, a compaction makes it send the summary in
// place of what came before, and a session the supported importer (`copilot sessions import`) made gets a new
// id and the import's own times, where a session written here keeps the stream's id and times.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copilotRoot, runCopilot } from '../../support/copilot-cli.js';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { BIN, cleanEnv, FIXTURES, runBin, sessionOf, tempDir, until } from '../../support/run.js';

const EVENTS = readFileSync(join(FIXTURES, 'events', 'contract.ndjson'), 'utf8');
const PROMPT = 'Reply with exactly: resumed-ok';
const ev = (o: object) => `${JSON.stringify(o)}\n`;

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

/** A copilot home and a project, and `events` written there as a Copilot session. */
async function written(events = EVENTS, home = tempDir('asyncai-log-copilot-home-'), cwd = tempDir('asyncai-log-copilot-project-')) {
  const r = await runBin(['--session-format', 'copilot-cli', '--cwd', cwd], { input: events, cwd, env: cleanEnv({ HOME: home }) });
  expect(r.code, r.stderr).toBe(0);
  return { home, cwd, session: sessionOf(r) };
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('the real copilot on a session the bin wrote', () => {
  test('written under ~/.copilot/session-state/<id>/ by default, beside its workspace.yaml', async () => {
    const { home, session } = await written();
    expect(session.session_file).toBe(join(copilotRoot(home), 'session-state', session.session_id, 'events.jsonl'));
    expect(readFileSync(join(copilotRoot(home), 'session-state', session.session_id, 'workspace.yaml'), 'utf8')).toContain(`id: ${session.session_id}\n`);
  });

  test('copilot --continue continues it (the most recent session), and read then gives both conversations', async () => {
    const home = tempDir('asyncai-log-copilot-home-');
    const cwd = tempDir('asyncai-log-copilot-project-');
    const older = (await written(ev({ type: 'user', text: 'an older session' }) + ev({ type: 'assistant', text: 'old' }), home, cwd)).session;
    const { session } = await written(EVENTS, home, cwd);
    const before = mock.requests.length;
    const resumed = await runCopilot({ home, cwd, baseUrl: `${mock.url}/v1`, args: ['--continue', '-p', PROMPT] });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.stringify(mock.requests[before])).toContain('contract-listing.txt');
    // The CLI appended its turn to the newer session, not to the older one.
    expect(lines(session.session_file).map((e) => e.type)).toContain('session.resume');
    expect(lines(older.session_file).map((e) => e.type)).not.toContain('session.resume');
    const read = await runBin(['read', '--events', session.session_file], { env: cleanEnv({ HOME: home }) });
    expect(read.code, read.stderr).toBe(0);
    const texts = read.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)).filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
    expect(texts[0]).toBe('Check the build, and look at this screenshot.');
    expect(texts.slice(-2)).toEqual([PROMPT, 'resumed-ok']);
  });

  test('a compaction replaces what came before it: copilot sends its summary, then what follows', async () => {
    const { home, cwd, session } = await written([
      ev({ type: 'user', text: 'OLD_QUESTION' }), ev({ type: 'assistant', text: 'OLD_ANSWER' }),
      ev({ type: 'compaction', summary: 'THE_SUMMARY' }), ev({ type: 'user', text: 'NEW_QUESTION' }), ev({ type: 'assistant', text: 'NEW_ANSWER' }),
    ].join(''));
    const before = mock.requests.length;
    const resumed = await runCopilot({ home, cwd, baseUrl: `${mock.url}/v1`, args: [`--resume=${session.session_id}`, '-p', PROMPT] });
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = JSON.stringify((mock.requests[before].messages as any[]).filter((m) => m.role !== 'system'));
    expect(sent).not.toContain('OLD_ANSWER');
    const order = ['THE_SUMMARY', 'NEW_QUESTION', 'NEW_ANSWER', 'resumed-ok'].map((t) => sent.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test('the importer gives a new session id and import-time event times; the writer keeps the stream\'s id and times', async () => {
    const { home, cwd, session } = await written(ev({ type: 'user', text: 'direct', timestamp: '2026-01-02T03:04:05.000Z' }) + ev({ type: 'assistant', text: 'ok', timestamp: '2026-01-02T03:04:06.000Z' }));
    expect(lines(session.session_file).map((e) => e.timestamp).slice(1)).toEqual(['2026-01-02T03:04:05.000Z', '2026-01-02T03:04:06.000Z']);
    const file = join(tempDir(), 'interchange.jsonl');
    writeFileSync(file, [
      { type: 'session', version: 1, externalId: session.session_id, createdAt: '2026-01-02T03:04:05.000Z', workspace: { workingDirectory: cwd } },
      { type: 'message', id: 'm1', timestamp: '2026-01-02T03:04:05.000Z', turnId: 't1', role: 'user', content: [{ type: 'text', text: 'imported' }] },
      { type: 'message', id: 'm2', timestamp: '2026-01-02T03:04:06.000Z', turnId: 't1', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ].map((o) => ev(o)).join(''));
    const imported = await runCopilot({ home, cwd, baseUrl: `${mock.url}/v1`, args: ['sessions', 'import', '--output', 'json', file] });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ ok: true, code: 'session_imported' });
    expect(result.sessionId).not.toBe(session.session_id);
    const state = join(copilotRoot(home), 'session-state');
    expect(readdirSync(state).filter((n) => !n.startsWith('.')).sort()).toEqual([session.session_id, result.sessionId].sort());
    const times = lines(join(state, result.sessionId, 'events.jsonl')).slice(1).map((e) => e.timestamp);
    expect(times.every((t) => !t.startsWith('2026-01-02'))).toBe(true);
  });

  test('resumed by the real copilot while the stream still runs: the next resume sends both conversations, in order', async () => {
    const home = tempDir('asyncai-log-copilot-home-');
    const cwd = tempDir('asyncai-log-copilot-project-');
    const child = spawn(process.execPath, [BIN, '--session-format', 'copilot-cli', '--cwd', cwd], { cwd, env: cleanEnv({ HOME: home }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write(ev({ type: 'user', text: 'STREAM_FIRST question' }) + ev({ type: 'assistant', text: 'STREAM_FIRST answer' }));
    await until(() => out.includes('\n') || child.exitCode !== null);
    const session = JSON.parse(out.split('\n')[0]!).result.harnesses[0];
    await until(() => readFileSync(session.session_file, 'utf8').includes('STREAM_FIRST answer'));
    const mid = await runCopilot({ home, cwd, baseUrl: `${mock.url}/v1`, args: [`--resume=${session.session_id}`, '-p', 'CLI_TURN go on'] });
    expect(mid.code, mid.stderr).toBe(0);
    child.stdin.end(ev({ type: 'user', text: 'STREAM_LATER question' }) + ev({ type: 'assistant', text: 'STREAM_LATER answer' }));
    expect(await closed, err).toBe(0);
    expect(err).toContain('session.foreign_append');
    const before = mock.requests.length;
    const resumed = await runCopilot({ home, cwd, baseUrl: `${mock.url}/v1`, args: [`--resume=${session.session_id}`, '-p', PROMPT] });
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = JSON.stringify((mock.requests[before].messages as any[]).filter((m) => m.role !== 'system'));
    const order = ['STREAM_FIRST question', 'STREAM_FIRST answer', 'CLI_TURN go on', 'resumed-ok', 'STREAM_LATER question', 'STREAM_LATER answer', PROMPT].map((t) => sent.indexOf(t));
    expect(order.every((i) => i >= 0), sent).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
