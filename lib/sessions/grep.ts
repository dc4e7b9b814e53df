// `sessions --grep <text>`: which listed sessions' conversations hold `text` (any case), and where. A session's
// bytes are streamed once through a byte-level prefilter (the text, its JSON-escaped forms, in any case), before
// the listing describes it; only a session the prefilter passes is described and read through its agent's
// reader or adapter for its hits (hits.ts), and a hit counts only in an event's conversation text, never in
// ids, paths or other metadata.
import type { OpenStores } from '../agents/find-sessions.js';
import { StoreError } from '../session/types.js';
import { storeEvents } from './events.js';
import { fileHits, Hits, type FoundHits } from './hits.js';
import type { SessionRow } from './list.js';
import { needleForms, Prefilter } from './prefilter.js';

/**
 * The hits of `needle` in each of `rows` (same order; undefined for a session without one). Session files are
 * those the listing's prefilter passed (list.ts, `Wanted.forms`: needleForms of `needle`), each read through its
 * reader; store sessions are read from their store, a database at a time, each line tested by the prefilter.
 * `problem` gets one line per store that cannot be read.
 */
export async function grepSessions(rows: readonly SessionRow[], needle: string, context: { stores: OpenStores },
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
    try {
      const opened = await context.stores.open(first.match.agent, db);
      const wanted = opened.sessions.filter((s) => ofDb.some((row) => row.id === s.id));
      for await (const { session, lines } of opened.read(wanted)) {
        if (!lines.some((line) => filter.holds(Buffer.from(line)))) continue;
        const row = ofDb.find((r) => r.id === session.id)!;
        const hits = new Hits(lower);
        await storeEvents(lines, first.match.agent.store.input, `${db}#${session.id}`, hits.sink);
        if (hits.count > 0) out.set(row, { hits: hits.hits, count: hits.count });
      }
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      problem(`${db}: ${error.message}`);
    }
  }
  return out;
}
