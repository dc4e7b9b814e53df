// One record limit for writer and reader (lib/util/record-limit.ts): the longest line the filter takes by
// default becomes a record that `read` reads back with its defaults. One 64 MiB line through both bins.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { MAX_LINE_BYTES } from '../../lib/util/record-limit.js';
import { cleanEnv, tempDir } from '../support/run.js';
import { finished, spawnBin } from './support.js';

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
  const dir = join(root, 'projects', readdirSync(join(root, 'projects'))[0]!);
  const file = join(dir, readdirSync(dir).find((name) => name.endsWith('.jsonl'))!);
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
