// The ids the Claude mapper draws for every record: version 4 UUIDs as crypto.randomUUID gives them, and the
// API's message ids, all distinct and with their random bits spread.
import { describe, expect, test } from 'vitest';
import { randomAlnum, randomUuid } from '../../lib/util/random-id.js';

describe('random ids', () => {
  test('UUIDs are version 4 and variant 10, lowercase, all distinct, every hex digit used in every free place', () => {
    const seen = new Set<string>();
    const digits = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 20_000; i += 1) {
      const uuid = randomUuid();
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(uuid);
      for (let k = 0; k < 36; k += 1) digits[k]!.add(uuid[k]!);
    }
    expect(seen.size).toBe(20_000);
    const free = digits.filter((_, k) => ![8, 13, 14, 18, 19, 23].includes(k));
    for (const used of free) expect(used.size).toBe(16);
    expect(digits[19]!.size).toBe(4);
  });

  test('message ids are the prefix and lowercase letters and digits, all distinct', () => {
    const seen = new Set<string>();
    const characters = new Set<string>();
    for (let i = 0; i < 20_000; i += 1) {
      const id = randomAlnum('msg_', 24);
      expect(id).toMatch(/^msg_[a-z0-9]{24}$/);
      seen.add(id);
      for (const c of id.slice(4)) characters.add(c);
    }
    expect(seen.size).toBe(20_000);
    expect(characters.size).toBe(36);
  });
});
