// A huge line read again without the members its reader never reads (lib/json/unread-members.ts): where they lie
// is noted from the line as first read, and the line read again through FileLines has each of them as `""`,
// the lines around it as they were; short lines and lines without the members are left to FileLines.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UnreadMembers } from '../../lib/json/unread-members.js';
import { FileLines, lineText } from '../../lib/lines/file-lines.js';
import { LAZY_TEXT_BYTES } from '../../lib/lines/lines.js';
import { tempDir } from '../support/run.js';

function linesOf(path: string, members: UnreadMembers | undefined, note: boolean): string[] {
  const fd = openSync(path, 'r');
  try {
    const lines = new FileLines(fd, Number.MAX_SAFE_INTEGER, 64 * 1024 * 1024, 64 * 1024);
    if (members !== undefined) lines.readLongWith(members.reader(fd));
    const seen: string[] = [];
    while (lines.readChunk((line) => {
      if (note) members?.note(line.no, line.buf, line.start, line.end);
      seen.push(lineText(line));
    }));
    return seen;
  } finally {
    closeSync(fd);
  }
}

describe('UnreadMembers', () => {
  test('a huge line noted is read again with its unread members as "", the other lines as they were', () => {
    const big = 'é'.repeat(LAZY_TEXT_BYTES);
    const huge = JSON.stringify({ a: 1, copy: { stdout: big }, message: big, other: [big] });
    const lines = ['{"n":1}', huge, JSON.stringify({ copy: big.slice(0, 10), n: 3 }), JSON.stringify({ copy: 'x', message: big })];
    const path = join(tempDir(), 'huge.jsonl');
    writeFileSync(path, `${lines.join('\r\n')}\n`);
    const members = new UnreadMembers(['copy']);
    expect(linesOf(path, members, true)).toEqual(lines);
    expect([...members.spans.keys()]).toEqual([2, 4]);
    const again = linesOf(path, members, false);
    expect(again).toEqual(['{"n":1}', JSON.stringify({ a: 1, copy: '', message: big, other: [big] }), lines[2], JSON.stringify({ copy: '', message: big })]);
  });

  test('a first line is read again whole (its offsets would be past a BOM)', () => {
    const big = 'x'.repeat(LAZY_TEXT_BYTES);
    const first = JSON.stringify({ copy: big, n: 1 });
    const path = join(tempDir(), 'first.jsonl');
    writeFileSync(path, `\ufeff${first}\n{"n":2}\n`);
    const members = new UnreadMembers(['copy']);
    expect(linesOf(path, members, true)).toEqual([first, '{"n":2}']);
    expect(linesOf(path, members, false)).toEqual([first, '{"n":2}']);
  });
});
