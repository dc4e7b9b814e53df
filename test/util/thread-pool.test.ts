// The one pool of worker threads (lib/util/thread-pool.ts): replies to their own tasks, a lost worker
// replaced or the whole pool stopped, and a pool that never keeps the process alive. The workers run the
// build's serveTasks (global setup makes it).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ThreadPool, WorkerLost } from '../../lib/util/thread-pool.js';
import { tempDir } from '../support/run.js';

const SERVE = new URL('../../dist/lib/util/thread-pool.js', import.meta.url).href;

/** A worker module: `n` squared after `n` notes, exit(3) on -1, a throw on -2, a slow reply on 1000. */
function squaring(): URL {
  const file = join(tempDir('asyncai-log-pool-'), 'square.mjs');
  writeFileSync(file, `import { serveTasks } from ${JSON.stringify(SERVE)};
import { threadId } from 'node:worker_threads';
serveTasks(async (n, note) => {
  if (n === -1) process.exit(3);
  if (n === -2) throw new Error('no square');
  if (n === 1000) await new Promise((resolve) => setTimeout(resolve, 200));
  for (let i = 0; i < n && i < 3; i += 1) note(i);
  return { n, square: n * n, threadId };
});
`);
  return pathToFileURL(file);
}

describe('ThreadPool', () => {
  test('answers each task with its own reply, after its notes, whatever order the workers finish in', async () => {
    const pool = new ThreadPool<number, { n: number; square: number }, number>(squaring(), { size: 2, onLoss: 'stop' });
    const notes: number[] = [];
    const replies = await Promise.all([1000, 2, 3, 4].map((n) => pool.run(n, [], (i) => notes.push(n * 10 + i))));
    await pool.close();
    expect(replies.map((reply) => (reply as { square: number }).square)).toEqual([1000000, 4, 9, 16]);
    expect(notes.filter((note) => Math.floor(note / 10) === 3)).toEqual([30, 31, 32]);
  });

  test('replace: a worker that exits fails its task alone, and the next task runs on a new worker', async () => {
    const lost: WorkerLost[] = [];
    const pool = new ThreadPool<number, { square: number }>(squaring(), { size: 1, perWorker: 1, onLoss: 'replace', lost: (loss) => lost.push(loss) });
    const [dead, after] = await Promise.all([pool.run(-1), pool.run(5)]);
    await pool.close();
    expect(dead).toBeInstanceOf(WorkerLost);
    expect([(dead as WorkerLost).how, (dead as WorkerLost).code]).toEqual(['exit', 3]);
    expect(after).toMatchObject({ square: 25 });
    expect(lost).toHaveLength(1);
  });

  test('stop: a worker that throws fails every task not answered and every later one, with one loss said', async () => {
    const lost: WorkerLost[] = [];
    const pool = new ThreadPool<number, { square: number }>(squaring(), { size: 2, onLoss: 'stop', lost: (loss) => lost.push(loss) });
    const replies = await Promise.all([pool.run(1000), pool.run(-2), pool.run(1000)]);
    const later = await pool.run(2);
    await pool.close();
    expect(replies.every((reply) => reply instanceof WorkerLost)).toBe(true);
    expect(later).toBeInstanceOf(WorkerLost);
    expect(lost.map((loss) => [loss.how, loss.error?.message])).toEqual([['error', 'no square']]);
  });

  test('a pool left open, its tasks answered, does not keep the process alive', () => {
    const script = `import { ThreadPool } from ${JSON.stringify(SERVE)};
const pool = new ThreadPool(new URL(${JSON.stringify(squaring().href)}), { size: 2, onLoss: 'stop' });
console.log(JSON.stringify(await Promise.all([pool.run(1000), pool.run(3)])));`;
    // A file, not -e: workers would inherit --input-type, which they refuse.
    const file = join(tempDir('asyncai-log-pool-'), 'open-pool.mjs');
    writeFileSync(file, script);
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).map((reply: { square: number }) => reply.square)).toEqual([1000000, 9]);
  });
});
