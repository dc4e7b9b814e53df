// Hostile input and a hostile file system: transcripts are private (0600), nothing planted at a target path
// is followed or overwritten (a symlinked project directory included), nothing read from input becomes a
// path component unencoded or a file name (cwd values, session ids), and nothing read from input runs.
import { describe, expect, test } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN, cleanEnv, run, runBin, sessionOf, tempDir } from '../support/run.js';
import { ev, listTree, modeOf, transcriptState } from './support.js';

const SAFE_NAME = /^[A-Za-z0-9-]+$/;

describe('file modes', () => {
  test('whatever the umask, transcripts are created 0600 and the directories made for them 0700', async () => {
    const root = join(tempDir(), 'root');
    const r = await run('/bin/sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /home/user/project`], { env: cleanEnv(), input: ev({ type: 'user', text: 'private' }) });
    expect(r.code).toBe(0);
    const file = sessionOf(r).session_file;
    expect(modeOf(file)).toBe(0o600);
    for (const dir of [root, join(root, 'projects'), join(root, 'projects', '-home-user-project')]) expect(modeOf(dir)).toBe(0o700);
  });

  test('a Codex rollout is created 0600 too, whatever the umask', async () => {
    const root = join(tempDir(), 'codex');
    const r = await run('/bin/sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" --session-format codex-cli --session-dir codex-cli="${root}" --cwd /home/user/project`], { env: cleanEnv(), input: ev({ type: 'user', text: 'private' }) });
    expect(r.code).toBe(0);
    expect(modeOf(sessionOf(r).session_file)).toBe(0o600);
  });
});

describe('planted paths', () => {
  const args = (root: string) => ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'];

  test('a symlink planted as the project directory is not written through: exit 1, one diagnostic, its target untouched', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    mkdirSync(join(root, 'projects'), { recursive: true });
    symlinkSync(elsewhere, join(root, 'projects', '-home-user-project'));
    const r = await runBin(args(root), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^asyncai-log: cannot create the session: .*-home-user-project is a symbolic link/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('a symlink planted as <root>/projects is not written through either', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(root, 'projects'));
    const r = await runBin(args(root), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot create the session: .*projects is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('a regular file planted as the project directory is left as it was: exit 1', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'projects'));
    writeFileSync(join(root, 'projects', '-home-user-project'), 'not a directory');
    const r = await runBin(args(root), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot create the session/);
    expect(readFileSync(join(root, 'projects', '-home-user-project'), 'utf8')).toBe('not a directory');
  });

  test('the storage root itself may be a symlink (a moved ~/.claude): the session is written in its target', async () => {
    const target = tempDir();
    const link = join(tempDir(), 'claude-root');
    symlinkSync(target, link);
    const r = await runBin(args(link), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(0);
    expect(readdirSync(join(target, 'projects', '-home-user-project'))).toEqual([`${sessionOf(r).session_id}.jsonl`]);
  });

  test('a symlink planted as the Codex sessions directory is not written through', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(root, 'sessions'));
    const r = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', '/p'], { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot create the session: .*sessions is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('existing sessions in the project directory, files and symlinks, are byte for byte untouched by a new run', async () => {
    const root = tempDir();
    const project = join(root, 'projects', '-home-user-project');
    mkdirSync(project, { recursive: true });
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'keep');
    writeFileSync(join(project, 'a.jsonl'), 'old session\n');
    symlinkSync(victim, join(project, 'b.jsonl'));
    const r = await runBin(args(root), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(0);
    expect(readFileSync(join(project, 'a.jsonl'), 'utf8')).toBe('old session\n');
    expect(lstatSync(join(project, 'b.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('keep');
    expect(readdirSync(project).sort()).toEqual(['a.jsonl', 'b.jsonl', `${sessionOf(r).session_id}.jsonl`].sort());
  });
});

/** Hostile cwd values a foreign stream may carry. */
const HOSTILE_CWDS = [
  '/../../../../tmp/escape',
  '/home/user/../../etc',
  '/a/\u0000/b',
  '/..',
  '/',
  `/${'very-long/'.repeat(1000)}`,
  '/emoji 😀/ä/\\back\\slash',
  '/tmp/x\n/../y',
];

describe('input never chooses where files go', () => {
  /** Run the bin over `input` (no --cwd: the stream's own cwd decides) and return where files landed. */
  async function landing(input: string, extra: string[] = []) {
    const top = tempDir();
    const root = join(top, 'root');
    const cwd = join(top, 'cwd');
    mkdirSync(cwd);
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, ...extra], { input, cwd });
    return { r, top, root, tree: listTree(top) };
  }

  test.each(HOSTILE_CWDS)('a claude stream-json cwd of %j is encoded into one safe directory name under <root>/projects', async (cwd) => {
    const init = { type: 'system', subtype: 'init', cwd, session_id: '../../../../tmp/evil-session' };
    const { r, tree, root } = await landing(`${JSON.stringify(init)}\n${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, session_id: 'x' })}\n`);
    expect(r.code).toBe(0);
    const file = sessionOf(r).session_file;
    const [dir, name, ...rest] = file.slice(join(root, 'projects').length + 1).split('/');
    expect(rest).toEqual([]);
    expect(dir).toMatch(SAFE_NAME);
    expect(dir!.length).toBeLessThanOrEqual(200 + 1 + 7);
    expect(name).toBe(`${sessionOf(r).session_id}.jsonl`);
    expect(sessionOf(r).session_id).not.toContain('evil');
    // Nothing else anywhere: the root, its projects directory, one project directory, one file (and the cwd).
    expect(tree).toEqual(['cwd/', 'root/', 'root/projects/', `root/projects/${dir}/`, `root/projects/${dir}/${name}`]);
    // Normalised as a CLI sees its own cwd (`..` at the root stays there): never a path, only recorded.
    expect(transcriptState(file).records[0].cwd).toBe(resolve(cwd));
  });

  test.each(HOSTILE_CWDS.slice(0, 4))('a Codex rollout cwd of %j is encoded the same way', async (cwd) => {
    const meta = { timestamp: '2026-11-29T10:00:00.000Z', type: 'session_meta', payload: { id: '../../evil', cwd } };
    const item = { timestamp: '2026-11-29T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } };
    const { r, tree } = await landing(`${JSON.stringify(meta)}\n${JSON.stringify(item)}\n`);
    expect(r.code).toBe(0);
    expect(tree).toHaveLength(5);
    const dirs = tree.filter((p) => /^root\/projects\/[^/]+\/$/.test(p)).map((p) => p.slice('root/projects/'.length, -1));
    expect(dirs).toHaveLength(1);
    expect(dirs[0]).toMatch(SAFE_NAME);
  });

  test('a Claude Code transcript as input with hostile cwd and sessionId values lands in one safe directory with a fresh name', async () => {
    const record = { parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-11-29T10:00:00.000Z', sessionId: '../../../evil', cwd: '/../../tmp/escape', message: { role: 'user', content: 'hi' } };
    const { r, tree } = await landing(`${JSON.stringify(record)}\n`);
    expect(r.code).toBe(0);
    expect(tree).toEqual(['cwd/', 'root/', 'root/projects/', 'root/projects/-tmp-escape/', `root/projects/-tmp-escape/${sessionOf(r).session_id}.jsonl`]);
  });

  test('a relative cwd in a foreign stream is not used: the session goes to the current directory', async () => {
    const init = { type: 'system', subtype: 'init', cwd: '../../etc', session_id: 's' };
    const { r, top } = await landing(`${JSON.stringify(init)}\n${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, session_id: 's' })}\n`);
    expect(r.code).toBe(0);
    expect(transcriptState(sessionOf(r).session_file).records[0].cwd).toBe(join(top, 'cwd'));
  });

  test('a --cwd of 10,000 characters is cut and hashed as Claude Code does, not used as a path', async () => {
    const cwd = `/${'x'.repeat(10_000)}`;
    const { r, tree } = await landing(ev({ type: 'user', text: 'hi' }), ['--cwd', cwd]);
    expect(r.code).toBe(0);
    const dir = tree.find((p) => /^root\/projects\/[^/]+\/$/.test(p))!.slice(14, -1);
    expect(dir).toMatch(/^-x{199}-[0-9a-z]+$/);
  });
});

describe('input is never executed', () => {
  const canaryCommand = (canary: string) => `$(touch ${canary}) \`touch ${canary}\`; touch ${canary} | touch ${canary} && touch ${canary}`;

  test('shell syntax in events, monitor events and foreign streams is written as text and never run', async () => {
    const dir = tempDir();
    const canary = join(dir, 'canary');
    const text = canaryCommand(canary);
    const input = [
      ev({ type: 'user', text }),
      ev({ type: 'tool_call', id: 'toolu_1', name: 'Bash', arguments: { command: text } }),
      ev({ type: 'tool_result', id: 'toolu_1', content: text }),
      ev({ type: 'monitor_event', event: text, description: text }),
      ev({ type: 'monitor_end', exit_code: 0, description: text }),
      ev({ type: 'assistant', text, model: text }),
    ].join('');
    const r = await runBin(['--session-dir', `claude-code-cli=${tempDir()}`, '--cwd', `/tmp/$(touch ${canary})`, '--agent-name', text], { input, cwd: dir, env: cleanEnv({ SHELL: '/bin/sh' }) });
    expect(r.code).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(readFileSync(sessionOf(r).session_file, 'utf8')).toContain(`touch ${canary}`);
  });

  test('stdin in monitor mode is text: shell syntax on it is recorded, not run', async () => {
    const dir = tempDir();
    const canary = join(dir, 'canary');
    const r = await runBin(['--session-dir', `claude-code-cli=${tempDir()}`, '--cwd', '/p', '--monitor'], { input: `${canaryCommand(canary)}\n`, cwd: dir });
    expect(r.code).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(readFileSync(sessionOf(r).session_file, 'utf8')).toContain(`touch ${canary}`);
  });
});
