// Incremental convert into a store of OpenCode's layout (lib/opencode-store/: OpenCode's, Kilo's), one test for
// each CLI (test/convert/incremental-opencode.test.ts, incremental-kilo.test.ts): a source that only grew is
// appended to the session written before, through the CLI's own `import` (which skips the rows it has; a call
// whose result came later updated in place by `<cli> db`); the real CLI continues it with old and new turns.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from './mock-chat-completions.js';
import { runBin, tempDir } from './run.js';
import type { StoreCli, StoreHome } from './store-cli.js';
import { ev } from './growing-source.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();

/** The test of incremental convert into `cli`'s store; a test of it may take up to `timeout` ms. */
export function describeIncrementalStore<Home extends StoreHome>(cli: StoreCli<Home>, timeout: number): void {
  let mock: MockChat;
  let home: Home;
  beforeAll(async () => {
    mock = await startMockChat();
    home = cli.home(mock.url);
  });
  afterAll(async () => {
    await mock.close();
  });

  describe(`incremental convert into ${cli.name}`, () => {
    test(`a source that grows mid-turn is appended to its ${cli.name} session: same id, journal kept, the late result in place, ${cli.format} continues old and new turns`, async () => {
      const dir = cli.projectDir(home, 'incremental');
      const source = join(tempDir(), 'events.ndjson');
      const run = async (): Promise<any> => {
        const r = await runBin(['convert', source, '--session-format', cli.format, '--session-dir', `${cli.format}=${home.dataDir}`, '--cwd', dir], { env: cli.binEnv(home), cwd: tempDir() });
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
      expect(second.harnesses).toEqual([{ format: cli.format, session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
      expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);

      const third = await run();
      expect(third).toMatchObject({ status: 'skipped', reason: 'unchanged' });

      // One session in the project, holding each message once.
      const listed = await cli.run(home, dir, ['session', 'list', '--format', 'json']);
      expect(JSON.parse(listed.stdout).map((s: any) => s.id)).toEqual([session.session_id]);
      const exported = await cli.run(home, dir, ['export', session.session_id]);
      const messages = JSON.parse(exported.stdout.slice(exported.stdout.indexOf('{'))).messages as any[];
      expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant', 'user', 'assistant']);

      const start = mock.turns().length;
      const resumed = await cli.continueWith(home, dir, session.session_id);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain('resumed-ok');
      expect(cli.conversation(mock.turns()[start])).toEqual([
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
    }, timeout);
  });
}
