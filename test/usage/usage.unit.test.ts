// The writer sums a response's usage (sumUsage) and the reader gives each event what grew (usageGrowth), to
// one depth (lib/usage.ts): what one sums the other takes apart again, and deeper objects are whole values in both.
import { describe, expect, test } from 'vitest';
import { sumUsage, USAGE_MAX_DEPTH, usageGrowth } from '../../lib/usage.js';

/** A usage whose `deep` field is `levels` objects nested (depth 1 to `levels`) around `leaf`. */
function nested(levels: number, leaf: unknown): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i += 1) value = { n: value };
  return { input_tokens: 1, deep: value };
}

describe('usage summed and taken apart to one depth', () => {
  test('what sumUsage adds, usageGrowth gives back, at every depth summed field by field', () => {
    for (let levels = 0; levels <= USAGE_MAX_DEPTH; levels += 1) {
      const first = nested(levels, 3);
      const second = nested(levels, 4);
      const total = sumUsage(first, second);
      expect(total).toEqual({ ...nested(levels, 7), input_tokens: 2 });
      expect(usageGrowth(first, total)).toEqual(second);
    }
  });

  test('below the depth both take the later value whole', () => {
    const first = nested(USAGE_MAX_DEPTH + 1, 3);
    const second = nested(USAGE_MAX_DEPTH + 1, 4);
    const total = sumUsage(first, second);
    expect(total).toEqual({ input_tokens: 2, deep: nested(USAGE_MAX_DEPTH + 1, 4).deep });
    expect(usageGrowth(first, total)).toEqual({ input_tokens: 1, deep: nested(USAGE_MAX_DEPTH + 1, 4).deep });
  });

  test('a number that shrank is no later total: nothing grew', () => {
    expect(usageGrowth({ input_tokens: 5, output_tokens: 2 }, { input_tokens: 4, output_tokens: 3 })).toBeUndefined();
    expect(usageGrowth({ input_tokens: 5 }, { input_tokens: 5 })).toBeUndefined();
  });

  test('an own "__proto__" key stays a key in both', () => {
    const later = JSON.parse('{"input_tokens":2,"__proto__":{"x":1}}') as Record<string, unknown>;
    const total = sumUsage({ input_tokens: 1 }, later);
    expect(Object.getPrototypeOf(total)).toBe(Object.prototype);
    expect(JSON.stringify(total)).toBe('{"input_tokens":3,"__proto__":{"x":1}}');
    expect(JSON.stringify(usageGrowth({ input_tokens: 1 }, later))).toBe('{"input_tokens":1,"__proto__":{"x":1}}');
  });
});
