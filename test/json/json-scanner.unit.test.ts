// The plain readers of the one JSON byte scanner (lib/json/json-scanner.ts): a string without escapes and a flat
// object of whole numbers read from their bytes, each either what JSON.parse gives or -1 (the caller parses).
import { describe, expect, test } from 'vitest';
import { JsonScanner } from '../../lib/json/json-scanner.js';
import { Rng } from '../reliability/support.js';

const KEYS = ['a', 'bb', 'c_tokens'].map((key) => Buffer.from(key));

/** What wholeNumbers reads of `text` (its numbers by KEYS, and where it stopped), within `end` when given. */
function read(text: string, end?: number): { at: number; numbers: number[] } {
  const buf = Buffer.from(text);
  const numbers = new Float64Array(KEYS.length);
  const at = new JsonScanner(buf, end ?? buf.length).wholeNumbers(0, KEYS, numbers);
  return { at, numbers: [...numbers] };
}

describe('JsonScanner.plainStringEnd', () => {
  test('the closing quote of a string without escapes; -1 for an escape, a control character, or no end within the line', () => {
    const at = (text: string, end?: number) => new JsonScanner(Buffer.from(text), end).plainStringEnd(1);
    expect(at('"abc","x"')).toBe(4);
    expect(at('"Größe"')).toBe(8);
    expect(at('"a\\"b"')).toBe(-1);
    expect(at('"a\tb"')).toBe(-1);
    expect(at('"abc')).toBe(-1);
    expect(at('"abc"', 4)).toBe(-1);
  });

  test('startsWith and isText stay within the line', () => {
    const scanner = new JsonScanner(Buffer.from('"type":"event_msg"'), 10);
    expect(scanner.startsWith(0, Buffer.from('"type":'))).toBe(true);
    expect(scanner.startsWith(8, Buffer.from('event'))).toBe(false);
    expect(scanner.isText(1, 5, Buffer.from('type'))).toBe(true);
    expect(scanner.isText(1, 5, Buffer.from('typ'))).toBe(false);
  });
});

describe('JsonScanner.wholeNumbers', () => {
  test('a flat object of whole numbers: its numbers by key, 0 for a missing key, the last of a repeated one', () => {
    expect(read('{"a":1,"x":7,"c_tokens":30,"a":5}')).toEqual({ at: 33, numbers: [5, 0, 30] });
    expect(read('{}')).toEqual({ at: 2, numbers: [0, 0, 0] });
    expect(read('{"bb":123456789012345},')).toEqual({ at: 22, numbers: [0, 123456789012345, 0] });
  });

  test('keys in the order asked, out of it, and keys that begin as the one expected next', () => {
    expect(read('{"a":1,"bb":2,"c_tokens":3}').numbers).toEqual([1, 2, 3]);
    expect(read('{"c_tokens":3,"bb":2,"a":1}').numbers).toEqual([1, 2, 3]);
    expect(read('{"ab":9,"a":1,"bbb":8,"bb":2,"c_tokens_x":7}').numbers).toEqual([1, 2, 0]);
    expect(read('{"a":1,"a":4,"bb":2,"a":6}').numbers).toEqual([6, 2, 0]);
    expect(read('{"a":1,"b\\b":2}').at).toBe(-1);
  });

  test('any other shape is -1: a space, a fraction, an exponent, a sign, a leading zero, 16 digits, a string, an escape, no end', () => {
    for (const text of ['{"a": 1}', '{"a":1.5}', '{"a":1e3}', '{"a":-1}', '{"a":01}', '{"a":1234567890123456}', '{"a":"1"}',
      '{"\\u0061":1}', '{"a":null}', '{"a":{}}', '{"a":1', '{"a":1,}', '[1]', '{"a":1 }']) {
      expect(read(text).at, text).toBe(-1);
    }
    expect(read('{"a":12}', 7).at).toBe(-1);
    expect(read('{"a":12}', 6).at).toBe(-1);
  });

  test('generated objects: whatever it reads is what JSON.parse gives', () => {
    const rng = new Rng(7);
    const pieces = ['"a":', '"bb":', '"c_tokens":', '"x":', '"a" :', '"\\u0062b":', '0', '7', '42', '007', '1.5', '-3', '1e2', '"9"', 'null', '123456789012345', ',', ',', ' '];
    let kept = 0;
    for (let i = 0; i < 5000; i += 1) {
      const text = `{${Array.from({ length: rng.between(0, 8) }, () => rng.pick(pieces)).join('')}}`;
      const { at, numbers } = read(text);
      if (at === -1) continue;
      kept += 1;
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(at).toBe(text.length);
      expect(numbers, text).toEqual(['a', 'bb', 'c_tokens'].map((key) => (Object.hasOwn(parsed, key) ? parsed[key] : 0)));
    }
    expect(kept).toBeGreaterThan(50);
  });
});
