// The Kilo writer's words to the user, with no real kilo started: the resume hint (naming Kilo's database when it
// is not where kilo looks by itself, and a model when none is configured), and the run without the kilo program.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KILO } from '../../../lib/agents/kilo/index.js';
import { createLayoutHarness } from '../../../lib/opencode-store/harness.js';
import { runBin, tempDir } from '../../support/run.js';

describe('the resume hint', () => {
  const hintIn = (home: string) => (root: string) => {
    const env = { PATH: '/bin', XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), ASYNCAI_LOG_KILO: process.execPath };
    const h = createLayoutHarness(KILO, { root, cwd: home, cwdFromInput: true, env, homedir: home, warn: () => {} });
    h.abandon();
    return h.resumeCommand.replace(h.sessionId, '<id>');
  };

  test('kilo -s <id>, with KILO_DB or XDG_DATA_HOME when the session is elsewhere, and -m when no model is configured', () => {
    const home = tempDir();
    const hint = hintIn(home);
    expect(hint(join(home, 'data', 'kilo'))).toBe('kilo -s <id> -m kilo/default');
    expect(hint(join(home, 'my sessions'))).toBe(`KILO_DB='${join(home, 'my sessions', 'kilo.db')}' kilo -s <id> -m kilo/default`);
    expect(hint(join(home, 'other', 'kilo'))).toBe(`XDG_DATA_HOME=${join(home, 'other')} kilo -s <id> -m kilo/default`);
  });

  test('no -m when Kilo\'s config (kilo.jsonc, as Kilo writes it) names a model', () => {
    const home = tempDir();
    mkdirSync(join(home, 'config', 'kilo'), { recursive: true });
    writeFileSync(join(home, 'config', 'kilo', 'kilo.jsonc'), '{\n  // mine\n  "model": "mock/mock-model",\n}\n');
    expect(hintIn(home)(join(home, 'data', 'kilo'))).toBe('kilo -s <id>');
  });
});

describe('without the kilo program', () => {
  test('the run stops before reading input with one line saying what to install, exit 2', async () => {
    const r = await runBin(['--session-format', 'kilo', '--session-dir', `kilo=${tempDir()}`], {
      input: 'not even json\n', env: { PATH: tempDir(), HOME: tempDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('asyncai-log: --session-format kilo needs the kilo program: install it (npm install -g @kilocode/cli) or name it with ASYNCAI_LOG_KILO=<path>\nTry \'asyncai-log --help\'.\n');
  });
});
