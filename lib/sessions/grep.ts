// `sessions --grep <text>`: which listed sessions' conversations hold `text` (any case), and where. A session's
// bytes are streamed once through a byte-level prefilter (the text, its JSON-escaped forms, case-folded); only
// a session the prefilter passes is read through its agent's reader or adapter, and a hit counts only in an
// event's conversation text (conversation.ts: user, assistant, thinking, tool calls and results, compaction
// summaries), never in ids, paths or other metadata.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { GenericEvent } from '../events.js';
import { StoreError, type OpenedStore } from '../session/types.js';
import { conversationText, fileEvents, storeEvents } from './events.js';
import type { SessionRow } from './list.js';

/** One place a session matched. */
export interface GrepHit {
  /** The event's type (`user`, `assistant`, `tool_result`, ...). */
  event: string;
  /** The event's number in the session's conversation, from 1. */
  index: number;
  /** The text around the match, on one line. */
  snippet: string;
}

/** The most hits kept per session (the count goes on). */
export const MOST_HITS = 5;
const SNIPPET_AROUND = 30;

/** The forms `needle` may take in a session file's bytes, case-folded: as it is, JSON-escaped once and twice, non-ASCII as \u escapes. */
export function needleForms(needle: string): string[] {
  const lower = needle.toLowerCase();
  const once = JSON.stringify(lower).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  const ascii = once.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([lower, once, twice, ascii])];
}

/** Bytes folded and searched at a time. */
const SCAN_BYTES = 1 << 20;

/** `bytes` with the 0x20 bit of every byte set: ASCII letters in lower case (and some other bytes changed alike). */
function folded(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) out[i]! |= 0x20;
  return out;
}

/**
 * A streaming test of chunks of bytes for any of `forms` (case-folded), across chunk boundaries. ASCII forms
 * are looked for with the 0x20 bit of every byte set, in the needle and in the bytes, four bytes at a time in
 * an aligned buffer, then `Buffer.indexOf` (memmem): a letter of either case matches, and what else the fold
 * makes equal (`@` and a backquote, a newline and `*`) is only a candidate the confirming read turns down.
 * Other forms are looked for in the chunk's UTF-8 text, lower-cased.
 */
export class Prefilter {
  private readonly ascii: boolean;
  private readonly keep: number;
  private readonly needles: Buffer[];
  private readonly words: Uint32Array;
  private readonly bytes: Buffer;
  /** Bytes carried over at the start of `bytes` (the end of the last chunk). */
  private carried = 0;
  private carry = '';
  /** UTF-8 text a character at a time across chunks (a character split between two is decoded whole). */
  private readonly decoder = new StringDecoder('utf8');
  found = false;

  constructor(private readonly forms: readonly string[]) {
    this.ascii = forms.every((form) => /^[\x00-\x7f]*$/.test(form));
    this.needles = forms.map((form) => folded(Buffer.from(form)));
    this.keep = Math.max(...this.needles.map((needle) => needle.length)) - 1;
    const buffer = new ArrayBuffer(this.ascii ? SCAN_BYTES + this.keep + 8 : 0);
    this.words = new Uint32Array(buffer, 0, buffer.byteLength >>> 2);
    this.bytes = Buffer.from(buffer);
  }

  /** Start again, for another stream. */
  reset(): this {
    this.found = false;
    this.carried = 0;
    this.carry = '';
    this.decoder.end();
    return this;
  }

  /** Look at the bytes of the file at `path` (read into the aligned buffer itself); true once a form was seen. */
  scanFile(path: string): boolean {
    const fd = openSync(path, 'r');
    try {
      if (!this.ascii) {
        const chunk = Buffer.allocUnsafe(SCAN_BYTES);
        for (let n; (n = readSync(fd, chunk, 0, SCAN_BYTES, null)) > 0;) if (this.push(chunk.subarray(0, n))) return true;
        return false;
      }
      for (let n; (n = readSync(fd, this.bytes, this.carried, SCAN_BYTES, null)) > 0;) if (this.scan(this.carried + n)) return true;
      return false;
    } finally {
      closeSync(fd);
    }
  }

  /** Fold and search the first `end` bytes of the buffer (the carried ones first); keep the end for the next. */
  private scan(end: number): boolean {
    const words = this.words;
    for (let i = 0, n = (end + 3) >>> 2; i < n; i++) words[i]! |= 0x20202020;
    const view = this.bytes.subarray(0, end);
    for (const needle of this.needles) if (view.indexOf(needle) !== -1) return (this.found = true);
    this.carried = Math.min(this.keep, end);
    this.bytes.copyWithin(0, end - this.carried, end);
    return false;
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

/** A snippet of `text` around its first match of `lower` (case-folded), on one line. */
export function snippetAround(text: string, lower: string): string | undefined {
  const at = text.toLowerCase().indexOf(lower);
  if (at === -1) return undefined;
  const start = Math.max(0, at - SNIPPET_AROUND);
  const end = Math.min(text.length, at + lower.length + SNIPPET_AROUND);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/** Collects the hits of a needle in a stream of events. */
class Hits {
  readonly hits: GrepHit[] = [];
  count = 0;
  private index = 0;

  constructor(private readonly lower: string) {}

  readonly sink = (events: readonly GenericEvent[]): boolean => {
    for (const event of events) {
      this.index += 1;
      const text = conversationText(event);
      if (text === undefined) continue;
      const snippet = snippetAround(text, this.lower);
      if (snippet === undefined) continue;
      this.count += 1;
      if (this.hits.length < MOST_HITS) this.hits.push({ event: event.type, index: this.index, snippet });
    }
    return true;
  };
}

/** Whether the file at `path` passes `filter` (read to its end at most, stopping at the first sight). */
function filePasses(path: string, filter: Prefilter): boolean {
  try {
    return filter.reset().scanFile(path);
  } catch {
    return false;
  }
}

/**
 * The hits of `needle` in each of `rows` (same order; undefined for a session without one). Store sessions are
 * read from their store, a database at a time. `problem` gets one line per store that cannot be read.
 */
export async function grepSessions(rows: readonly SessionRow[], needle: string, context: { env: Record<string, string | undefined>; tmpdir: string },
  problem: (line: string) => void): Promise<Map<SessionRow, { hits: GrepHit[]; count: number }>> {
  const forms = needleForms(needle);
  const lower = needle.toLowerCase();
  const out = new Map<SessionRow, { hits: GrepHit[]; count: number }>();
  const filter = new Prefilter(forms);
  for (const row of rows) {
    if (row.source.kind !== 'file') continue;
    const file = row.files[0]!;
    if (!filePasses(file, filter)) continue;
    const hits = new Hits(lower);
    await fileEvents(file, hits.sink).catch(() => false);
    if (hits.count > 0) out.set(row, { hits: hits.hits, count: hits.count });
  }
  const stores = rows.filter((row) => row.source.kind === 'store');
  for (const db of new Set(stores.map((row) => (row.source.kind === 'store' ? row.source.match.db : '')))) {
    const ofDb = stores.filter((row) => row.source.kind === 'store' && row.source.match.db === db);
    const first = ofDb[0]!.source;
    if (first.kind !== 'store') continue;
    let opened: OpenedStore | undefined;
    try {
      opened = await first.match.agent.store.open(db, context);
      const wanted = opened.sessions.filter((s) => ofDb.some((row) => row.id === s.id));
      for await (const { session, lines } of opened.read(wanted)) {
        filter.reset();
        if (!lines.some((line) => filter.push(Buffer.from(`${line}\n`)))) continue;
        const row = ofDb.find((r) => r.id === session.id)!;
        const hits = new Hits(lower);
        await storeEvents(lines, first.match.agent.store.input, `${db}#${session.id}`, hits.sink);
        if (hits.count > 0) out.set(row, { hits: hits.hits, count: hits.count });
      }
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      problem(`${db}: ${error.message}`);
    } finally {
      await opened?.close();
    }
  }
  return out;
}
