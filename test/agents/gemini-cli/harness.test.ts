// The Gemini harness's files: the project slug resolved as the CLI does (registry, markers, new slug under its
// lock), the chat's path, name and mode, the default root, the safety rules, and lines another process appends.
import { describe, expect, test } from 'vitest';
import {
  appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { createGeminiHarness, geminiCli } from '../../../lib/agents/gemini-cli/harness.js';
import { chatFileName, projectHash, resolveProjectSlug, slugify } from '../../../lib/agents/gemini-cli/paths.js';
import { cleanEnv, runBin, sessionOf, tempDir } from '../../support/run.js';
import { chatLines, ev } from './support.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const registryOf = (root: string) => JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8'));

describe('the project slug', () => {
  test('is the CLI slugify of the directory name', () => {
    expect(slugify('My_App')).toBe('my-app');
    expect(slugify('--Über  Project--')).toBe('ber-project');
    expect(slugify('___')).toBe('project');
  });

  test('a new project claims slugify(basename), writes both markers and the registry entry, and releases the lock', () => {
    const root = tempDir();
    expect(resolveProjectSlug(root, '/home/alice/code/My_App')).toBe('my-app');
    expect(registryOf(root)).toEqual({ projects: { '/home/alice/code/My_App': 'my-app' } });
    for (const base of ['tmp', 'history']) expect(readFileSync(join(root, base, 'my-app', '.project_root'), 'utf8')).toBe('/home/alice/code/My_App');
    expect(existsSync(join(root, 'projects.json.lock'))).toBe(false);
  });

  test('another path with the same name gets -1, and each path keeps its own slug afterwards', () => {
    const root = tempDir();
    expect(resolveProjectSlug(root, '/a/My_App')).toBe('my-app');
    expect(resolveProjectSlug(root, '/other/My_App')).toBe('my-app-1');
    expect(resolveProjectSlug(root, '/a/My_App')).toBe('my-app');
    expect(resolveProjectSlug(root, '/other/My_App')).toBe('my-app-1');
  });

  test('a slug directory whose marker names another project is not claimed, even without a registry entry', () => {
    const root = tempDir();
    mkdirSync(join(root, 'tmp', 'app'), { recursive: true });
    writeFileSync(join(root, 'tmp', 'app', '.project_root'), '/someone/else/app');
    expect(resolveProjectSlug(root, '/mine/app')).toBe('app-1');
  });

  test('a marker naming the project is found when the registry lost it; a registry entry a marker contradicts is dropped', () => {
    const root = tempDir();
    mkdirSync(join(root, 'history', 'old-slug'), { recursive: true });
    writeFileSync(join(root, 'history', 'old-slug', '.project_root'), '/p/app\n');
    writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: { '/p/app': 'wrong', '/q/x': 'x' } }));
    mkdirSync(join(root, 'tmp', 'wrong'), { recursive: true });
    writeFileSync(join(root, 'tmp', 'wrong', '.project_root'), '/q/other');
    expect(resolveProjectSlug(root, '/p/app')).toBe('old-slug');
    expect(registryOf(root).projects).toEqual({ '/p/app': 'old-slug', '/q/x': 'x' });
    expect(readFileSync(join(root, 'tmp', 'old-slug', '.project_root'), 'utf8')).toBe('/p/app');
  });

  test('a registry the CLI would reject (a slug outside [a-z0-9-]) counts as empty: no path is made from its values', () => {
    const root = tempDir();
    writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: { '/p/app': '../../escape' } }));
    expect(resolveProjectSlug(root, '/p/app')).toBe('app');
    expect(readdirSync(root).sort()).toEqual(['history', 'projects.json', 'tmp']);
  });

  test('a stale lock (untouched for over 10 s, a crashed CLI) is taken over', () => {
    const root = tempDir();
    writeFileSync(join(root, 'projects.json'), '{"projects":{}}');
    mkdirSync(join(root, 'projects.json.lock'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'projects.json.lock'), old, old);
    expect(resolveProjectSlug(root, '/p/app')).toBe('app');
    expect(existsSync(join(root, 'projects.json.lock'))).toBe(false);
  });

  test('a symlink planted as projects.json is not followed', () => {
    const root = tempDir();
    const victim = join(tempDir(), 'victim.json');
    writeFileSync(victim, 'keep');
    symlinkSync(victim, join(root, 'projects.json'));
    expect(() => resolveProjectSlug(root, '/p/app')).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep');
  });
});

describe('the chat file', () => {
  test('is tmp/<slug>/chats/session-<UTC minute>-<id8>.jsonl, mode 0600 in 0700 directories, metadata first', async () => {
    const root = tempDir();
    const project = tempDir();
    const r = await runBin(['--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`, '--cwd', project], { input: ev({ type: 'user', text: 'hi' }) });
    expect(r.code, r.stderr).toBe(0);
    const session = sessionOf(r);
    const slug = slugify(project.split('/').pop()!);
    const name = relative(root, session.session_file);
    expect(name).toMatch(new RegExp(`^tmp/${slug}/chats/session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-${session.session_id.slice(0, 8)}\\.jsonl$`));
    expect(modeOf(session.session_file)).toBe(0o600);
    for (const dir of ['tmp', `tmp/${slug}`, `tmp/${slug}/chats`]) expect(modeOf(join(root, dir))).toBe(0o700);
    const lines = chatLines(session.session_file);
    expect(lines[0]).toMatchObject({ sessionId: session.session_id, projectHash: projectHash(project), kind: 'main' });
    expect(readFileSync(session.session_file, 'utf8').endsWith('\n')).toBe(true);
  });

  test('the file name is the start minute in UTC, as the CLI names its own', () => {
    expect(chatFileName(new Date('2026-11-29T23:59:59.999Z'), '0123abcd-0000-4000-8000-000000000000')).toBe('session-2026-11-29T23-59-0123abcd.jsonl');
  });

  test('the default root is $GEMINI_CLI_HOME/.gemini, else ~/.gemini', () => {
    expect(geminiCli.defaultRoot({ GEMINI_CLI_HOME: '/g' }, '/home/u')).toBe('/g/.gemini');
    expect(geminiCli.defaultRoot({ GEMINI_CLI_HOME: '' }, '/home/u')).toBe('/home/u/.gemini');
  });

  test('the bin writes under $GEMINI_CLI_HOME when no --session-dir names the root', async () => {
    const home = tempDir();
    const r = await runBin(['--session-format', 'gemini-cli', '--cwd', '/p/app'], { input: ev({ type: 'user', text: 'hi' }), env: cleanEnv({ GEMINI_CLI_HOME: home }) });
    expect(r.code, r.stderr).toBe(0);
    expect(sessionOf(r).session_file.startsWith(join(home, '.gemini', 'tmp', 'app', 'chats'))).toBe(true);
  });

  test('the resume command is gemini --resume <uuid>, from the project directory', () => {
    const h = geminiCli.create({ root: tempDir(), cwd: '/p/app', warn: () => {} });
    expect(h.resumeCommand).toBe(`gemini --resume ${h.sessionId}`);
    expect(h.cwd).toBe('/p/app');
    h.finish();
  });

  test('a symlink planted as tmp/<slug>/chats is not written through: exit 1, the target untouched', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    resolveProjectSlug(root, '/p/app');
    symlinkSync(elsewhere, join(root, 'tmp', 'app', 'chats'));
    const r = await runBin(['--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`, '--cwd', '/p/app'], { input: ev({ type: 'user', text: 'hi' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('an old conversation keeps its message times and ends with a current lastUpdated', () => {
    const root = tempDir();
    const now = new Date('2027-03-01T12:00:00.000Z');
    const h = createGeminiHarness({ root, cwd: '/p/app', warn: () => {} }, () => now);
    h.add({ type: 'user', text: 'old', timestamp: '2020-01-01T00:00:00.000Z' }, 'stdin:1');
    h.finish();
    const lines = chatLines(h.sessionFile);
    expect(lines[1].timestamp).toBe('2020-01-01T00:00:00.000Z');
    expect(lines.at(-1)).toEqual({ $set: { lastUpdated: now.toISOString() } });
    expect(lines[0].lastUpdated).toBe(now.toISOString());
  });
});

describe('lines another process appends', () => {
  test('our next lines start on a line of their own after them, and the warning is said once', () => {
    const root = tempDir();
    const warnings: string[] = [];
    const h = geminiCli.create({ root, cwd: '/p/app', warn: (m) => warnings.push(m) });
    h.add({ type: 'user', text: 'first', timestamp: '2026-01-01T00:00:00.000Z' }, 'stdin:1');
    h.add({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: '2026-01-01T00:00:00.000Z' }, 'stdin:2');
    h.flush();
    // A resuming CLI appends its $set and a message, the last without its newline yet.
    appendFileSync(h.sessionFile, '{"$set":{"lastUpdated":"2026-01-01T00:00:01.000Z"}}\n{"id":"cli-1","type":"user","content":[{"text":"from the cli"}]}');
    h.add({ type: 'tool_result', id: 'c1', content: 'a.txt', is_error: false, timestamp: '2026-01-01T00:00:02.000Z' }, 'stdin:3');
    h.flush();
    appendFileSync(h.sessionFile, '{"id":"cli-2","type":"gemini","content":"ok"}\n');
    h.add({ type: 'assistant', text: 'done', timestamp: '2026-01-01T00:00:03.000Z' }, 'stdin:4');
    h.finish();
    const lines = chatLines(h.sessionFile);
    expect(lines.map((l) => l.id ?? Object.keys(l.$set ?? l)[0])).toEqual([
      'sessionId', lines[1].id, 'summary', lines[3].id, 'lastUpdated', 'cli-1', lines[3].id, 'cli-2', lines[8].id, 'lastUpdated',
    ]);
    expect(lines[6].toolCalls[0].status).toBe('success');
    expect(warnings.filter((w) => w.includes('session.foreign_append'))).toHaveLength(1);
  });
});
