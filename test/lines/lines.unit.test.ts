import { describe, expect, test } from 'vitest';
import { LineSplitter, type Line } from '../../lib/lines/lines.js';

function split(chunks: (string | Buffer)[], max?: number): Line[] {
  const splitter = new LineSplitter(max !== undefined ? { maxLineBytes: max } : {});
  const lines: Line[] = [];
  for (const chunk of chunks) lines.push(...splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  lines.push(...splitter.end());
  return lines;
}

const texts = (lines: Line[]) => lines.map((l) => l.text);

describe('LineSplitter', () => {
  test('a line split across chunks is joined', () => {
    expect(texts(split(['{"a":', '1}\n{"b"', ':2}\n']))).toEqual(['{"a":1}', '{"b":2}']);
  });

  test('a UTF-8 character split across chunks is decoded whole', () => {
    const bytes = Buffer.from('{"t":"é€😀"}\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(texts(split(chunks))).toEqual(['{"t":"é€😀"}']);
  });

  test('CRLF line endings lose their CR', () => {
    expect(texts(split(['a\r\nb\r\n']))).toEqual(['a', 'b']);
  });

  test('a BOM at the start is removed', () => {
    expect(texts(split([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), 'x\n']))).toEqual(['x']);
  });

  test('a missing final newline still yields the last line', () => {
    expect(texts(split(['a\nb']))).toEqual(['a', 'b']);
  });

  test('blank lines are skipped but counted', () => {
    const lines = split(['a\n\n  \nb\n']);
    expect(lines.map((l) => [l.no, l.text])).toEqual([[1, 'a'], [4, 'b']]);
  });

  test('a line over the limit is reported by number and size, and its neighbours survive', () => {
    const lines = split(['ok1\n', 'x'.repeat(30), 'y'.repeat(30), '\nok2\n'], 50);
    expect(lines.map((l) => [l.no, l.text, l.bytes])).toEqual([[1, 'ok1', 3], [2, undefined, 60], [3, 'ok2', 3]]);
  });

  test('an over-long line inside one chunk is reported too', () => {
    const lines = split(['a\n' + 'z'.repeat(100) + '\nb\n'], 50);
    expect(lines.map((l) => l.text)).toEqual(['a', undefined, 'b']);
  });

  test('invalid UTF-8 is replaced and flagged on that line only', () => {
    const lines = split([Buffer.concat([Buffer.from('good\n"'), Buffer.from([0xff, 0xfe]), Buffer.from('"\n')])]);
    expect(lines[0]).toEqual({ no: 1, text: 'good', bytes: 4 });
    expect(lines[1]?.invalidUtf8).toBe(true);
    expect(lines[1]?.text).toBe('"\uFFFD\uFFFD"');
  });

  test('a line spanning many chunks is assembled once', () => {
    const big = 'q'.repeat(1_000_000);
    const chunks: string[] = [];
    for (let i = 0; i < big.length; i += 65536) chunks.push(big.slice(i, i + 65536));
    chunks.push('\n');
    expect(split(chunks)[0]?.text?.length).toBe(1_000_000);
  });
});
