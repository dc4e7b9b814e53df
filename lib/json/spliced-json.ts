// JSON.stringify for records that carry long strings of an input line: the record is serialised with a
// mark in place of each such string, and the string's raw bytes from the line are spliced in at the mark.
// The result is the same JSON value as JSON.stringify(record), without re-serialising (or re-encoding)
// the long text.
import { randomBytes } from 'node:crypto';
import type { JsonSource } from './raw-json.js';

/** Serialised JSON as a sequence of UTF-8 text and raw byte pieces, written back to back. */
export type JsonPieces = (string | Uint8Array)[];

/** Random per process, so no input can know it; an input that holds it anyway gets plain JSON.stringify. */
const MARK = `asyncai-log-raw-${randomBytes(16).toString('hex')}`;

/**
 * `JSON.stringify(value)`, with every string that `source` knows the raw text of spliced in as bytes.
 * Returns the plain string when nothing was spliced. Throws what JSON.stringify throws.
 */
export function stringifySpliced(value: unknown, source: JsonSource): string | JsonPieces {
  const raws: Uint8Array[] = [];
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') {
      const raw = source.rawOf(item);
      if (raw !== undefined) {
        raws.push(raw);
        return MARK;
      }
    }
    return item;
  });
  if (raws.length === 0) return json;
  const parts = json.split(MARK);
  if (parts.length !== raws.length + 1) return JSON.stringify(value);
  const pieces: JsonPieces = [parts[0]!];
  for (let i = 0; i < raws.length; i += 1) pieces.push(raws[i]!, parts[i + 1]!);
  return pieces;
}
