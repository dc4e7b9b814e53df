// What is planted in a Gemini root never hangs the writer: a project name too long for a directory gets a slug
// that fits, and a stale file where the registry lock goes or a FIFO where the registry is ends the run with one
// line, the lock released. The bin runs are killed at the hang limit, so a hang fails here rather than waits.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { projectHash, projectSlug, resolveProjectSlug } from '../../../lib/agents/gemini-cli/paths.js';
import { catches, ev, finished, spawnBin, until } from '../../reliability/support.js';
import { tempDir } from '../../support/run.js';

/** The bin on one event for a Gemini root, to its end. */
async function runGemini(root: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const spawned = spawnBin(['--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`, '--cwd', '/home/alice/p']);
  spawned.child.stdin.end(ev({ type: 'user', text: 'hi' }));
  const r = await finished(spawned);
  return { code: r.code, stderr: r.stderr, stdout: r.stdout.toString() };
}

describe('a project name too long for a directory', () => {
  const long = (tail: string) => `/home/alice/${'a'.repeat(300)}${tail}`;

  test('gets a slug of at most 200 characters the registry accepts, ending in a hash of the path', () => {
    const slug = projectSlug(long('x'));
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug).toMatch(/^[a-z0-9-]+$/);
    expect(slug.endsWith(`-${projectHash(long('x')).slice(0, 12)}`)).toBe(true);
    expect(projectSlug(long('y'))).not.toBe(slug);
    expect(projectSlug('/home/alice/My_App')).toBe('my-app');
  });

  test('in a root already in use: its chats directory is made and the registry names it', () => {
    const root = tempDir();
    expect(resolveProjectSlug(root, '/home/alice/p')).toBe('p');
    const slug = resolveProjectSlug(root, long('x'));
    expect(slug).toBe(projectSlug(long('x')));
    expect(readFileSync(join(root, 'tmp', slug, '.project_root'), 'utf8')).toBe(long('x'));
    expect(JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8')).projects[long('x')]).toBe(slug);
  });
});

describe('planted in the root', () => {
  test('a stale regular file where the registry lock goes: one line naming it, exit 1, the file left as it was', async () => {
    const root = tempDir();
    mkdirSync(root, { recursive: true });
    const lock = join(root, 'projects.json.lock');
    writeFileSync(lock, 'planted\n');
    utimesSync(lock, new Date(0), new Date(0));
    const r = await runGemini(root);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(`asyncai-log: cannot create the session: ${lock} is not a lock directory; remove it\n`);
    expect(readFileSync(lock, 'utf8')).toBe('planted\n');
  });

  test('a FIFO where the registry is: not opened blocking, one line, exit 1, the lock released', async () => {
    const root = tempDir();
    mkdirSync(root, { recursive: true });
    const registry = join(root, 'projects.json');
    execFileSync('mkfifo', ['-m', '600', registry]);
    const r = await runGemini(root);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(`asyncai-log: cannot create the session: ${registry} is not a regular file\n`);
    expect(lstatSync(registry).isFIFO()).toBe(true);
    expect(existsSync(`${registry}.lock`)).toBe(false);
  });

  test('a fresh lock directory held by another process: SIGTERM while the run waits for it ends the run at once, nothing of ours left', async () => {
    const root = tempDir();
    const claude = tempDir();
    mkdirSync(claude, { recursive: true });
    const lock = join(root, 'projects.json.lock');
    mkdirSync(lock, { recursive: true });
    const lockTime = statSync(lock).mtimeMs;
    // Gemini opens first, so the Claude session (asked for first) is not created while the lock is waited for.
    // No --cwd: the session opens at the first event, sent once the run handles signals; while the lock is
    // waited for, the handlers are off (SIGTERM's default action ends the process there), which says it waits.
    const spawned = spawnBin([
      '--session-format', 'claude-code-cli', '--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`,
      '--session-dir', `claude-code-cli=${claude}`,
    ], { cwd: tempDir() });
    const pid = spawned.child.pid!;
    await until(() => catches(pid, 'SIGHUP'));
    spawned.child.stdin.write(ev({ type: 'user', text: 'hi' }));
    await until(() => !catches(pid, 'SIGHUP'));
    spawned.child.kill('SIGTERM');
    const r = await finished(spawned);
    // Ended by the signal itself during the wait (a shell says 143): not by the wait running out, which would
    // have taken the lock over (the lock is checked as it was, below).
    expect(r.signal, r.stderr).toBe('SIGTERM');
    expect(r.stdout.toString()).toBe('');
    expect(lstatSync(lock).isDirectory()).toBe(true);
    expect(statSync(lock).mtimeMs).toBe(lockTime);
    expect(readdirSync(root)).toEqual(['projects.json.lock']);
    expect(readdirSync(lock)).toEqual([]);
    expect(readdirSync(claude)).toEqual([]);
  });
});

