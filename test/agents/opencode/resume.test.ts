// The tests that prove the OpenCode writer: the real `opencode run --session` continues the session the built
// bin wrote (loaded through `opencode import`), in a git project and in a plain directory, and sends every
// element of it, in order, to a loopback chat-completions mock; `opencode session list` shows it there.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { continueWithOpencode, opencodeHome, runOpencode, type OpencodeHome } from '../../support/opencode.js';
import { sessionOf, type RunResult } from '../../support/run.js';
import { conversation, projectDir, writeOpencodeSession } from './support.js';
import { EXPECTED, STREAM } from '../../support/store-conversation.js';


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
