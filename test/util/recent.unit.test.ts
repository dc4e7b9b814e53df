// RecentMap, RecentSet and RecentStrings: the bounded memory of tool call and task ids. It must forget exactly what a Map with
// "delete the first key when full" would forget, and stay fast however many keys pass through it.
import { describe, expect, test } from 'vitest';
import { RecentMap, RecentSet, RecentStrings } from '../../lib/util/recent.js';

/** The reference: a plain Map evicting `keys().next()` when a new key comes and it is full. */
function reference<K, V>(capacity: number) {
  const map = new Map<K, V>();
  return {
    map,
    set(key: K, value: V) {
      if (!map.has(key) && map.size >= capacity) {
        const oldest = map.keys().next();
        if (!oldest.done) map.delete(oldest.value);
      }
      map.set(key, value);
    },
  };
}

describe('RecentMap and RecentSet', () => {
  test('the oldest key is forgotten when full', () => {
    const recent = new RecentMap<string, number>(2);
    recent.set('a', 1).set('b', 2).set('c', 3);
    expect([recent.has('a'), recent.get('b'), recent.get('c'), recent.size]).toEqual([false, 2, 3, 2]);
  });

  test('it forgets the same keys as a Map evicting its first key, through sets, resets and deletes', () => {
    const recent = new RecentMap<number, number>(50);
    const ref = reference<number, number>(50);
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 20_000; i += 1) {
      const key = next() % 120;
      if (next() % 5 === 0) {
        recent.delete(key);
        ref.map.delete(key);
      } else {
        recent.set(key, i);
        ref.set(key, i);
      }
    }
    const keys = [...Array(120).keys()];
    expect(keys.map((k) => recent.get(k))).toEqual(keys.map((k) => ref.map.get(k)));
    expect(recent.size).toBe(ref.map.size);
  });

  test('adding a key it holds already forgets nothing, even when full', () => {
    const recent = new RecentSet<string>(2).add('a').add('b').add('a');
    const compact = new RecentStrings(2).add('a').add('b').add('a');
    expect([recent.has('a'), recent.has('b'), recent.size]).toEqual([true, true, 2]);
    expect([compact.has('a'), compact.has('b'), compact.size]).toEqual([true, true, 2]);
  });

  test('clear forgets every key and value, and the map fills again in order', () => {
    const recent = new RecentMap<string, number>(2).set('a', 1).set('b', 2);
    recent.clear();
    expect([recent.size, recent.has('a'), recent.get('b')]).toEqual([0, false, undefined]);
    recent.set('c', 3).set('d', 4).set('e', 5);
    expect([recent.has('c'), recent.get('d'), recent.get('e'), recent.size]).toEqual([false, 4, 5, 2]);
  });

  test('after a million keys through a map of 100,000, exactly the last 100,000 are kept', () => {
    const recent = new RecentSet<string>(100_000);
    for (let i = 0; i < 1_000_000; i += 1) recent.add(`toolu_${i}`);
    // (The `keys().next()` eviction this replaces needed minutes for this loop.)
    expect([recent.size, recent.has('toolu_899999'), recent.has('toolu_900000')]).toEqual([100_000, false, true]);
  });
});

describe('RecentStrings', () => {
  /** A replayable stream of numbers (the seed names the case). */
  function numbers(seed: number) {
    return () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
  }

  /** Keys of many shapes: empty, short, long, Latin-1, wide (over 0xFF), astral (surrogate pairs). */
  function keyOf(n: number): string {
    const shapes = [
      (k: number) => `toolu_${k}`,
      (k: number) => (k % 7 === 0 ? '' : 'x'.repeat(k % 97)),
      (k: number) => `caf\u00e9-${k}-\u00ff`,
      (k: number) => `\u05ea\u4e2d-${k}`,
      (k: number) => `\u{1f600}${k}\u{1f600}`,
      (k: number) => `call_${k}_${'\u0101'.repeat(k % 300)}`,
    ];
    return shapes[n % shapes.length]!(n % 150);
  }

  test('it keeps and forgets exactly what RecentSet does, through adds, deletes of any key, and wrapping', () => {
    for (const [seed, capacity] of [[1, 1], [2, 3], [3, 17], [4, 64], [5, 200]] as const) {
      const next = numbers(seed);
      const compact = new RecentStrings(capacity);
      const reference = new RecentSet<string>(capacity);
      const keys = new Set<string>();
      let lastAdded = '';
      for (let i = 0; i < 30_000; i += 1) {
        const roll = next() % 10;
        // Deletes: the key just added (a call taken back), or any key (its bytes stay until the ring passes them).
        const key = roll === 0 ? lastAdded : keyOf(next() % 900);
        keys.add(key);
        if (roll <= 2) {
          expect(compact.delete(key)).toBe(reference.delete(key));
        } else {
          compact.add(key);
          reference.add(key);
          lastAdded = key;
        }
        if (i % 1000 === 0) expect(compact.size).toBe(reference.size);
      }
      expect(compact.size).toBe(reference.size);
      for (const key of keys) expect([key, compact.has(key)]).toEqual([key, reference.has(key)]);
    }
  });

  test('keys that differ only past the first byte of a wide code unit are told apart', () => {
    const set = new RecentStrings(10);
    set.add('\u0141').add('A\u0100');
    expect([set.has('\u0141'), set.has('\u0041'), set.has('A\u0100'), set.has('A\u0000'), set.has('A')]).toEqual([true, false, true, false, false]);
  });

  test('a key is found again after the ring grows, however it was wrapped', () => {
    const set = new RecentStrings(1_000);
    for (let i = 0; i < 5_000; i += 1) set.add(`k${i}-${'y'.repeat(i % 40)}`);
    const big = 'z'.repeat(100_000);
    set.add(big);
    expect([set.has(big), set.has(`k4999-${'y'.repeat(4999 % 40)}`), set.has(`k3999-${'y'.repeat(3999 % 40)}`), set.size]).toEqual([true, true, false, 1_000]);
  });

  test('after a million keys through a set of 100,000, exactly the last 100,000 are kept', () => {
    const recent = new RecentStrings(100_000);
    for (let i = 0; i < 1_000_000; i += 1) recent.add(`toolu_${i}`);
    expect([recent.size, recent.has('toolu_899999'), recent.has('toolu_900000'), recent.has('toolu_999999')]).toEqual([100_000, false, true, true]);
  });
});
