import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gcFlagsFor } from '../../lib/util/worker-heap.js';

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
