// The grouped usage as a table (read --usage --by on a terminal) and the local day it groups by.
import { describe, expect, test } from 'vitest';
import { localDay, usageTable } from '../../lib/read/usage-by.js';

const tokens = (input: number, output: number) => ({ input, output, cacheRead: 1000, cacheWrite: 0, reasoning: 0 });

describe('read --usage --by as a table', () => {
  test('a header, a row per group and the total row, numbers right-aligned with thousands separators', () => {
    const text = usageTable('day', [
      { key: '2026-11-29', tokens: tokens(1200, 30), last: '' },
      { key: '2026-11-30', tokens: tokens(5, 7), last: '' },
    ], { input: 1205, output: 37, cacheRead: 2000, cacheWrite: 0, reasoning: 0 });
    expect(text.split('\n')).toEqual([
      'Day         Input  Output  Cache read  Cache write  Reasoning  Total',
      '----------  -----  ------  ----------  -----------  ---------  -----',
      '2026-11-29  1,200      30       1,000            0          0  2,230',
      '2026-11-30      5       7       1,000            0          0  1,012',
      '----------  -----  ------  ----------  -----------  ---------  -----',
      'Total       1,205      37       2,000            0          0  3,242',
      '',
    ]);
  });

  test('a day is the calendar day of the process\'s time zone; no time or a bad one is none', () => {
    const at = '2026-11-29T23:30:00.000Z';
    const date = new Date(at);
    expect(localDay(at)).toBe(`${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`);
    expect(localDay(undefined)).toBeUndefined();
    expect(localDay('yesterday')).toBeUndefined();
  });
});
