// The time of a response's next record (lib/agents/claude-code-cli/response.ts): the event's own when later
// than the record before, else one millisecond after it, as the Date round trip gives it.
import { describe, expect, test } from 'vitest';
import { laterTime } from '../../../lib/agents/claude-code-cli/response.js';

/** What laterTime must give: the same, by way of Date. */
function expected(previous: string, time: string): string {
  if (Date.parse(time) > Date.parse(previous)) return time;
  return new Date(Date.parse(previous) + 1).toISOString();
}

describe('laterTime', () => {
  test('one millisecond later across every carry: a second, a minute, a day, a year', () => {
    for (const previous of [
      '2026-01-15T09:00:03.996Z', '2026-01-15T09:00:03.009Z', '2026-01-15T09:00:03.099Z', '2026-01-15T09:00:03.999Z',
      '2026-01-15T09:59:59.999Z', '2026-02-28T23:59:59.999Z', '2024-02-28T23:59:59.999Z', '2026-12-31T23:59:59.999Z',
      '2026-01-15T09:00:03.000Z',
    ]) {
      expect(laterTime(previous, previous)).toBe(expected(previous, previous));
      expect(laterTime(previous, '2020-01-01T00:00:00.000Z')).toBe(expected(previous, '2020-01-01T00:00:00.000Z'));
    }
  });

  test('a later time is kept; generated pairs agree with the Date round trip', () => {
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 5000; i += 1) {
      const base = Date.UTC(2020 + next(10), next(12), 1 + next(28), next(24), next(60), next(60), next(1000));
      const previous = new Date(base).toISOString();
      const time = new Date(base + next(5) - 2).toISOString();
      expect(laterTime(previous, time)).toBe(expected(previous, time));
    }
    expect(laterTime('+010000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z')).toBe('+010000-01-01T00:00:00.001Z');
  });
});
