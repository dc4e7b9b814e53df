// LineValues: the values of an input line by line, a pretty-printed document opening it gathered whole and
// located at its first line; a document that is not JSON, over the limit or never closed gets one diagnostic.
import { describe, expect, test } from 'vitest';
import { isLazyLine, LAZY_TEXT_BYTES, LineSplitter } from '../../lib/lines/lines.js';
import { LineValues, type LineValue } from '../../lib/input/pretty-document.js';

function values(text: string, max?: number): (LineValue | 'end')[] {
  const reader = new LineValues(max);
  const splitter = new LineSplitter(max !== undefined ? { maxLineBytes: max } : {});
  const out: (LineValue | 'end')[] = [];
  for (const line of [...splitter.push(Buffer.from(text)), ...splitter.end()]) {
    const value = reader.next(line);
    if (value) out.push(value);
  }
  const open = reader.end();
  if (open) out.push(open, 'end');
  return out;
}

describe('LineValues', () => {
  test('lines are values one by one', () => {
    expect(values('{"a":1}\n\n{"b":2}\n')).toEqual([{ no: 1, value: { a: 1 } }, { no: 3, value: { b: 2 } }]);
  });

  test('a pretty-printed document opening the input is one value at its first line; lines after it are lines', () => {
    const doc = JSON.stringify({ info: { id: 'ses_1', nested: { x: [1, 2] } }, messages: [] }, null, 2);
    expect(values(`\n${doc}\n{"c":3}\n`)).toEqual([
      { no: 2, value: { info: { id: 'ses_1', nested: { x: [1, 2] } }, messages: [] } },
      { no: 2 + doc.split('\n').length, value: { c: 3 } },
    ]);
  });

  test('a huge first line is read from its bytes, never decoded whole to see whether it opens a document', () => {
    const big = `{"type":"user","text":"${'é'.repeat(LAZY_TEXT_BYTES)}"}`;
    const [line] = new LineSplitter().push(Buffer.from(`${big}\n`));
    expect(isLazyLine(line!)).toBe(true);
    const read = new LineValues().next(line!);
    expect(isLazyLine(line!)).toBe(true);
    expect((read as { value: { text: string } }).value.text).toHaveLength(LAZY_TEXT_BYTES);
    // A lone { with a megabyte of spaces after it still opens a document.
    const [brace] = new LineSplitter().push(Buffer.from(`{${' '.repeat(LAZY_TEXT_BYTES)}\n`));
    expect(isLazyLine(brace!)).toBe(true);
    const document = new LineValues();
    expect(document.next(brace!)).toBeUndefined();
    expect(document.opened).toBe(true);
  });

  test('only the first value may be a document: a lone { later is a bad line', () => {
    const [first, second] = values('{"a":1}\n{\n"b": 2\n}\n');
    expect(first).toEqual({ no: 1, value: { a: 1 } });
    expect(second).toMatchObject({ no: 2, bad: expect.stringMatching(/^invalid JSON/) });
  });

  test('a lone { followed by a line neither indented nor its closing } opened no document: the lines after it are lines', () => {
    const reader = new LineValues();
    const read = values('{\n{"a":1}\n{"b":2}\n');
    expect(read).toEqual([
      { no: 2, value: { a: 1 }, before: { no: 1, bad: expect.stringMatching(/^invalid JSON/) } },
      { no: 3, value: { b: 2 } },
    ]);
    const [brace, next] = new LineSplitter().push(Buffer.from('{\n{"a":1}\n'));
    expect(reader.next(brace!)).toBeUndefined();
    expect(reader.opened).toBe(true);
    expect(reader.next(next!)).toMatchObject({ no: 2, value: { a: 1 } });
    expect(reader.opened).toBe(false);
    expect(reader.end()).toBeUndefined();
    // Indented lines first: they and the { are the one diagnostic; the line that broke the document is read.
    expect(values('{\n  "a": 1,\n{"b":2}\n}\n')).toEqual([
      { no: 3, value: { b: 2 }, before: { no: 1, bad: 'not a JSON document: line 3 is neither indented nor its closing "}"; read line by line from there' } },
      { no: 4, bad: expect.stringMatching(/^invalid JSON/) },
    ]);
    // A huge line after the { (held as bytes, starting visible) is read from its bytes.
    const big = `{"text":"${'é'.repeat(LAZY_TEXT_BYTES)}"}`;
    const [, huge] = new LineSplitter().push(Buffer.from(`{\n${big}\n`));
    expect(isLazyLine(huge!)).toBe(true);
    const lazy = new LineValues();
    lazy.next({ no: 1, text: '{', bytes: 1 });
    expect((lazy.next(huge!) as { value: { text: string } }).value.text).toHaveLength(LAZY_TEXT_BYTES);
  });

  test('a document that is not JSON, one over the limit and one never closed each get one diagnostic', () => {
    expect(values('{\n  "a": 1,\n}\n')).toEqual([{ no: 1, bad: expect.stringMatching(/^not a JSON document: /) }]);
    const long = JSON.stringify({ text: 'x'.repeat(200) }, null, 2);
    expect(values(`${long}\n`, 100)).toEqual([{ no: 1, bad: `JSON document of ${long.length} bytes is over the limit of 100 bytes; skipped` }]);
    expect(values('{\n  "a": 1\n')).toEqual([{ no: 1, bad: 'the JSON document starting here does not end (no closing "}" in the first column)' }, 'end']);
  });
});
