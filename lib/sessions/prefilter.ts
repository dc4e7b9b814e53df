// The prefilter of `sessions --grep` (passing.ts, grep.ts): whether a session's bytes hold the text searched for,
// in any case and in the forms JSON may give it, streamed a chunk at a time across chunk boundaries. Alone in its
// module: the grep workers (grep-worker.ts) load nothing else.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The forms `needle` may take in a session file's bytes, case-folded: as it is, JSON-escaped once and twice, non-ASCII as \u escapes. */
export function needleForms(needle: string): string[] {
  const lower = needle.toLowerCase();
  const once = JSON.stringify(lower).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  const ascii = once.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([lower, once, twice, ascii])];
}

/** Bytes searched at a time (the passes over them stay in a core's cache). */
const SCAN_BYTES = 256 * 1024;

/** ASCII bytes from the most to the least common in transcripts, roughly: a needle's rarest bytes are searched for. */
const COMMON = ' e"tainosrlhc,:du{}mpfgywb.-_kv0123456789\\/xjqz';
const rarity = (byte: number): number => {
  const at = COMMON.indexOf(String.fromCharCode(byte));
  return at === -1 ? COMMON.length : at;
};
const isLower = (byte: number): boolean => byte >= 0x61 && byte <= 0x7a;

/** The longest run of a needle searched for with `Buffer.indexOf` (2^run spellings at most). */
const ANCHOR_BYTES = 3;

/**
 * One ASCII form (lower case) found in bytes in any case: each spelling of its rarest run of up to three bytes
 * (upper and lower case of its letters) is searched for with `Buffer.indexOf` (memmem), and the whole form is
 * compared, letters in either case, where one is found.
 */
class AsciiNeedle {
  private readonly bytes: Buffer;
  private readonly offset: number;
  private readonly anchors: Buffer[];

  constructor(form: string) {
    this.bytes = Buffer.from(form);
    const run = Math.min(ANCHOR_BYTES, this.bytes.length);
    let best = -1;
    this.offset = 0;
    for (let at = 0; at + run <= this.bytes.length; at += 1) {
      let score = 0;
      for (let i = at; i < at + run; i += 1) score += rarity(this.bytes[i]!);
      if (score > best) [best, this.offset] = [score, at];
    }
    const anchor = this.bytes.subarray(this.offset, this.offset + run);
    const letters = [...anchor.keys()].filter((i) => isLower(anchor[i]!));
    this.anchors = [];
    for (let mask = 0; mask < 1 << letters.length; mask += 1) {
      const spelling = Buffer.from(anchor);
      letters.forEach((i, bit) => { if ((mask >> bit) & 1) spelling[i] = anchor[i]! - 0x20; });
      this.anchors.push(spelling);
    }
  }

  /** Whether `view` holds the form, letters in any case. */
  in(view: Buffer): boolean {
    const length = this.bytes.length;
    if (length === 0) return true;
    for (const anchor of this.anchors) {
      for (let at = view.indexOf(anchor); at !== -1; at = view.indexOf(anchor, at + 1)) {
        const start = at - this.offset;
        if (start >= 0 && start + length <= view.length && this.at(view, start)) return true;
      }
    }
    return false;
  }

  private at(view: Buffer, start: number): boolean {
    const bytes = this.bytes;
    for (let i = 0; i < bytes.length; i += 1) {
      const want = bytes[i]!;
      const have = view[start + i]!;
      if (have !== want && !(isLower(want) && (have | 0x20) === want)) return false;
    }
    return true;
  }
}

/**
 * A streaming test of chunks of bytes for any of `forms` (lower case), in any case, across chunk boundaries.
 * ASCII forms are found in the bytes themselves (AsciiNeedle: ASCII letters of either case match); other forms
 * in the chunk's UTF-8 text, lower-cased.
 */
export class Prefilter {
  private readonly ascii: boolean;
  private readonly keep: number;
  private readonly needles: AsciiNeedle[];
  private readonly bytes: Buffer;
  /** Bytes carried over at the start of `bytes` (the end of the last chunk). */
  private carried = 0;
  private carry = '';
  /** UTF-8 text a character at a time across chunks (a character split between two is decoded whole). */
  private readonly decoder = new StringDecoder('utf8');
  found = false;

  constructor(private readonly forms: readonly string[]) {
    this.ascii = forms.every((form) => /^[\x00-\x7f]*$/.test(form));
    this.needles = this.ascii ? forms.map((form) => new AsciiNeedle(form)) : [];
    this.keep = Math.max(0, ...forms.map((form) => Buffer.byteLength(form) - 1));
    this.bytes = Buffer.allocUnsafe(SCAN_BYTES + this.keep);
  }

  /** Start again, for another stream. */
  reset(): this {
    this.found = false;
    this.carried = 0;
    this.carry = '';
    this.decoder.end();
    return this;
  }

  /** Look at the bytes of the regular file at `path` (read into the search buffer itself); true once a form was seen. */
  scanFile(path: string): boolean {
    // Never blocking on a FIFO or device put where a session file was: only a regular file is read.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) return false;
      if (!this.ascii) {
        // Read into the search buffer's end: push() takes the text from there, carrying its own.
        const chunk = this.bytes.subarray(this.keep);
        for (let n; (n = readSync(fd, chunk, 0, SCAN_BYTES, null)) > 0;) if (this.push(chunk.subarray(0, n))) return true;
        return false;
      }
      for (let n; (n = readSync(fd, this.bytes, this.carried, SCAN_BYTES, null)) > 0;) if (this.scan(this.carried + n)) return true;
      return false;
    } finally {
      closeSync(fd);
    }
  }

  /** Search the first `end` bytes of the buffer (the carried ones first); keep the end for the next. */
  private scan(end: number): boolean {
    const view = this.bytes.subarray(0, end);
    for (const needle of this.needles) if (needle.in(view)) return (this.found = true);
    this.carried = Math.min(this.keep, end);
    this.bytes.copyWithin(0, end - this.carried, end);
    return false;
  }

  /** Whether `bytes` hold a form, apart from any stream (nothing carried in or out). */
  holds(bytes: Buffer): boolean {
    if (!this.ascii) {
      const text = bytes.toString().toLowerCase();
      return this.forms.some((form) => text.includes(form));
    }
    return this.needles.some((needle) => needle.in(bytes));
  }

  /** Look at the next chunk; true once a form was seen. */
  push(chunk: Buffer): boolean {
    if (this.found) return true;
    if (!this.ascii) {
      const text = this.carry + this.decoder.write(chunk).toLowerCase();
      if (this.forms.some((form) => text.includes(form))) return (this.found = true);
      this.carry = this.keep > 0 ? text.slice(-this.keep) : '';
      return false;
    }
    for (let at = 0; at < chunk.length; at += SCAN_BYTES) {
      const piece = chunk.subarray(at, at + SCAN_BYTES);
      piece.copy(this.bytes, this.carried);
      if (this.scan(this.carried + piece.length)) return true;
    }
    return false;
  }
}

/** Whether the file at `path` passes `filter` (read to its end at most, stopping at the first sight). */
export function filePasses(path: string, filter: Prefilter): boolean {
  try {
    return filter.reset().scanFile(path);
  } catch {
    return false;
  }
}

/** What a grep worker is given (grep-worker.ts): files to pass through the prefilter of `forms`. */
export interface GrepTask {
  forms: readonly string[];
  paths: readonly string[];
}

/** The indices in `paths` of the files that pass `filter`, in order. */
export function passingOf(paths: readonly string[], filter: Prefilter): number[] {
  const passing: number[] = [];
  paths.forEach((path, i) => {
    if (filePasses(path, filter)) passing.push(i);
  });
  return passing;
}
