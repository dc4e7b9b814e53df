import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gcFlagsFor, startSemiSpaceMb } from '../../lib/util/worker-heap.js';

// A worker that makes short-lived garbage until its new space has grown as far as it may, then reports that
// space's size (two semi-spaces), in MB.
const CHURN = `
Promise.all([import('node:v8'), import('node:worker_threads')]).then(([{ default: v8 }, { parentPort }]) => {
  let keep = [];
  for (let i = 0; i < 300000; i += 1) {
    keep.push({ a: i, b: 'x' + i });
    if (keep.length > 2000) keep = [];
  }
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  parentPort.postMessage(space.space_size / 1048576);
});
`;

describe('startSemiSpaceMb', () => {
  it('reads the flag from node\'s arguments and NODE_OPTIONS, the arguments last', () => {
    expect(startSemiSpaceMb([], '')).toBe(0);
    expect(startSemiSpaceMb(['--max-semi-space-size=4', '--heap-growing-percent=50'], '')).toBe(4);
    expect(startSemiSpaceMb(['--max-semi-space-size', '8'], '')).toBe(8);
    expect(startSemiSpaceMb([], '--max_semi_space_size=2 --inspect')).toBe(2);
    expect(startSemiSpaceMb(['--max-semi-space-size=4'], '--max-semi-space-size=2')).toBe(4);
    expect(startSemiSpaceMb(['--max-semi-space-size=x'], '')).toBe(0);
  });
});

// The scenario runs in a node started as the command starts it (4 MB semi-spaces): without the flag V8 sizes
// a new space by how the program runs, and two plain workers need not get the same.
const SCENARIO = `
import { Worker } from 'node:worker_threads';
import { startWithSemiSpace } from ${JSON.stringify(new URL('../../dist/lib/util/worker-heap.js', import.meta.url).href)};
import { WorkerPool } from ${JSON.stringify(new URL('../../dist/lib/agents/claude-code-cli/reader/worker-pool.js', import.meta.url).href)};
const CHURN = ${JSON.stringify(CHURN)};
const churn = (code = CHURN) => new Worker(code, { eval: true });
const newSpaceOf = (worker) => new Promise((resolve, reject) => {
  worker.once('message', (mb) => { resolve(mb); void worker.terminate(); });
  worker.once('error', reject);
});
const before = await newSpaceOf(churn());
const small = await Promise.all(startWithSemiSpace(1, () => [churn(), churn()]).map(newSpaceOf));
const after = await newSpaceOf(churn());
const [bad] = startWithSemiSpace(1, () => [churn('throw new Error("no start")')]);
bad.on('error', () => {});
await new Promise((resolve) => bad.once('exit', resolve));
const afterFailure = await newSpaceOf(churn());
// read's pool, closed before its workers are online (a read that ended early).
const pool = new WorkerPool(new URL(${JSON.stringify(new URL('../../dist/lib/agents/claude-code-cli/reader/read-worker.js', import.meta.url).href)}), 2, { includeEvents: false }, () => {});
void pool.run('heads', new Uint8Array(new SharedArrayBuffer(0)), new Int32Array(new SharedArrayBuffer(0)));
const exited = pool.workers.map(({ worker }) => new Promise((resolve) => worker.once('exit', resolve)));
pool.close();
await Promise.all(exited);
const afterClose = await newSpaceOf(churn());
console.log(JSON.stringify({ before, small, after, afterFailure, afterClose }));
`;

describe('startWithSemiSpace', () => {
  it('gives the workers it starts semi-spaces of the size asked, and later workers the process\'s again, also after a worker that failed or a pool closed before its workers were online', () => {
    const run = spawnSync(process.execPath, ['--max-semi-space-size=4', '--input-type=module', '-e', SCENARIO], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ before: 8, small: [2, 2], after: 8, afterFailure: 8, afterClose: 8 });
  });
});

describe('gcFlagsFor', () => {
  it('turns separate-gc-phases off on Node 24 only: 20 and 22 have it off, and a V8 without the flag would print an error', () => {
    expect(gcFlagsFor('24.22.3')).toEqual(['--no-separate-gc-phases']);
    expect(gcFlagsFor('24.0.0')).toEqual(['--no-separate-gc-phases']);
    expect(gcFlagsFor('20.20.2')).toEqual([]);
    expect(gcFlagsFor('22.23.5')).toEqual([]);
    expect(gcFlagsFor('26.1.0')).toEqual([]);
    expect(gcFlagsFor('2.4.0')).toEqual([]);
  });
});

// Old-generation garbage keeps full collections marking; young garbage fills the new space while they do.
// Prints the largest new space seen (MB), with or without setGcFlags first.
const MARKING = (set: boolean) => `
import v8 from 'node:v8';
import { setGcFlags } from ${JSON.stringify(new URL('../../dist/lib/util/worker-heap.js', import.meta.url).href)};
if (${set}) setGcFlags();
let old = [];
let young = [];
let max = 0;
for (let i = 0; i < 3000000; i += 1) {
  young.push({ i, s: 'y' + i });
  if (young.length > 500) young = [];
  if (i % 2 === 0) old.push({ i, s: 'o' + i });
  if (old.length > 200000) old = [];
  if (i % 500 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576);
}
console.log(max);
`;

describe('setGcFlags', () => {
  it('keeps the new space to the semi-spaces the command starts node with while full collections mark (Node 24 alone lets it grow without)', () => {
    const newSpace = (set: boolean) => {
      const run = spawnSync(process.execPath, ['--max-semi-space-size=4', '--heap-growing-percent=50', '--input-type=module', '-e', MARKING(set)], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      return Number(run.stdout);
    };
    expect(newSpace(true)).toBe(8);
    const without = newSpace(false);
    if (process.versions.node.split('.')[0] === '24') expect(without).toBeGreaterThan(8);
    else expect(without).toBe(8);
  });
});
