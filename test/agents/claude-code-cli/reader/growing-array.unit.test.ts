// The reader's growing typed arrays: zeros of the asked length and type, big ones in WebAssembly memory of
// their own, and growth that keeps every value written.
import { describe, expect, test } from 'vitest';
import { GrowingArray, zeroed } from '../../../../lib/agents/claude-code-cli/reader/growing-array.js';

describe('zeroed and GrowingArray', () => {
  test('small and big arrays are zeros of the asked type and length, and hold what is written', () => {
    for (const length of [0, 10, 262_143, 262_144, 3_000_001]) {
      for (const type of [Int32Array, Uint32Array, Uint8Array] as const) {
        const array = zeroed(type, length);
        expect([array.constructor, array.length]).toEqual([type, length]);
        if (length === 0) continue;
        expect([array[0], array[length - 1]]).toEqual([0, 0]);
        array[length - 1] = 200;
        expect(array[length - 1]).toBe(200);
      }
    }
  });

  test('an array of a megabyte or more has a buffer of its own: no other array shares it', () => {
    const a = zeroed(Int32Array, 300_000);
    const b = zeroed(Int32Array, 300_000);
    a.fill(7);
    expect([a.buffer === b.buffer, b[0], b[299_999]]).toEqual([false, 0, 0]);
  });

  test('growing past a megabyte keeps every value and zeroes the rest', () => {
    const grown = new GrowingArray(Int32Array, 1024);
    for (let i = 0; i < 1024; i += 1) grown.data[i] = i - 500;
    grown.ensure(1_000_000);
    expect(grown.data.length).toBeGreaterThanOrEqual(1_000_000);
    expect([grown.data[0], grown.data[1023], grown.data[1024], grown.data[999_999]]).toEqual([-500, 523, 0, 0]);
  });
});
