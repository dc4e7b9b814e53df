// Many writers at once: 32 processes started together for the same project write 32 distinct, complete
// sessions and leave a file that was there before byte for byte alone; a session that is being written
// while the real claude resumes it (and appends to it) loses nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { resumeWithClaude, tempDir } from '../support/run.js';
import { ev, feed, finished, sessionFromStdout, spawnBin, transcriptState, until } from './support.js';

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

describe('concurrent writers', () => {
  test('32 processes started at once for the same cwd and root write 32 distinct complete files and leave an existing one untouched', async () => {
    const root = tempDir();
    const project = join(root, 'projects', '-home-user-project');
    // A session that was there before, with a name of the same shape.
    const existing = join(project, '00000000-0000-4000-8000-000000000000.jsonl');
    mkdirSync(project, { recursive: true });
    writeFileSync(existing, '{"type":"user","uuid":"precious"}\n', { mode: 0o644 });
    const before = { bytes: readFileSync(existing), stat: statSync(existing) };
    const runs = Array.from({ length: 32 }, () => spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project']));
    const input = (n: number) => Buffer.from(Array.from({ length: 200 }, (_, i) => ev({ type: i % 2 ? 'assistant' : 'user', text: `writer ${n} line ${i}` })).join(''));
    await Promise.all(runs.map((r, n) => feed(r.child, input(n), [4096, 4096, 65536])));
    const results = await Promise.all(runs.map((r) => finished(r)));
    const files = results.map((r) => {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      return sessionFromStdout(r.stdout).session_file;
    });
    expect(new Set(files).size).toBe(32);
    expect(readdirSync(project).sort()).toEqual([...files.map((f) => f.slice(project.length + 1)), '00000000-0000-4000-8000-000000000000.jsonl'].sort());
    files.forEach((file, n) => {
      const state = transcriptState(file);
      expect(state.damaged).toEqual([]);
      expect(state.partial).toBeUndefined();
      expect(state.records.map((r) => (typeof r.message.content === 'string' ? r.message.content : r.message.content[0].text)))
        .toEqual(Array.from({ length: 200 }, (_, i) => `writer ${n} line ${i}`));
    });
    expect(readFileSync(existing).equals(before.bytes)).toBe(true);
    const after = statSync(existing);
    expect([after.mode, after.size, after.mtimeMs, after.ino]).toEqual([before.stat.mode, before.stat.size, before.stat.mtimeMs, before.stat.ino]);
  }, 60_000);

  test('a real claude --resume of a session that is being streamed into loses nothing: the next resume sees every record of both', async () => {
    const root = tempDir();
    const cwd = tempDir();
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd]);
    const first = await new Promise<string>((resolve) => live.child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const { session_id: session, session_file: file } = sessionFromStdout(first);
    let n = 0;
    let streaming = true;
    // The writer keeps streaming turns, one pair every 10 ms, before, during and after the resume.
    const writer = (async () => {
      while (streaming) {
        live.child.stdin.write(ev({ type: 'user', text: `turn ${n} question` }) + ev({ type: 'assistant', text: `turn ${n} answer` }));
        n += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    // The resume needs a conversation in the file: wait for the records, not for a number of writes.
    await until(() => n >= 10 && transcriptState(file).records.length >= 2);
    const resumed = await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url, prompt: 'interjection while streaming' });
    expect(resumed.code).toBe(0);
    const afterResume = n;
    await until(() => n >= afterResume + 20);
    streaming = false;
    await writer;
    live.child.stdin.end();
    const { code, stderr } = await finished(live);
    expect(code).toBe(0);
    expect(stderr).toMatch(/session\.foreign_append/);
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(state.partial).toBeUndefined();
    await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url, prompt: 'final check' });
    const texts = (mock.requests.at(-1)!.body.messages as any[]).flatMap((m) => (typeof m.content === 'string'
      ? [m.content] : m.content.filter((b: any) => b.type === 'text').map((b: any) => b.text as string)));
    const turns = texts.filter((t) => /^turn \d+ (question|answer)$/.test(t));
    const expected = Array.from({ length: n }, (_, i) => [`turn ${i} question`, `turn ${i} answer`]).flat();
    expect(turns).toEqual(expected);
    expect(texts).toContain('interjection while streaming');
    expect(texts.indexOf(`turn ${n - 1} answer`)).toBeGreaterThan(texts.indexOf('interjection while streaming'));
  }, 60_000);
});
