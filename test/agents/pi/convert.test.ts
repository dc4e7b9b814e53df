// Pi session files through the built bin: `read` prints the captured session's golden events, `convert` of pi's
// sessions folder writes each into Claude Code, and converting pi's own root into pi skips its files as sessions
// already; the filter writes to $PI_CODING_AGENT_DIR without --session-dir.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES, cleanEnv, runBin, sessionOf, tempDir } from '../../support/run.js';

const SESSION = join(FIXTURES, 'pi', 'session.jsonl');

/** An agent dir holding the captured session in its project's folder. */
function agentDir(): string {
  const root = join(tempDir('asyncai-log-pi-'), 'agent');
  mkdirSync(join(root, 'sessions', '--home-user-project--'), { recursive: true });
  cpSync(SESSION, join(root, 'sessions', '--home-user-project--', 'session.jsonl'));
  return root;
}

describe('pi sessions through the bin', () => {
  test('read prints the captured session\'s golden events', async () => {
    const r = await runBin(['read', SESSION], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'pi', 'session.events.json'), 'utf8')).events;
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(golden);
  });

  test('convert of pi\'s sessions folder writes each session into Claude Code, in the session\'s own cwd', async () => {
    const root = agentDir();
    const env = cleanEnv();
    const r = await runBin(['convert', join(root, 'sessions')], { env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout.trim());
    expect(report).toMatchObject({ status: 'converted', input_format: 'pi-session', cwd: '/home/user/project' });
    expect(report.harnesses[0].session_file.startsWith(join(env.HOME!, '.claude', 'projects', '-home-user-project'))).toBe(true);
  });

  test('converting pi\'s own root into pi skips its files: they are pi sessions already', async () => {
    const root = agentDir();
    const r = await runBin(['convert', root, '--session-format', 'pi', '--session-dir', `pi=${root}`], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ status: 'skipped', reason: 'already-a-session' });
  });

  test('without --session-dir the session goes under $PI_CODING_AGENT_DIR', async () => {
    const dir = join(tempDir(), 'agent');
    const r = await runBin(['--session-format', 'pi', '--cwd', '/home/user/project'], { env: cleanEnv({ PI_CODING_AGENT_DIR: dir }), input: '{"type":"user","text":"hi"}\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(sessionOf(r).session_file.startsWith(join(dir, 'sessions', '--home-user-project--'))).toBe(true);
  });
});
