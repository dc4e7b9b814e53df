// Binary input is recognised from its first bytes (lib/input/binary.ts): file signatures, control bytes in the
// first line, and text (JSON, plain text, a crash's NUL run before a record) left to be read as lines.
import { describe, expect, test } from 'vitest';
import { binaryKind } from '../../lib/input/binary.js';
import { unsupportedInput } from '../../lib/agents/input-formats.js';

describe('binary input', () => {
  test('a SQLite database is named, with how to read OpenCode\'s and Kilo\'s stores', () => {
    const head = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]);
    expect(unsupportedInput(head)).toBe("not a supported input: it looks like a SQLite database (OpenCode's store: asyncai-log convert <its directory>; Kilo's store: asyncai-log convert <its directory>)");
  });

  test('images and archives are named by their signatures', () => {
    expect(binaryKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('a PNG image');
    expect(binaryKind(Buffer.from([0x1f, 0x8b, 8, 0]))).toBe('gzip-compressed data');
    expect(binaryKind(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('a zip archive');
  });

  test('control bytes in the first line are binary data', () => {
    expect(unsupportedInput(Buffer.from([1, 2, 3, 0, 0x7b, 0x0a]))).toBe('not a supported input: it looks like binary data');
    expect(binaryKind(Buffer.from('abc\x00\x01def\n', 'latin1'))).toBe('binary data');
  });

  test('text is not binary: JSON, plain text, CRLF and tabs, a control byte after the first line', () => {
    expect(binaryKind(Buffer.from('{"type":"user","text":"hi"}\n'))).toBeUndefined();
    expect(binaryKind(Buffer.from('hello\tworld\r\n\x01later\n'))).toBeUndefined();
    expect(binaryKind(Buffer.from('héllo wörld'))).toBeUndefined();
    expect(binaryKind(Buffer.alloc(0))).toBeUndefined();
  });

  test('a NUL run right before a record (what a crash leaves) is not binary', () => {
    expect(binaryKind(Buffer.concat([Buffer.alloc(40), Buffer.from('{"type":"user"}\n')]))).toBeUndefined();
  });
});
