// The reader's synchronous line reader (lib/lines/file-lines.ts) splits a file as the
// filter's LineSplitter splits a stream, whatever the chunk size: seeded random files with BOMs, CRLF,
// blank lines, invalid UTF-8, lines longer than a chunk and over the limit, with and without a final newline;
// lines passed over by number and long lines read by the caller keep the others as they were.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { Rng } from '../reliability/support.js';
import { LineSplitter } from '../../lib/lines/lines.js';
import { FileLines, lineText, type LongLineReader } from '../../lib/lines/file-lines.js';
import { tempDir } from '../support/run.js';

const MAX = 200;

interface Seen {
  no: number;
  text: string | undefined;
  invalidUtf8: boolean;
  last: boolean;
}

/** A seeded generator (mulberry32): the same files on every run. */
function random(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

function randomFile(rand: () => number): Buffer {
  const parts: Buffer[] = [];
  if (rand() < 0.3) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = 1 + Math.floor(rand() * 30);
  for (let i = 0; i < lines; i += 1) {
    const kind = rand();
    if (kind < 0.1) parts.push(Buffer.from(''));
    else if (kind < 0.15) parts.push(Buffer.from(' \t\u00a0 '));
    else if (kind < 0.2) parts.push(Buffer.from(`{"a":"${'x'.repeat(MAX * 2)}"}`));
    else if (kind < 0.25) parts.push(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    else parts.push(Buffer.from(`{"n":${i},"t":"é€😀 ${'y'.repeat(Math.floor(rand() * MAX * 0.4))}"}`));
    if (i < lines - 1 || rand() < 0.5) parts.push(Buffer.from(rand() < 0.3 ? '\r\n' : '\n'));
  }
  return Buffer.concat(parts);
}

function expected(bytes: Buffer): Seen[] {
  const splitter = new LineSplitter({ maxLineBytes: MAX });
  const seen = (last: boolean) => (line: { no: number; text: string | undefined; invalidUtf8?: boolean }): Seen => (
    { no: line.no, text: line.text, invalidUtf8: line.invalidUtf8 === true, last });
  return [...splitter.push(bytes).map(seen(false)), ...splitter.end().map(seen(true))];
}

function actual(path: string, chunk: number, limit = Number.MAX_SAFE_INTEGER, options: {
  /** Line numbers wanted (ascending): the others are passed over. */
  wanted?: readonly number[];
  readLong?: LongLineReader;
} = {}): Seen[] {
  const fd = openSync(path, 'r');
  try {
    const lines = new FileLines(fd, limit, MAX, chunk);
    const { wanted } = options;
    let at = 0;
    if (wanted !== undefined) lines.passTo(wanted[0] ?? Infinity);
    if (options.readLong !== undefined) lines.readLongWith(options.readLong);
    const seen: Seen[] = [];
    while (lines.readChunk((line) => {
      if (wanted !== undefined) {
        // Lines from the one asked for on are handed over: past a wanted line that is blank, the next one.
        expect(line.no).toBeGreaterThanOrEqual(wanted[at]!);
        while (at < wanted.length && wanted[at]! <= line.no) at += 1;
        lines.passTo(wanted[at] ?? Infinity);
        if (!wanted.includes(line.no)) return;
      }
      seen.push({ no: line.no, text: line.overLong ? undefined : lineText(line), invalidUtf8: line.invalidUtf8, last: line.last });
    }));
    return seen;
  } finally {
    closeSync(fd);
  }
}

/**
 * Each of 200 seeded random files (`seed`), written to a temporary directory: its number, path and bytes, and
 * the generator for the test's own draws after it.
 */
function eachSeededFile(seed: number, check: (n: number, path: string, bytes: Buffer, rand: () => number) => void): void {
  const dir = tempDir();
  const rand = random(seed);
  for (let n = 0; n < 200; n += 1) {
    const bytes = randomFile(rand);
    const path = join(dir, `${n}.jsonl`);
    writeFileSync(path, bytes);
    check(n, path, bytes, rand);
  }
}

describe('FileLines', () => {
  test('gives the lines LineSplitter gives, for every chunk size (200 seeded files)', () => {
    eachSeededFile(7, (_, path, bytes) => {
      const want = expected(bytes);
      for (const chunk of [1, 3, 7, 64, 4096]) expect(actual(path, chunk)).toEqual(want);
    });
  });

  test('by spans: the same lines within the limit, blank ones too, for every chunk size, into a buffer given', () => {
    const within = (text: string | undefined) => text !== undefined && text.trim() !== '';
    eachSeededFile(11, (n, path, bytes) => {
      const want = expected(bytes).map((line) => [line.text, line.last]).filter(([text]) => within(text as string | undefined));
      for (const chunk of [1, 3, 7, 64, 4096]) {
        const fd = openSync(path, 'r');
        const seen: [string, boolean][] = [];
        try {
          const lines = new FileLines(fd, Number.MAX_SAFE_INTEGER, MAX, chunk, undefined, Buffer.alloc(chunk));
          while (lines.readSpan((buf, start, end, last) => {
            const text = buf.toString('utf8', start, end);
            const parts = last ? [text] : text.slice(0, -1).split('\n');
            for (const part of parts) {
              const line = part.replace(/\r$/, '');
              if (Buffer.byteLength(line) <= MAX) seen.push([line, last]);
            }
          }));
        } finally {
          closeSync(fd);
        }
        expect(seen.filter(([text]) => within(text)), `file ${n}, chunk ${chunk}`).toEqual(want);
      }
    });
  });

  test('reads only the first `limit` bytes', () => {
    const path = join(tempDir(), 'limit.jsonl');
    writeFileSync(path, '{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(actual(path, 5, 16).map((line) => line.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  test('a line cut by the limit is the last line, without a newline', () => {
    const path = join(tempDir(), 'cut.jsonl');
    writeFileSync(path, '{"a":1}\n{"b":2}\n');
    expect(actual(path, 4, 12)).toEqual([
      { no: 1, text: '{"a":1}', invalidUtf8: false, last: false },
      { no: 2, text: '{"b"', invalidUtf8: false, last: true },
    ]);
  });

  test('an over-long line is handed over without its bytes and counted with its line number', () => {
    const path = join(tempDir(), 'long.jsonl');
    writeFileSync(path, `{"a":1}\n${'z'.repeat(MAX * 5)}\n{"b":2}`);
    expect(actual(path, 16)).toEqual([
      { no: 1, text: '{"a":1}', invalidUtf8: false, last: false },
      { no: 2, text: undefined, invalidUtf8: false, last: false },
      { no: 3, text: '{"b":2}', invalidUtf8: false, last: true },
    ]);
  });
});

describe('FileLines: lines passed over by number', () => {
  test('hands over the wanted lines as a full read gives them, numbered alike, for every chunk size (200 seeded files)', () => {
    eachSeededFile(13, (n, path, bytes, rand) => {
      const all = expected(bytes);
      const last = all.at(-1)?.no ?? 0;
      // Wanted: a random choice of numbers, blank lines' and over-long lines' among them.
      const wanted = Array.from({ length: last + 1 }, (_, i) => i + 1).filter(() => rand() < 0.3);
      const want = all.filter((line) => wanted.includes(line.no));
      for (const chunk of [1, 3, 7, 64, 4096]) {
        expect(actual(path, chunk, Number.MAX_SAFE_INTEGER, { wanted }), `file ${n}, chunk ${chunk}`).toEqual(want);
      }
    });
  });

  test('a long line passed over is not held: no buffer is made for it, nor is it reported over the limit', () => {
    const path = join(tempDir(), 'passed.jsonl');
    writeFileSync(path, `{"n":1}\n{"a":"${'x'.repeat(MAX / 2)}"}\n${'z'.repeat(MAX * 2)}\n{"n":4}\n`);
    const fd = openSync(path, 'r');
    const alloc = vi.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const lines = new FileLines(fd, Number.MAX_SAFE_INTEGER, MAX, 16);
      lines.passTo(4);
      const seen: string[] = [];
      while (lines.readChunk((line) => seen.push(line.overLong ? '(over-long)' : lineText(line))));
      expect(seen).toEqual(['{"n":4}']);
      expect(alloc.mock.calls.map(([size]) => size).filter((size) => size > 16)).toEqual([]);
    } finally {
      alloc.mockRestore();
      closeSync(fd);
    }
  });
});

describe('FileLines: a long line read by the caller', () => {
  const long = `{"a":"${'y'.repeat(100)}","b":"${'z'.repeat(40)}"}`;

  test('gets the line\'s number and file span, and its bytes are taken as the line, cut by the same rules', () => {
    const content = `\ufeff{"n":1}\r\n\n${long}\r\n{"n":4}\n${long}`;
    const path = join(tempDir(), 'long.jsonl');
    writeFileSync(path, content);
    const bytes = Buffer.from(content);
    const asked: [number, string][] = [];
    // Line 3 is read without its member b; line 5 (the last, without a newline) as it lies.
    const readLong: LongLineReader = (no, start, end) => {
      asked.push([no, bytes.toString('utf8', start, end)]);
      return no === 3 ? Buffer.from(`${bytes.toString('utf8', start, end).replace(/"b":"z+"/, '"b":""')}`) : undefined;
    };
    for (const chunk of [16, 64]) {
      asked.length = 0;
      expect(actual(path, chunk, Number.MAX_SAFE_INTEGER, { readLong }).map(({ no, text, last }) => [no, text, last])).toEqual([
        [1, '{"n":1}', false], [3, long.replace(/"b":"z+"/, '"b":""'), false], [4, '{"n":4}', false], [5, long, true],
      ]);
      expect(asked).toEqual([[3, `${long}\r`], [5, long]]);
    }
  });

  test('a line the caller reads, passed over or over the limit, is not offered', () => {
    const path = join(tempDir(), 'offered.jsonl');
    writeFileSync(path, `${long}\n${long}\n${'w'.repeat(MAX * 2)}\n{"n":4}\n`);
    const asked: number[] = [];
    const seen = actual(path, 32, Number.MAX_SAFE_INTEGER, { wanted: [2, 3, 4], readLong: (no) => void asked.push(no) });
    expect(seen.map(({ no, text }) => [no, text])).toEqual([[2, long], [3, undefined], [4, '{"n":4}']]);
    expect(asked).toEqual([2]);
  });
});

describe('FileLines: the buffer a long line is read into', () => {
  const linesOf = (content: Buffer, chunkBytes: number, max = 1 << 20) => {
    const path = join(tempDir(), 'long.jsonl');
    writeFileSync(path, content);
    const fd = openSync(path, 'r');
    const seen: { text: string; bufBytes: number; bytes: number }[] = [];
    try {
      const lines = new FileLines(fd, content.length, max, chunkBytes);
      while (lines.readChunk((line) => {
        if (!line.overLong) seen.push({ text: lineText(line), bufBytes: line.buf.length, bytes: line.bytes });
      }));
    } finally {
      closeSync(fd);
    }
    return seen;
  };

  test('is the line\'s size found ahead, not a doubling of the chunk (no larger buffers left behind)', () => {
    const long = `{"a":"${'é'.repeat(5000)}"}`;
    const seen = linesOf(Buffer.from(`{"n":1}\n${long}\n{"n":2}\n`), 1024);
    expect(seen.map((s) => s.text)).toEqual(['{"n":1}', long, '{"n":2}']);
    const line = seen[1]!;
    // 10 KB in chunks of 1 KiB: doubling would have made a 16 KiB buffer.
    expect(line.bufBytes).toBeGreaterThanOrEqual(line.bytes);
    expect(line.bufBytes).toBeLessThan(line.bytes + 1024);
  });

  test('a long last line without a newline, and one over the limit, are read as before', () => {
    const long = `{"b":"${'x'.repeat(9000)}"}`;
    expect(linesOf(Buffer.from(`{"n":1}\n${long}`), 1024).map((s) => s.text)).toEqual(['{"n":1}', long]);
    // Over the limit (4 KiB): dropped as it goes by, the lines around it kept.
    expect(linesOf(Buffer.from(`{"n":1}\n${long}\n{"n":2}\n`), 1024, 4096).map((s) => s.text)).toEqual(['{"n":1}', '{"n":2}']);
  });
});

describe('FileLines: buffers given back (release)', () => {
  /** Read `content` by lines in chunks of `chunkBytes`; `keep` lines have their chunk kept. Released after. */
  const read = (content: string, chunkBytes: number, keep = (_text: string) => false) => {
    const path = join(tempDir(), 'release.jsonl');
    writeFileSync(path, content);
    const fd = openSync(path, 'r');
    const lines = new FileLines(fd, Number.MAX_SAFE_INTEGER, MAX, chunkBytes);
    const seen: { text: string; view: Buffer; buf: Buffer }[] = [];
    try {
      while (lines.readChunk((line) => {
        const text = lineText(line);
        seen.push({ text, view: line.buf.subarray(line.start, line.end), buf: line.buf });
        if (keep(text)) lines.keepBuffer();
      }));
    } finally {
      lines.release();
      closeSync(fd);
    }
    expect(lines.readChunk(() => { throw new Error('a line after release'); })).toBe(false);
    return seen;
  };

  test('the next file of the same chunk size is read into the buffer the last one released', () => {
    const first = read('{"a":1}\n{"a":2}\n', 4099);
    const second = read('{"b":1}\n', 4099);
    expect(second.map((s) => s.text)).toEqual(['{"b":1}']);
    expect(second[0]!.buf).toBe(first[0]!.buf);
    // Another size gets a buffer of its own.
    expect(read('{"c":1}\n', 4101)[0]!.buf).not.toBe(first[0]!.buf);
  });

  test('a kept buffer is never given to another file: its lines stay as they were', () => {
    // Kept in a chunk, and kept with the file's last line (no newline after it, handed over as the file ends).
    for (const content of ['{"keep":"this line"}\n{"n":2}\n', '{"n":1}\n{"keep":"this line"}']) {
      const kept = read(content, 4103, (text) => text.includes('keep')).find((s) => s.text.includes('keep'))!;
      for (let i = 0; i < 3; i += 1) {
        const other = read(`{"other":"${'z'.repeat(30)}"}\n`, 4103);
        expect(other[0]!.buf).not.toBe(kept.buf);
      }
      expect(kept.view.toString()).toBe('{"keep":"this line"}');
    }
  });
});
