// The branch index's uuid table (lib/agents/claude-code-cli/reader/uuid-ids.ts): canonical uuids packed into 16
// bytes, any other string kept as it is; every id gives back exactly the string it was given for.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { UuidIds } from '../../../../lib/agents/claude-code-cli/reader/uuid-ids.js';

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
});
