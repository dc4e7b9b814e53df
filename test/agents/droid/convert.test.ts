// `convert` of a Droid root (its sessions beside droid's own settings files): each session converted from its
// header into another format, droid's other files left as unrecognised, and its sessions skipped as sessions
// already when the target is droid itself at that root.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, FIXTURES, runBin, tempDir } from '../../support/run.js';

test('a Droid root converts into Claude Code, and into droid itself its sessions are skipped as sessions already', async () => {
  const root = join(tempDir('asyncai-log-droid-convert-'), '.factory');
  const folder = join(root, 'sessions', '-home-user-project');
  mkdirSync(folder, { recursive: true });
  const id = 'bb94a1ef-0b01-428d-9806-d989cdbb8fff';
  copyFileSync(join(FIXTURES, 'droid', 'resumed.jsonl'), join(folder, `${id}.jsonl`));
  writeFileSync(join(folder, `${id}.settings.json`), '{"model":"custom:Mock-0"}\n');
  const env = cleanEnv();
  const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

  const out = tempDir('asyncai-log-droid-convert-out-');
  const into = await runBin(['convert', root, '--session-format', 'claude-code-cli', '--session-dir', `claude-code-cli=${out}`], { env });
  expect(into.code, into.stderr).toBe(0);
  const reports = lines(into.stdout);
  expect(reports.find((r) => r.source.endsWith(`${id}.jsonl`))).toMatchObject({ status: 'converted', input_format: 'droid-session', cwd: '/home/user/project' });
  expect(reports.find((r) => r.source.endsWith('.settings.json'))).toMatchObject({ status: 'skipped', reason: 'unrecognised' });

  const self = await runBin(['convert', join(root, 'sessions'), '--session-format', 'droid', '--session-dir', `droid=${root}`], { env });
  expect(self.code, self.stderr).toBe(0);
  expect(lines(self.stdout).find((r) => r.source.endsWith(`${id}.jsonl`))).toMatchObject({ status: 'skipped', reason: 'already-a-session' });
});
