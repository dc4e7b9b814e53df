// Where sessions go, as a user meets it: a run writing several formats goes on when one format's root cannot
// be made (said once, by format and root; the others and --echo go on; exit 1; no orphan file), and a project
// directory named with `.`, `..` or a trailing slash names the same session place as its plain form.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listTree } from '../reliability/support.js';
import { runBin, sessionOf, tempDir } from '../support/run.js';

const ev = (o: object) => `${JSON.stringify(o)}\n`;

describe.runIf(existsSync('/proc/self'))('one session root that cannot be made', () => {
  test('stops no other format: said once by format and root, the others written, --echo goes on, exit 1', async () => {
    const claude = tempDir();
    const input = ev({ type: 'user', text: 'still written' });
    const r = await runBin([
      '--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--echo', '--cwd', '/home/user/project',
      '--session-dir', `claude-code-cli=${claude}`, '--session-dir', 'codex-cli=/proc/asyncai-log-nope',
    ], { input });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('asyncai-log: codex-cli: cannot create the session under /proc/asyncai-log-nope: cannot make the directory '
      + '/proc/asyncai-log-nope: no such file; the other sessions are written\n');
    const session = sessionOf(r);
    expect(session.harnesses.map((h) => h.format)).toEqual(['claude-code-cli']);
    expect(r.stdout.split('\n').slice(1).join('\n')).toBe(input);
    expect(readFileSync(session.session_file, 'utf8')).toContain('still written');
    expect(listTree(claude)).toEqual(['projects/', 'projects/-home-user-project/', `projects/-home-user-project/${session.session_id}.jsonl`]);
  });

  test('the first format failing: the later ones are written all the same', async () => {
    const codex = tempDir();
    const r = await runBin([
      '--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--cwd', '/home/user/project',
      '--session-dir', 'claude-code-cli=/proc/asyncai-log-nope', '--session-dir', `codex-cli=${codex}`,
    ], { input: ev({ type: 'user', text: 'in codex' }) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(r.stderr).toMatch(/^asyncai-log: claude-code-cli: cannot create the session under \/proc\/asyncai-log-nope: /);
    expect(sessionOf(r).harnesses.map((h) => h.format)).toEqual(['codex-cli']);
    expect(readFileSync(sessionOf(r).session_file, 'utf8')).toContain('in codex');
  });

  test('every format failing: one line each, nothing on stdout, exit 1', async () => {
    const both = await runBin([
      '--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--cwd', '/home/user/project',
      '--session-dir', 'claude-code-cli=/proc/asyncai-log-nope-1', '--session-dir', 'codex-cli=/proc/asyncai-log-nope-2',
    ], { input: ev({ type: 'user', text: 'hi' }) });
    expect(both.code).toBe(1);
    expect(both.stdout).toBe('');
    expect(both.stderr).toBe('asyncai-log: claude-code-cli: cannot create the session under /proc/asyncai-log-nope-1: cannot make the directory '
      + '/proc/asyncai-log-nope-1: no such file\nasyncai-log: cannot create the session: cannot make the directory /proc/asyncai-log-nope-2: no such file\n');
  });
});

describe('a project directory not in its plain form', () => {
  test.for([
    ['with .. and .', '/home/user/x/../proj/./'],
    ['with a trailing slash', '/home/user/proj/'],
    ['with doubled slashes', '//home//user/proj'],
  ])('%s (from the stream\'s cwd) names the same places as /home/user/proj', async ([, cwd], { expect }) => {
    const claude = tempDir();
    const gemini = tempDir();
    const codex = tempDir();
    const stream = ev({ type: 'system', subtype: 'init', cwd, session_id: 's', model: 'claude-sonnet-4-5', tools: [] })
      + ev({ type: 'user', message: { role: 'user', content: 'normalised?' }, session_id: 's' });
    const r = await runBin([
      '--session-format', 'claude-code-cli', '--session-format', 'gemini-cli', '--session-format', 'codex-cli',
      '--session-dir', `claude-code-cli=${claude}`, '--session-dir', `gemini-cli=${gemini}`, '--session-dir', `codex-cli=${codex}`,
    ], { input: stream });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(claude, 'projects'))).toEqual(['-home-user-proj']);
    const claudeRecords = readFileSync(sessionOf(r).harnesses[0]!.session_file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(claudeRecords.map((rec) => rec.cwd)).toContain('/home/user/proj');
    expect(JSON.parse(readFileSync(join(gemini, 'projects.json'), 'utf8'))).toEqual({ projects: { '/home/user/proj': 'proj' } });
    expect(listTree(join(gemini, 'tmp'))[0]).toBe('proj/');
    const meta = JSON.parse(readFileSync(sessionOf(r).harnesses[2]!.session_file, 'utf8').split('\n')[0]!);
    expect(meta.payload.cwd).toBe('/home/user/proj');
  });
});
