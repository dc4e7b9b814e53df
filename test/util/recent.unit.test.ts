// RecentMap and RecentSet: the bounded memory of tool call and task ids. It must forget exactly what a Map with
// "delete the first key when full" would forget, and stay fast however many keys pass through it.
import { describe, expect, test } from 'vitest';
import { RecentMap, RecentSet } from '../../lib/util/recent.js';

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
    expect([recent.has('a'), recent.has('b'), recent.size]).toEqual([true, true, 2]);
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
