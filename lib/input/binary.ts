// Input that is no text at all (a SQLite database, an image, an archive, any binary file) is said once, from its
// first KiB, instead of one diagnostic per "line" of it: `not a supported input: it looks like a SQLite
// database`. A store an agent keeps in such a file (OpenCode's database) is named with how to read it: the
// registry's hints come from the caller (lib/agents/input-formats.ts `unsupportedInput`).

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

/** How many first bytes are looked at (an input shorter than that is looked at whole). */
export const LOOK_BYTES = 1024;

/** Whether `byte` is a control byte text does not hold (tab, newline, CR, form feed and escape are text's). */
function isControl(byte: number): boolean {
  return byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b;
}

/**
 * What the input starting with `head` (its first LOOK_BYTES, or all of it) is, when it is binary: a known
 * signature, or one byte in ten a control byte with no `{"` anywhere (damaged JSON, a crash's NUL run between
 * records and random junk lines among events all hold one). Undefined for text.
 */
export function binaryKind(head: Buffer): string | undefined {
  for (const [signature, kind] of SIGNATURES) {
    if (head.length >= signature.length && head.subarray(0, signature.length).equals(signature)) return kind;
  }
  const window = head.subarray(0, LOOK_BYTES);
  if (window.length === 0 || window.includes('{"')) return undefined;
  let controls = 0;
  for (const byte of window) if (isControl(byte)) controls += 1;
  return controls * 10 >= window.length ? 'binary data' : undefined;
}

/**
 * Whether what is held of an input's start (`head`) is enough to tell: a signature, a `{"`, the full window,
 * or a first line that is text. A live stream of short lines is thus never held back waiting for a KiB.
 */
export function knownFromHead(head: Buffer): boolean {
  if (head.length >= LOOK_BYTES || head.includes('{"')) return true;
  if (SIGNATURES.some(([signature]) => head.length >= signature.length && head.subarray(0, signature.length).equals(signature))) return true;
  return head.includes(0x0a) && binaryKind(head) === undefined;
}

/**
 * The one line said for binary input starting with `head` (without where), or undefined for text; `storeHints`
 * say how to read the agents' stores that a SQLite database may be.
 */
export function describeBinary(head: Buffer, storeHints: readonly string[]): string | undefined {
  const kind = binaryKind(head);
  if (kind === undefined) return undefined;
  const hints = kind === SQLITE ? storeHints : [];
  return `not a supported input: it looks like ${kind}${hints.length > 0 ? ` (${hints.join('; ')})` : ''}`;
}
