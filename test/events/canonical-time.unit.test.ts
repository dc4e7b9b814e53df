// resolveTimestamp's fast path for times already in toISOString form must agree with the Date round trip
// everywhere, including the days and hours Date rolls over (Feb 30, 24:00) and the ones it rejects.
import { describe, expect, test } from 'vitest';
import { resolveTimestamp } from '../../lib/events.js';

/** What the Date round trip makes of `text`: its ISO form, or 'invalid'. */
function viaDate(text: string): string {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? 'invalid' : date.toISOString();
}

function viaResolve(text: string): string {
  try {
    return resolveTimestamp(text, 'now');
  } catch {
    return 'invalid';
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('resolveTimestamp', () => {
  test('a canonical time comes back unchanged', () => {
    expect(resolveTimestamp('2026-01-15T09:00:03.996Z', 'now')).toBe('2026-01-15T09:00:03.996Z');
  });

  test('out-of-range days and hour 24 roll over as Date rolls them', () => {
    expect(resolveTimestamp('2026-02-30T00:00:00.000Z', 'now')).toBe('2026-03-02T00:00:00.000Z');
    expect(resolveTimestamp('1900-02-29T00:00:00.000Z', 'now')).toBe('1900-03-01T00:00:00.000Z');
    expect(resolveTimestamp('2026-01-01T24:00:00.000Z', 'now')).toBe('2026-01-02T00:00:00.000Z');
  });

  test('every year, month, day and time edge agrees with the Date round trip', () => {
    const years = [0, 1, 1900, 1970, 2000, 2024, 2026, 2100, 9999];
    const months = [0, 1, 2, 4, 12, 13];
    const days = [0, 1, 28, 29, 30, 31, 32];
    const times = ['00:00:00', '23:59:59', '24:00:00', '23:60:00', '23:59:60', '99:00:00'];
    const mismatches: string[] = [];
    for (const y of years) {
      for (const m of months) {
        for (const d of days) {
          for (const t of times) {
            const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${t}.123Z`;
            if (viaResolve(text) !== viaDate(text)) mismatches.push(text);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
