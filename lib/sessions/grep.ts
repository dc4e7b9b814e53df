// `sessions --grep <text>`: which listed sessions' conversations hold `text` (any case), and where. A session's
// bytes are streamed once through a byte-level prefilter (the text, its JSON-escaped forms, in any case), before
// the listing describes it; only a session the prefilter passes is described, and read through its agent's
// reader or adapter, and a hit counts only in an
// event's conversation text (conversation.ts: user, assistant, thinking, tool calls and results, compaction
// summaries), never in ids, paths or other metadata.
import type { GenericEvent } from '../events.js';
import { StoreError, type OpenedStore } from '../session/types.js';
import { conversationText, fileEvents, storeEvents } from './events.js';
import type { SessionRow } from './list.js';
import { filePasses, needleForms, passingOf, Prefilter, type GrepTask } from './prefilter.js';
import { FilePool } from '../session/file-pool.js';
import { defaultThreads } from '../util/thread-pool.js';

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

  readonly sink = (events: readonly (GenericEvent | undefined)[]): boolean => {
    for (const event of events) {
      this.index += 1;
      if (event === undefined) continue;
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

/** Bytes of session files below which this thread passes them all through the prefilter (a worker has its own start). */
const POOL_MIN_BYTES = 256 * 1024 * 1024;
/** A worker's task: files in order up to this many bytes (or one larger file), at most BATCH_FILES of them. */
const BATCH_BYTES = 16 * 1024 * 1024;
const BATCH_FILES = 256;
/** Batches a worker holds at a time: one in hand and the next. */
const BATCHES_PER_WORKER = 2;

/**
 * The indices of the `files` that pass the prefilter of `forms`, in order: on worker threads, in batches, when
 * there are enough bytes (`minBytes`; tests set it, and the worker module), else here, each as it is reached.
 * A worker lost, this thread passes what it held.
 */
export async function* passingFiles(files: readonly { path: string; bytes: number }[], forms: readonly string[],
  { minBytes = POOL_MIN_BYTES, workerUrl = new URL('./grep-worker.js', import.meta.url) } = {}): AsyncGenerator<number> {
  const filter = new Prefilter(forms);
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const pool = files.length >= 2 && bytes >= minBytes
    ? FilePool.start<GrepTask, number[]>(Math.min(defaultThreads(), files.length), workerUrl, BATCHES_PER_WORKER) : undefined;
  if (pool === undefined) {
    for (const [i, file] of files.entries()) if (filePasses(file.path, filter)) yield i;
    return;
  }
  try {
    const batches: { start: number; paths: string[] }[] = [];
    let held = Infinity;
    for (const [i, file] of files.entries()) {
      const batch = batches.at(-1);
      if (batch === undefined || held + file.bytes > BATCH_BYTES || batch.paths.length >= BATCH_FILES) {
        batches.push({ start: i, paths: [file.path] });
        held = file.bytes;
      } else {
        batch.paths.push(file.path);
        held += file.bytes;
      }
    }
    const replies = batches.map((batch) => pool.run({ forms, paths: batch.paths }));
    for (const [k, batch] of batches.entries()) {
      for (const i of await replies[k] ?? passingOf(batch.paths, filter)) yield batch.start + i;
    }
  } finally {
    pool.close();
  }
}

/**
 * The hits of `needle` in each of `rows` (same order; undefined for a session without one). Session files are
 * those the listing's prefilter passed (list.ts, `Wanted.forms`: needleForms of `needle`), each read through its
 * reader; store sessions are read from their store, a database at a time, through the prefilter a line at a time.
 * `problem` gets one line per store that cannot be read.
 */
export async function grepSessions(rows: readonly SessionRow[], needle: string, context: { env: Record<string, string | undefined>; tmpdir: string },
  problem: (line: string) => void): Promise<Map<SessionRow, { hits: GrepHit[]; count: number }>> {
  const forms = needleForms(needle);
  const lower = needle.toLowerCase();
  const out = new Map<SessionRow, { hits: GrepHit[]; count: number }>();
  const filter = new Prefilter(forms);
  for (const row of rows) {
    if (row.source.kind !== 'file') continue;
    const hits = new Hits(lower);
    await fileEvents(row.files[0]!, hits.sink, { wanted: (line) => filter.holds(line) }).catch(() => false);
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
