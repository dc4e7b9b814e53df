// OpenCode pieces with literal input: ids, remote URLs as project keys, the journal read back as a document
// and as events (a later copy of a message gives only what is new), and the run without the opencode program.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createOpencodeHarness, opencodeEnv } from '../../../lib/agents/opencode/index.js';
import { journalDocument } from '../../../lib/opencode-store/harness.js';
import { IdMinter } from '../../../lib/opencode-store/ids.js';
import { remoteKey } from '../../../lib/opencode-store/project.js';
import { mapValues } from '../../input/support.js';
import { runBin, tempDir } from '../../support/run.js';

describe('ids', () => {
  test('message and part ids sort in creation order within one millisecond; session ids invert the time', () => {
    const ids = new IdMinter(() => 1796118000000);
    const [a, b, s] = [ids.next('msg'), ids.next('prt'), ids.next('ses')];
    expect(a.slice(4, 16) < b.slice(4, 16)).toBe(true);
    expect(a).toMatch(/^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(BigInt(`0x${s.slice(4, 16)}`)).toBe(~(1796118000000n * 4096n + 3n) & ((1n << 48n) - 1n));
  });
});

describe('remoteKey', () => {
  test.each([
    ['git@github.com:Example/Proj.git', 'github.com/Example/Proj'],
    ['https://GitHub.com/example/proj.git/', 'github.com/example/proj'],
    ['ssh://git@host.example:22/a/b', 'host.example/a/b'],
  ])('%s -> %s', (url, key) => {
    expect(remoteKey(url)).toBe(key);
  });
});

const HEAD = { info: { id: 'ses_fffffffffffe00000000000000', directory: '/p' }, messages: [] };
const USER = { info: { id: 'msg_1', role: 'user', time: { created: 1 } }, parts: [{ id: 'prt_1', type: 'text', text: 'hi' }] };
const running = { id: 'prt_2', type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'running', input: { command: 'ls' }, time: { start: 2 } } };
const done = { ...running, state: { status: 'completed', input: { command: 'ls' }, output: 'a.txt', title: 'bash', metadata: {}, time: { start: 2, end: 3 } } };
const STEP = (part: unknown) => ({ info: { id: 'msg_2', role: 'assistant', modelID: 'm', time: { created: 2 } }, parts: [part] });

describe('the journal', () => {
  test('read back as a document: messages in first order, each in its last copy, a cut-off last line skipped', () => {
    const text = [HEAD, USER, STEP(running), STEP(done)].map((v) => JSON.stringify(v)).join('\n') + '\n{"info":{"id":"msg_3"';
    expect(journalDocument(text)).toEqual({ info: HEAD.info, messages: [USER, STEP(done)] });
  });

  test('read as events: a tool part seen running, then completed, gives its call once and then its result', () => {
    const { events } = mapValues('opencode-export', [HEAD, USER, STEP(running), STEP(done)]);
    expect(events.map((e: any) => [e.type, e.text ?? e.id])).toEqual([['user', 'hi'], ['tool_call', 'c1'], ['tool_result', 'c1']]);
  });
});

describe('the environment opencode import runs in', () => {
  const base = { PATH: '/bin', XDG_DATA_HOME: '/home/u/.local/share' };
  const own = '/home/u/.local/share/opencode';
  test('OpenCode\'s own data directory: the environment as it is, OPENCODE_DB included', () => {
    expect(opencodeEnv(base, own, own)).toEqual(base);
    expect(opencodeEnv({ ...base, OPENCODE_DB: '/db/x.db' }, own, own)).toEqual({ ...base, OPENCODE_DB: '/db/x.db' });
  });
  test('another directory named opencode is the data directory; an absolute OPENCODE_DB is dropped, a relative one kept', () => {
    expect(opencodeEnv({ ...base, OPENCODE_DB: '/db/x.db' }, '/data/opencode', own)).toEqual({ ...base, XDG_DATA_HOME: '/data' });
    expect(opencodeEnv({ ...base, OPENCODE_DB: 'x.db' }, '/data/opencode', own)).toEqual({ ...base, XDG_DATA_HOME: '/data', OPENCODE_DB: 'x.db' });
  });
  test('any other directory: OPENCODE_DB=<dir>/opencode.db', () => {
    expect(opencodeEnv({ ...base, OPENCODE_DB: '/db/x.db' }, '/data/sessions', own)).toEqual({ ...base, OPENCODE_DB: '/data/sessions/opencode.db' });
  });
  test('the resume hint names the database when it is not where opencode looks by itself', () => {
    const home = tempDir();
    const env = { PATH: '/bin', XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), ASYNCAI_LOG_OPENCODE: process.execPath };
    const hint = (root: string) => {
      const h = createOpencodeHarness({ root, cwd: home, cwdFromInput: true, env, homedir: home, warn: () => {} });
      h.abandon();
      return h.resumeCommand.replace(h.sessionId, '<id>');
    };
    expect(hint(join(home, 'data', 'opencode'))).toBe('opencode -s <id> -m opencode/default');
    expect(hint(join(home, 'my sessions'))).toBe(`OPENCODE_DB='${join(home, 'my sessions', 'opencode.db')}' opencode -s <id> -m opencode/default`);
    expect(hint(join(home, 'other', 'opencode'))).toBe(`XDG_DATA_HOME=${join(home, 'other')} opencode -s <id> -m opencode/default`);
  });
});

describe('without the opencode program', () => {
  test('the run stops before reading input with one line saying what to install, exit 2', async () => {
    const r = await runBin(['--session-format', 'opencode', '--session-dir', `opencode=${tempDir()}`], {
      input: 'not even json\n', env: { PATH: tempDir(), HOME: tempDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('asyncai-log: --session-format opencode needs the opencode program: install it (npm install -g opencode-ai) or name it with ASYNCAI_LOG_OPENCODE=<path>\nTry \'asyncai-log --help\'.\n');
  });
});
