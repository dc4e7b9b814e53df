import { describe, expect, test } from 'vitest';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeError, makeDirs } from '../../lib/util/fs-errors.js';
import { tempDir } from '../support/run.js';

describe('makeDirs', () => {
  test('makes every missing directory, mode 0700, and accepts one that exists', () => {
    const base = tempDir();
    const dir = join(base, 'a', 'b', 'c');
    makeDirs(dir);
    for (const path of [join(base, 'a'), join(base, 'a', 'b'), dir]) expect(statSync(path).mode & 0o777).toBe(0o700);
    expect(() => makeDirs(dir)).not.toThrow();
  });

  test('a file in the way is refused with one message naming it', () => {
    const base = tempDir();
    writeFileSync(join(base, 'file'), '');
    expect(() => makeDirs(join(base, 'file', 'x'))).toThrow(`cannot make the directory ${join(base, 'file', 'x')}: a part of the path is not a directory`);
    expect(() => makeDirs(join(base, 'file'))).toThrow(`${join(base, 'file')} is not a directory`);
  });

  // Node's recursive mkdir loops forever here (ENOENT below a parent that exists): this must return.
  test.runIf(existsSync('/proc/self'))('a directory the file system refuses to make (under /proc) fails at once', () => {
    expect(() => makeDirs('/proc/asyncai-log-nope/x')).toThrow('cannot make the directory /proc/asyncai-log-nope: no such file');
  });

  test('errors read as words', () => {
    expect(describeError(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied');
    expect(describeError(new Error('something else'))).toBe('something else');
  });
});
