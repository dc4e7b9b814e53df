// Input that is no text at all (a SQLite database, an image, an archive, any binary file) is said once, from its
// first bytes, instead of one diagnostic per "line" of it: `not a supported input: it looks like a SQLite
// database`. A store an agent keeps in such a file (OpenCode's database) is named with how to read it.
import { SESSION_STORES } from '../agents/index.js';

const SQLITE = 'a SQLite database';

/** File signatures (their first bytes) and what they are called. */
const SIGNATURES: readonly [Buffer, string][] = [
  [Buffer.from('SQLite format 3\0', 'latin1'), SQLITE],
  [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'a PNG image'],
  [Buffer.from([0xff, 0xd8, 0xff]), 'a JPEG image'],
  [Buffer.from('GIF8', 'latin1'), 'a GIF image'],
  [Buffer.from([0x1f, 0x8b]), 'gzip-compressed data'],
  [Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), 'zstd-compressed data'],
  [Buffer.from('PK\x03\x04', 'latin1'), 'a zip archive'],
  [Buffer.from('\x7fELF', 'latin1'), 'an executable'],
  [Buffer.from('%PDF-', 'latin1'), 'a PDF document'],
];

/** How far into the first line control bytes are looked for. */
const LOOK_BYTES = 1024;

/** Whether `byte` is a control byte no text line holds (tab, CR, form feed and escape are text's). */
function isControl(byte: number): boolean {
  return byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b;
}

/**
 * What the input starting with `head` is, when it is binary: a known signature, or a first line holding NUL or
 * other control bytes before any JSON (a Claude Code file a crash left NUL runs in starts with its record).
 * Undefined for text.
 */
export function binaryKind(head: Buffer): string | undefined {
  for (const [signature, kind] of SIGNATURES) {
    if (head.length >= signature.length && head.subarray(0, signature.length).equals(signature)) return kind;
  }
  const end = Math.min(head.length, LOOK_BYTES);
  for (let i = 0; i < end; i += 1) {
    const byte = head[i]!;
    if (byte === 0x0a) return undefined;
    if (byte === 0x00) {
      // A NUL run right before a record is a crash's; the record after it is read.
      let j = i;
      while (j < head.length && head[j] === 0x00) j += 1;
      if (j < head.length && head[j] === 0x7b) {
        i = j;
        continue;
      }
    }
    if (isControl(byte)) return 'binary data';
  }
  return undefined;
}

/** The one line said for binary input starting with `head` (without where), or undefined for text. */
export function unsupportedInput(head: Buffer): string | undefined {
  const kind = binaryKind(head);
  if (kind === undefined) return undefined;
  const hints = kind === SQLITE ? SESSION_STORES.map((agent) => agent.store.hint) : [];
  return `not a supported input: it looks like ${kind}${hints.length > 0 ? ` (${hints.join('; ')})` : ''}`;
}
