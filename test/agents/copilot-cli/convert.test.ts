// Copilot CLI session files through the built bin: `read` prints the captured session's golden events, `convert`
// of Copilot's session-state folder writes each session into Claude Code (its lock folder and the CLI's other
// files left alone), converting Copilot's own root into copilot-cli skips its files as sessions already, and the
// filter writes under $COPILOT_HOME without --session-dir.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES, cleanEnv, runBin, sessionOf, tempDir } from '../../support/run.js';

const SESSION = join(FIXTURES, 'copilot-cli', 'session.jsonl');
const ID = '7e57ab1e-0000-4000-8000-00000000c0de';

/** A Copilot root holding the captured session in its folder, beside what the CLI keeps there too. */
function copilotRoot(): string {
  const root = join(tempDir('asyncai-log-copilot-'), '.copilot');
  const dir = join(root, 'session-state', ID);
  mkdirSync(join(dir, 'checkpoints'), { recursive: true });
  mkdirSync(join(root, 'session-state', '.session-operation-locks'), { recursive: true });
  cpSync(SESSION, join(dir, 'events.jsonl'));
  writeFileSync(join(dir, 'workspace.yaml'), `id: ${ID}\ncwd: /home/user/project\n`);
  writeFileSync(join(dir, 'checkpoints', 'index.md'), '# checkpoints\n');
  return root;
}

const reports = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l));

describe('Copilot CLI sessions through the bin', () => {
  test('read prints the captured session\'s golden events', async () => {
    const r = await runBin(['read', SESSION], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'copilot-cli', 'session.events.json'), 'utf8')).events;
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(golden);
  });

  test('convert of the session-state folder writes each session into Claude Code, in the session\'s own cwd', async () => {
    const root = copilotRoot();
    const env = cleanEnv();
    const r = await runBin(['convert', join(root, 'session-state')], { env });
    expect(r.code, r.stderr).toBe(0);
    const [report] = reports(r.stdout).filter((o) => o.status === 'converted');
    expect(report).toMatchObject({ input_format: 'copilot-events', cwd: '/home/user/project' });
    expect(report.source).toBe(join(root, 'session-state', ID, 'events.jsonl'));
    expect(report.harnesses[0].session_file.startsWith(join(env.HOME!, '.claude', 'projects', '-home-user-project'))).toBe(true);
  });

  test('converting Copilot\'s own root into copilot-cli skips its files: they are Copilot sessions already', async () => {
    const root = copilotRoot();
    const r = await runBin(['convert', join(root, 'session-state'), '--session-format', 'copilot-cli', '--session-dir', `copilot-cli=${root}`], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(reports(r.stdout)).toEqual([expect.objectContaining({ status: 'skipped', reason: 'already-a-session' })]);
  });

  test('without --session-dir the session goes under $COPILOT_HOME', async () => {
    const dir = join(tempDir(), 'copilot-home');
    const r = await runBin(['--session-format', 'copilot-cli', '--cwd', '/home/user/project'], { env: cleanEnv({ COPILOT_HOME: dir }), input: '{"type":"user","text":"hi"}\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(sessionOf(r).session_file).toBe(join(dir, 'session-state', sessionOf(r).session_id, 'events.jsonl'));
  });
});
