// `sessions --grep <text>`: which listed sessions' conversations hold `text` (any case), and where. A session's
// bytes are streamed once through a byte-level prefilter (the text, its JSON-escaped forms, in any case), before
// the listing describes it; only a session the prefilter passes is described and read through its agent's
// reader or adapter for its hits (hits.ts), and a hit counts only in an event's conversation text, never in
// ids, paths or other metadata.
import { StoreError, type OpenedStore } from '../session/types.js';
import { storeEvents } from './events.js';
import { fileHits, Hits, type FoundHits } from './hits.js';
import type { SessionRow } from './list.js';
import { needleForms, passingOf, Prefilter, type GrepTask } from './prefilter.js';
import { eachInOrder, FilePool } from '../session/file-pool.js';

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
  const pool = FilePool.forFiles<GrepTask, number[]>(files.length, bytes, minBytes, workerUrl, BATCHES_PER_WORKER);
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
  let k = 0;
  for await (const passing of eachInOrder(pool, batches, (batch) => ({ forms, paths: batch.paths }), (batch) => passingOf(batch.paths, filter))) {
    const { start } = batches[k++]!;
    for (const i of passing) yield start + i;
  }
}

/**
 * The hits of `needle` in each of `rows` (same order; undefined for a session without one). Session files are
 * those the listing's prefilter passed (list.ts, `Wanted.forms`: needleForms of `needle`), each read through its
 * reader; store sessions are read from their store, a database at a time, through the prefilter a line at a time.
 * `problem` gets one line per store that cannot be read.
 */
export async function grepSessions(rows: readonly SessionRow[], needle: string, context: { env: Record<string, string | undefined>; tmpdir: string },
  problem: (line: string) => void): Promise<Map<SessionRow, FoundHits>> {
  const forms = needleForms(needle);
  const lower = needle.toLowerCase();
  const out = new Map<SessionRow, FoundHits>();
  const filter = new Prefilter(forms);
  for (const row of rows) {
    if (row.source.kind !== 'file') continue;
    const found = await fileHits(row.files[0]!, needle, filter);
    if (found.count > 0) out.set(row, found);
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
