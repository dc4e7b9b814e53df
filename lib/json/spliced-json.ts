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
 * Returns the plain string when nothing was spliced. Throws what JSON.stringify throws. `exact`: only raw
 * text that is what JSON.stringify writes is spliced (see isStringifyForm), so the bytes are the same as
 * JSON.stringify's; other strings are serialised as usual.
 */
export function stringifySpliced(value: unknown, source: JsonSource, exact = false): string | JsonPieces {
  const raws: Uint8Array[] = [];
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') {
      const raw = source.rawOf(item);
      if (raw !== undefined && (!exact || isStringifyForm(raw))) {
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

const BACKSLASH = 0x5c;
/** The escape letters JSON.stringify writes after a backslash, besides `u`: " \\ b f n r t. */
const SHORT_ESCAPES = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** The control characters JSON.stringify writes with a short escape rather than \u00XX. */
const SHORT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** The value of 4 lowercase hex digits at `at`, or -1 (JSON.stringify writes lowercase). */
function lowerHex4(raw: Uint8Array, at: number): number {
  if (at + 4 > raw.length) return -1;
  let value = 0;
  for (let i = at; i < at + 4; i += 1) {
    const c = raw[i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The value of a `\uXXXX` escape (any case) starting at `at`, or -1. */
function anyEscape(raw: Uint8Array, at: number): number {
  if (raw[at] !== BACKSLASH || raw[at + 1] !== 0x75 || at + 6 > raw.length) return -1;
  const text = Buffer.from(raw.buffer, raw.byteOffset + at + 2, 4).toString('latin1');
  return /^[0-9a-fA-F]{4}$/.test(text) ? Number.parseInt(text, 16) : -1;
}

/**
 * Whether the raw text of a JSON string (between its quotes, valid UTF-8 that JSON.parse accepted) is exactly
 * what JSON.stringify writes for the string it holds: only the escapes JSON.stringify uses (the short ones,
 * lowercase \u00XX for other control characters, lowercase \uDXXX for a lone surrogate), everything else as
 * it is. Escaped non-ASCII, `\/`, uppercase hex or an escaped surrogate pair are not.
 */
export function isStringifyForm(raw: Uint8Array): boolean {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  let at = bytes.indexOf(BACKSLASH);
  while (at !== -1) {
    const letter = bytes[at + 1]!;
    if (letter === 0x75) {
      const value = lowerHex4(bytes, at + 2);
      if (value < 0) return false;
      if (value >= 0xd800 && value <= 0xdbff) {
        // A high surrogate escaped is JSON.stringify's only when it is lone: no low surrogate escaped after it.
        const next = anyEscape(bytes, at + 6);
        if (next >= 0xdc00 && next <= 0xdfff) return false;
      } else if (!(value >= 0xdc00 && value <= 0xdfff) && !(value < 0x20 && !SHORT_CONTROLS.has(value))) {
        // A low surrogate reached here is lone (a pair was refused at its high half).
        return false;
      }
      at = bytes.indexOf(BACKSLASH, at + 6);
    } else {
      if (!SHORT_ESCAPES.has(letter)) return false;
      at = bytes.indexOf(BACKSLASH, at + 2);
    }
  }
  return true;
}
