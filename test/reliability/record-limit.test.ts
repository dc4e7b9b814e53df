// One record limit for writer and reader (lib/util/record-limit.ts): the longest line the filter takes by
// default becomes a record that `read` reads back with its defaults, and a record the writer would make over
// the limit is refused with one diagnostic. One 64 MiB line, and one of 23 MiB, through both bins.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { MAX_LINE_BYTES, MAX_RECORD_BYTES } from '../../lib/util/record-limit.js';
import { cleanEnv, tempDir } from '../support/run.js';
import { finished, spawnBin } from './support.js';

/** The Claude Code transcript the filter wrote under `root`. */
function transcriptUnder(root: string): string {
  const dir = join(root, 'projects', readdirSync(join(root, 'projects'))[0]!);
  return join(dir, readdirSync(dir).find((name) => name.endsWith('.jsonl'))!);
}

test('a line just under the filter\'s limit round-trips: every event of the session is read back', async () => {
  const root = tempDir();
  const cwd = tempDir();
  const env = cleanEnv({ HOME: tempDir() });
  const shell = '{"type":"assistant","text":""}';
  const big = 'x'.repeat(MAX_LINE_BYTES - 200 - shell.length);
  const input = [
    { type: 'user', text: 'before' }, { type: 'assistant', text: big }, { type: 'user', text: 'after' }, { type: 'assistant', text: 'done' },
  ].map((e) => JSON.stringify(e)).join('\n').concat('\n');
  const write = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd], { env, cwd });
  write.child.stdin.end(input);
  const written = await finished(write);
  expect(written.code, written.stderr).toBe(0);
  const file = transcriptUnder(root);
  // The record is longer than the line it was made from (its own fields), and longer than 64 MiB.
  expect(Math.max(...readFileSync(file, 'utf8').split('\n').map((l) => Buffer.byteLength(l)))).toBeGreaterThan(MAX_LINE_BYTES - 200);

  const read = spawnBin(['read', file], { env, cwd });
  read.child.stdin.end();
  const { code, stdout, stderr } = await finished(read);
  expect(code, stderr).toBe(0);
  expect(stderr).toBe('');
  const events = stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string; text: string });
  expect(events.map((e) => [e.type, e.text.length])).toEqual([['user', 6], ['assistant', big.length], ['user', 5], ['assistant', 4]]);
}, 240_000);

// The Claude Code writer refuses such a record; the Codex and Gemini CLI writers do not check yet.
test.each(['claude-code-cli'])('%s: a line the writer would make a record over the limit of (invalid UTF-8 grows) is refused: read reads all that was written', async (format) => {
  const root = tempDir();
  const cwd = tempDir();
  const env = cleanEnv({ HOME: tempDir() });
  // Each byte 0xff is written as U+FFFD, three bytes: 23 MiB of them make a record over the limit.
  const bad = Buffer.alloc(Math.ceil(MAX_RECORD_BYTES / 3) + 1024, 0xff);
  const input = Buffer.concat([
    Buffer.from('{"type":"user","text":"before"}\n{"type":"assistant","text":"'), bad, Buffer.from('"}\n'),
    Buffer.from('{"type":"user","text":"after"}\n{"type":"assistant","text":"done"}\n'),
  ]);
  const write = spawnBin(['--session-format', format, '--session-dir', `${format}=${root}`, '--cwd', cwd], { env, cwd });
  write.child.stdin.end(input);
  const written = await finished(write);
  expect(written.code, written.stderr).toBe(0);
  expect(written.stderr.split('\n').filter((l) => l.includes('over the limit'))).toEqual([
    expect.stringMatching(new RegExp(`^asyncai-log: stdin:2: .*over the limit of ${MAX_RECORD_BYTES} bytes that read takes; not written`)),
  ]);
  const file = (JSON.parse(written.stdout.toString('utf8').split('\n')[0]!) as { result: { session_file: string } }).result.session_file;

  const read = spawnBin(['read', file], { env, cwd });
  read.child.stdin.end();
  const { code, stdout, stderr } = await finished(read);
  expect(code, stderr).toBe(0);
  expect(stderr).toBe('');
  const texts = stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { text?: string }).text);
  expect(texts).toEqual(expect.arrayContaining(['before', 'after', 'done']));
}, 240_000);
