// The tests that prove the OpenCode writer: the real `opencode run --session` continues the session the built
// bin wrote (loaded through `opencode import`), in a git project and in a plain directory, and sends every
// element of it, in order, to a loopback chat-completions mock; `opencode session list` shows it there.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRE } from '../../../lib/monitor/notification.js';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { continueWithOpencode, opencodeHome, runOpencode, type OpencodeHome } from '../../support/opencode.js';
import { sessionOf, type RunResult } from '../../support/run.js';
import { conversation, ev, projectDir, writeOpencodeSession } from './support.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, second)).toISOString();

const STREAM = [
  ev({ type: 'user', text: 'Check the build please.', timestamp: at(0) }),
  ev({ type: 'thinking', text: 'I will read the log and list the files.', timestamp: at(1) }),
  ev({ type: 'assistant', text: 'Checking.', usage: { input_tokens: 120, output_tokens: 8 }, timestamp: at(1) }),
  ev({ type: 'tool_call', id: 'c_read', name: 'Read', arguments: { file_path: 'build.log' }, timestamp: at(2) }),
  ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(2) }),
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt', timestamp: at(3) }),
  ev({ type: 'tool_result', id: 'c_read', content: 'ENOENT: build.log', is_error: true, timestamp: at(3) }),
  ev({ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 'bk3v9q2xa', timestamp: at(4) }),
  ev({ type: 'assistant', text: 'The log is missing; there are two files.', timestamp: at(5) }),
  ev({ type: 'user', text: 'Run the tests.', timestamp: at(6) }),
  ev({ type: 'tool_call', id: 'c_hang', name: 'Bash', arguments: { command: 'npm test' }, timestamp: at(7) }),
].join('');

const NOTIFICATION = `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<summary>Monitor event: "npm run watch"</summary>\n<event>build ok</event>\n</task-notification>`;

const EXPECTED = [
  { role: 'user', text: 'Check the build please.' },
  { role: 'assistant', text: 'Checking.', reasoning: 'I will read the log and list the files.',
    calls: [['c_read', 'Read', { file_path: 'build.log' }], ['c_ls', 'Bash', { command: 'ls' }]] },
  { role: 'tool', text: 'ENOENT: build.log', result: 'c_read' },
  { role: 'tool', text: 'a.txt\nb.txt', result: 'c_ls' },
  { role: 'user', text: NOTIFICATION },
  { role: 'assistant', text: 'The log is missing; there are two files.' },
  { role: 'user', text: 'Run the tests.' },
  { role: 'assistant', calls: [['c_hang', 'Bash', { command: 'npm test' }]] },
  { role: 'tool', text: '[Tool execution was interrupted]', result: 'c_hang' },
  { role: 'user', text: 'Reply with exactly: resumed-ok' },
];

let mock: MockChat;
let home: OpencodeHome;
beforeAll(async () => {
  mock = await startMockChat();
  home = opencodeHome(mock.url);
});
afterAll(async () => {
  await mock.close();
});

describe.each([['a git project', true], ['a plain directory', false]])('a session written in %s', (_name, git) => {
  let dir: string;
  let written: RunResult;
  let id: string;
  let resumed: RunResult;
  let request: any;
  let listed: RunResult;
  beforeAll(async () => {
    dir = projectDir(home, git ? 'repo' : 'plain', git);
    ({ result: written, id } = await writeOpencodeSession(home, dir, STREAM));
    const before = mock.turns().length;
    resumed = await continueWithOpencode(home, dir, id);
    request = mock.turns()[before];
    listed = await runOpencode(home, dir, ['session', 'list', '--format', 'json']);
  }, 240_000);

  test('the bin writes it with exit 0 and names the ses_ id on the session line', () => {
    // OpenCode keeps the failed call as an error state, but sends it without a flag: the account says so.
    expect(written.stderr).toBe('asyncai-log: fidelity: opencode: error flags 1 of 1 dropped (OpenCode sends results without an error flag)\n');
    expect(written.code).toBe(0);
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(sessionOf(written).harnesses[0]!.format).toBe('opencode');
  });

  test('opencode run --session continues it and answers', () => {
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('resumed-ok');
  });

  test('the model request holds every element of the stream, in order', () => {
    expect(conversation(request)).toEqual(EXPECTED);
  });

  test('opencode session list in the project shows it', () => {
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout) as { id: string; directory: string; projectId: string }[];
    const ours = sessions.find((s) => s.id === id);
    expect(ours?.directory).toBe(dir);
    // The project id we resolved ourselves is the one OpenCode gives the directory.
    const journal = JSON.parse(readFileSync(sessionOf(written).session_file, 'utf8').split('\n')[0]!);
    expect(ours?.projectId).toBe(journal.info.projectID);
    expect(ours?.projectId).toBe(git ? createHash('sha1').update('git-remote:github.com/example/Proj').digest('hex') : 'global');
  });
});
