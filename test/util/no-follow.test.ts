// Reading a file whose path comes from input (a spilled output, a session's sidecar) without following a
// link (lib/util/no-follow.ts): absolute, a regular file (no symlink, FIFO or device), capped in size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readBelow, readNoFollow } from '../../lib/util/no-follow.js';
import { tempDir } from '../support/run.js';

const LIMIT = 1_000_000;

describe('readNoFollow', () => {
  test('a file at the cap is read', () => {
    const file = join(tempDir(), 'edge.txt');
    writeFileSync(file, Buffer.alloc(10, 0x61));
    expect(readNoFollow(file, 10)).toEqual({ ok: true, text: 'aaaaaaaaaa' });
  });

  test('a symbolic link is not followed', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'link.txt'));
    const link = join(dir, 'link.txt');
    expect(readNoFollow(link, LIMIT)).toEqual({ ok: false, reason: `a symbolic link (${link}), not followed`, link });
  });

  test('a FIFO is refused without blocking', () => {
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readNoFollow(fifo, LIMIT)).toEqual({ ok: false, reason: 'not a regular file' });
  });

  test('a device is refused', () => {
    expect(readNoFollow('/dev/zero', LIMIT)).toEqual({ ok: false, reason: 'not a regular file' });
  });

  test('a directory is refused', () => {
    expect(readNoFollow(tempDir(), LIMIT)).toEqual({ ok: false, reason: 'not a regular file' });
  });

  test('a relative path is refused', () => {
    expect(readNoFollow('out.txt', LIMIT)).toEqual({ ok: false, reason: 'not an absolute path' });
  });

  test('a file over the limit is refused, one at it read', () => {
    const file = join(tempDir(), 'big.txt');
    writeFileSync(file, Buffer.alloc(11, 0x61));
    expect(readNoFollow(file, 10)).toEqual({ ok: false, reason: '11 bytes, over the limit of 10' });
    expect(readNoFollow(file, 11)).toEqual({ ok: true, text: 'a'.repeat(11) });
  });
});

describe('readBelow', () => {
  test('reads a file below a directory, and follows no link on the way', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'meta.json'), '{}');
    expect(readBelow(dir, ['sub', 'meta.json'], LIMIT)).toEqual({ ok: true, text: '{}' });
    symlinkSync(join(dir, 'sub'), join(dir, 'linked'));
    const link = join(dir, 'linked');
    expect(readBelow(dir, ['linked', 'meta.json'], LIMIT)).toEqual({ ok: false, reason: `a symbolic link (${link}), not followed`, link });
    expect(readBelow(dir, ['sub', 'gone.json'], LIMIT)).toEqual({ ok: false, reason: 'missing' });
  });
});
