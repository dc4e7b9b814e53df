// The branch index's uuid table (lib/agents/claude-code-cli/reader/uuid-ids.ts): canonical uuids packed into 16
// bytes, any other string kept as it is; every id gives back exactly the string it was given for.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { UuidIds, uuidFingerprint } from '../../../../lib/agents/claude-code-cli/reader/uuid-ids.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'uuid-ids-test-'));
  dirs.push(dir);
  return dir;
}

/** Paths of this process's open files that are under `dir`, as the kernel names them. */
function openUnder(dir: string): string[] {
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dir}/`)) found.push(target);
    } catch {
      // Closed meanwhile (the directory's own fd).
    }
  }
  return found;
}

/** Two canonical uuids with the same fingerprint (a 32-bit hash: a birthday search finds a pair quickly). */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (;;) {
    const uuid = randomUUID();
    const print = uuidFingerprint(uuid)!;
    const other = seen.get(print);
    if (other !== undefined && other !== uuid) return [other, uuid];
    seen.set(print, uuid);
  }
}

describe('UuidIds', () => {
  test('gives dense ids in order and finds them again, through many rehashes (50,000 uuids)', () => {
    const ids = new UuidIds();
    const uuids = Array.from({ length: 50_000 }, () => randomUUID());
    uuids.forEach((uuid, i) => expect(ids.add(uuid)).toBe(i));
    expect(ids.size).toBe(50_000);
    uuids.forEach((uuid, i) => expect(ids.get(uuid)).toBe(i));
    expect(ids.get(randomUUID())).toBeUndefined();
  });

  test('names each id with the very string it was given', () => {
    const ids = new UuidIds();
    const uuids = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', randomUUID(), randomUUID()];
    for (const uuid of uuids) ids.add(uuid);
    expect(uuids.map((_, i) => ids.name(i))).toEqual(uuids);
  });

  test('keeps strings that are not canonical lowercase uuids apart from the ones that look alike', () => {
    const ids = new UuidIds();
    const lower = 'a1b2c3d4-0000-4000-8000-00000000000a';
    const others = [lower.toUpperCase(), `${lower} `, lower.replace(/-/g, ''), 'u1', '', 'é', `{${lower.slice(1)}`, lower.replace('-', '_')];
    const all = [lower, ...others];
    all.forEach((uuid) => ids.add(uuid));
    all.forEach((uuid, i) => {
      expect(ids.get(uuid)).toBe(i);
      expect(ids.name(i)).toBe(uuid);
    });
  });

  test('past the blocks kept in memory, uuids go to a file nobody else can open, and come back exactly', () => {
    const dir = tempDir();
    const ids = new UuidIds({ keepBlocks: 1, tmpdir: dir });
    const uuids = Array.from({ length: 50_000 }, (_, i) => (i % 1000 === 7 ? `other-${i}` : randomUUID()));
    uuids.forEach((uuid, i) => expect(ids.add(uuid)).toBe(i));
    // 50,000 ids are 13 blocks of 4,096: all but the newest in the file.
    expect(ids.spilledBlocks).toBe(12);
    // Unlinked at once, its directory too: nothing is left under the temporary directory, only the open file.
    expect(readdirSync(dir)).toEqual([]);
    expect(openUnder(dir)).toEqual([expect.stringMatching(/\/asyncai-log-[^/]+\/uuids \(deleted\)$/)]);
    uuids.forEach((uuid, i) => {
      expect(ids.get(uuid)).toBe(i);
      expect(ids.name(i)).toBe(uuid);
    });
    expect(ids.get(randomUUID())).toBeUndefined();
    ids.close();
    expect(openUnder(dir)).toEqual([]);
  });

  test('where no file can be made, every uuid stays in memory and is still found', () => {
    const ids = new UuidIds({ keepBlocks: 1, tmpdir: join(tempDir(), 'missing') });
    const uuids = Array.from({ length: 20_000 }, () => randomUUID());
    uuids.forEach((uuid) => ids.add(uuid));
    expect(ids.spilledBlocks).toBe(0);
    uuids.forEach((uuid, i) => {
      expect(ids.get(uuid)).toBe(i);
      expect(ids.name(i)).toBe(uuid);
    });
  });

  test('two uuids with one fingerprint are told apart by their bytes, in memory and in the file', () => {
    const [a, b] = collidingPair();
    expect(uuidFingerprint(a)).toBe(uuidFingerprint(b));
    for (const keepBlocks of [16, 1]) {
      const ids = new UuidIds({ keepBlocks, tmpdir: tempDir() });
      expect(ids.add(a)).toBe(0);
      expect(ids.get(b)).toBeUndefined();
      for (let i = 0; i < 5_000; i += 1) ids.add(randomUUID());
      expect(ids.add(b)).toBe(5_001);
      expect(ids.spilledBlocks).toBe(keepBlocks === 1 ? 1 : 0);
      expect([ids.get(a), ids.get(b), ids.name(0), ids.name(5_001)]).toEqual([0, 5_001, a, b]);
      ids.close();
    }
  });
});
