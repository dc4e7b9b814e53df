// Incremental convert into Kilo: a source that only grew is appended to the session written before, through
// Kilo's own CLI (the new messages and parts by `kilo import`, which skips the rows it has; a call whose result
// came later updated in place by `kilo db`, as for OpenCode: lib/opencode-store/); the real kilo continues it with
// old and new turns.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { continueWithKilo, kiloHome, runKilo, type KiloHome } from '../support/kilo.js';
import { runBin, tempDir } from '../support/run.js';
import { binEnv, conversation, ev, projectDir } from '../agents/kilo/support.js';

let mock: MockChat;
let home: KiloHome;
beforeAll(async () => {
  mock = await startMockChat();
  home = kiloHome(mock.url);
});
afterAll(async () => {
  await mock.close();
});

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();

describe('incremental convert into Kilo', () => {
  test('a source that grows mid-turn is appended to its Kilo session: same id, journal kept, the late result in place, kilo continues old and new turns', async () => {
    const dir = projectDir(home, 'incremental', false);
    const source = join(tempDir(), 'events.ndjson');
    const run = async (): Promise<any> => {
      const r = await runBin(['convert', source, '--session-format', 'kilo', '--session-dir', `kilo=${home.dataDir}`, '--cwd', dir], { env: binEnv(home), cwd: tempDir() });
      expect(r.code, r.stderr).toBe(0);
      return { ...JSON.parse(r.stdout.trim()), stderr: r.stderr };
    };
    writeFileSync(source, [
      ev({ type: 'user', text: 'First question.', timestamp: at(1) }),
      ev({ type: 'assistant', text: 'First answer.', timestamp: at(2) }),
      ev({ type: 'user', text: 'List the files.', timestamp: at(3) }),
      ev({ type: 'assistant', text: 'Listing.', timestamp: at(4) }),
      ev({ type: 'tool_call', id: 'call_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(4) }),
    ].join(''));
    const first = await run();
    expect(first).toMatchObject({ status: 'converted', reason: 'new', warnings: 0 });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    appendFileSync(source, [
      ev({ type: 'tool_result', id: 'call_ls', content: "a.txt\nit's b.txt", timestamp: at(5) }),
      ev({ type: 'assistant', text: 'There are two files.', timestamp: at(6) }),
      ev({ type: 'user', text: 'Thanks.', timestamp: at(7) }),
      ev({ type: 'assistant', text: 'You are welcome.', timestamp: at(8) }),
    ].join(''));
    const second = await run();
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses).toEqual([{ format: 'kilo', session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
    expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);

    const third = await run();
    expect(third).toMatchObject({ status: 'skipped', reason: 'unchanged' });

    // One session in the project, holding each message once.
    const listed = await runKilo(home, dir, ['session', 'list', '--format', 'json']);
    expect(JSON.parse(listed.stdout).map((s: any) => s.id)).toEqual([session.session_id]);
    const exported = await runKilo(home, dir, ['export', session.session_id]);
    const messages = JSON.parse(exported.stdout.slice(exported.stdout.indexOf('{'))).messages as any[];
    expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant', 'user', 'assistant']);

    const start = mock.turns().length;
    const resumed = await continueWithKilo(home, dir, session.session_id);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('resumed-ok');
    expect(conversation(mock.turns()[start])).toEqual([
      { role: 'user', text: 'First question.' },
      { role: 'assistant', text: 'First answer.' },
      { role: 'user', text: 'List the files.' },
      { role: 'assistant', text: 'Listing.', calls: [['call_ls', 'Bash', { command: 'ls' }]] },
      { role: 'tool', text: "a.txt\nit's b.txt", result: 'call_ls' },
      { role: 'assistant', text: 'There are two files.' },
      { role: 'user', text: 'Thanks.' },
      { role: 'assistant', text: 'You are welcome.' },
      { role: 'user', text: 'Reply with exactly: resumed-ok' },
    ]);
  }, 900_000);
});
