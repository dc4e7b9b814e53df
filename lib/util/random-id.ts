// Random ids drawn for many records at speed: version 4 UUIDs and the API's message ids, from random bytes
// drawn 4 KiB at a time, written as ASCII into a small buffer and read back as one flat string.
// (crypto.randomUUID joins its string from 20 pieces: a rope of that many objects, later flattened again.)
import { createHash, randomBytes } from 'node:crypto';

const HEX = Buffer.from('0123456789abcdef');
const ALNUM = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789');

let pool = Buffer.alloc(0);
let at = 0;
/** Where ids are written; never handed out (the strings read from it are copies). */
const text = Buffer.alloc(64);

/** `length` random bytes of the pool: the index of the first. */
function draw(length: number): number {
  if (at + length > pool.length) {
    pool = randomBytes(4096);
    at = 0;
  }
  const from = at;
  at += length;
  return from;
}

/** A random (version 4, RFC 9562) UUID, as crypto.randomUUID gives one. */
export function randomUuid(): string {
  const from = draw(16);
  let o = 0;
  for (let i = 0; i < 16; i += 1) {
    let byte = pool[from + i]!;
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) text[o++] = 0x2d;
    text[o++] = HEX[byte >> 4]!;
    text[o++] = HEX[byte & 15]!;
  }
  return text.toString('latin1', 0, 36);
}

/** `prefix` and `length` random lowercase letters and digits (the API's message ids: `msg_` and 24). */
export function randomAlnum(prefix: string, length: number): string {
  const from = draw(length);
  let o = text.write(prefix, 0, 'latin1');
  // 256 is not a multiple of 36: the first 4 characters are a little likelier, as in the ids drawn before.
  for (let i = 0; i < length; i += 1) text[o++] = ALNUM[pool[from + i]! % ALNUM.length]!;
  return text.toString('latin1', 0, o);
}

/**
 * Ids of a session's records that are not random: UUID-shaped, drawn from `seed` and a counter, so they are
 * unique in the file whatever the random source, and a later run that maps the same events again names each
 * record as the run that wrote it did.
 */
export function seededUuids(seed: string): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`${seed}:${n += 1}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}
