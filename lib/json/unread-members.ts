// The members a reader never reads (a tool result's second copy, tens of megabytes) of the huge lines of a file
// it reads twice: where they lie, noted in the first read, and such a line read again without them, into a
// buffer of its size (FileLines.readLongWith), each left out as `""`.
import { readSync } from 'node:fs';
import type { LongLineReader } from '../lines/file-lines.js';
import { LAZY_TEXT_BYTES } from '../lines/lines.js';
import { memberSpans } from './raw-json.js';

export class UnreadMembers {
  /** [start, end) offsets from the line's first byte (past a BOM) of the members' values, by line number. */
  readonly spans = new Map<number, [number, number][]>();

  /** `keys`: top-level members of a line's object the reader never reads. */
  constructor(private readonly keys: readonly string[]) {}

  /** Line `no`, valid JSON `buf[start, end)` as first read (a line of LAZY_TEXT_BYTES or more is looked at). */
  note(no: number, buf: Buffer, start: number, end: number): void {
    if (end - start < LAZY_TEXT_BYTES || this.keys.length === 0 || this.spans.has(no)) return;
    const spans = memberSpans(buf.subarray(start, end), this.keys);
    if (spans.length > 0) this.spans.set(no, spans);
  }

  /** For FileLines.readLongWith: a line noted read from `fd` without those members; others left to FileLines. */
  reader(fd: number): LongLineReader {
    return (no, start, end) => {
      // Line 1's offsets are past its BOM, if it has one.
      const left = no > 1 ? this.spans.get(no) : undefined;
      return left !== undefined ? readAround(fd, start, end, left) : undefined;
    };
  }
}

/** `fd`'s bytes [start, end) but for the spans `left` (offsets from `start`, in order), each read as `""`. */
function readAround(fd: number, start: number, end: number, left: readonly [number, number][]): Buffer {
  let size = end - start;
  for (const [from, to] of left) size -= to - from - 2;
  const buf = Buffer.allocUnsafeSlow(size);
  let filled = 0;
  let at = start;
  const copy = (to: number) => {
    while (at < to) {
      const n = readSync(fd, buf, filled, to - at, at);
      if (n === 0) throw new Error('the file changed while it was read');
      filled += n;
      at += n;
    }
  };
  for (const [from, to] of left) {
    copy(start + from);
    filled += buf.write('""', filled, 'latin1');
    at = start + to;
  }
  copy(end);
  return buf;
}
