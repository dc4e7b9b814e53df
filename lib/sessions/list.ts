// The rows of `asyncai-log sessions`: every session `everySession` finds, with what its agent keeps of it (the
// agent's `SessionLookup.describe` over the file's head and end, else the generic facts any agent's records
// give there) and what only a read of its conversation gives (turns, first user text), the latter kept in the
// sessions index (cache.ts) so that an unchanged session is only stat'ed next time.
import { statSync } from 'node:fs';
import { everySession, type LookupContext, type OpenStores, type SessionMatch, type StoreSessionMatch } from '../agents/find-sessions.js';
import { StoreError } from '../session/types.js';
import { cutText } from '../session/session-facts.js';
import { storeEvents } from './events.js';
import { conversationFacts, describeFile, type DescribeTask } from './describe.js';
import { passingFiles } from './passing.js';
import { eachInOrder, FilePool } from '../session/file-pool.js';
import type { IndexEntry, SessionIndex } from './cache.js';

/** One listed session. */
export interface SessionRow {
  /** Its agent's `--session-format`. */
  agent: string;
  id: string;
  /** The agent's own title, else the first user text, cut; '' when there is neither. */
  title: string;
  /** Its project directory, when known. */
  cwd?: string;
  /** RFC 3339. */
  started?: string;
  updated: string;
  /** User turns. */
  turns: number;
  /** Bytes of its files (a store session: of its data in the store). */
  bytes: number;
  /** Its files, or `<database>#<id>` for a store session. */
  files: string[];
  /** A subagent's session. */
  child?: boolean;
  /** Kept for `--grep`: how to read it. */
  readonly source: { kind: 'file'; match: SessionMatch } | { kind: 'store'; match: StoreSessionMatch };
}

/** A session's files as they are now: `<size>:<mtime>` of each, their total size and latest time. */
export interface Stamp {
  stamp: string;
  bytes: number;
  mtime: number;
}

/**
 * Bytes to describe below which this thread describes them all (a worker has its own start); at or above,
 * and for two sessions or more, worker threads describe them.
 */
const POOL_MIN_BYTES = 128 * 1024 * 1024;
/** Sessions a worker holds at a time: one in hand and the next, so that one long session holds up no others. */
const DESCRIBING_PER_WORKER = 2;

/**
 * The index entries of `sessions`, in order: on worker threads when there are enough bytes to read (`minBytes`;
 * tests set it, and the worker module), else here.
 */
export async function describeAll(sessions: readonly { match: SessionMatch; stat: Stamp }[],
  { minBytes = POOL_MIN_BYTES, workerUrl = new URL('./describe-worker.js', import.meta.url) } = {}): Promise<IndexEntry[]> {
  const bytes = sessions.reduce((sum, { stat }) => sum + stat.bytes, 0);
  const pool = FilePool.forFiles<DescribeTask, IndexEntry>(sessions.length, bytes, minBytes, workerUrl, DESCRIBING_PER_WORKER);
  const entries: IndexEntry[] = [];
  for await (const entry of eachInOrder(pool, sessions, ({ match, stat }) => ({ format: match.format, id: match.id, files: match.files, stamp: stat.stamp }),
    ({ match, stat }) => describeFile(match, stat.stamp))) entries.push(entry);
  return entries;
}

/** `<size>:<mtime>` of each file, and the total size and latest time; undefined when one cannot be stat'ed. */
export function stampOf(files: readonly string[]): Stamp | undefined {
  const parts: string[] = [];
  let bytes = 0;
  let mtime = 0;
  for (const file of files) {
    try {
      const stat = statSync(file);
      parts.push(`${stat.size}:${stat.mtimeMs}`);
      bytes += stat.size;
      mtime = Math.max(mtime, stat.mtimeMs);
    } catch {
      return undefined;
    }
  }
  return { stamp: parts.join(','), bytes, mtime };
}

function row(entry: IndexEntry, rest: Omit<SessionRow, 'agent' | 'id' | 'title' | 'turns' | 'cwd' | 'started'>): SessionRow {
  return {
    agent: entry.format, id: entry.id, title: entry.title ?? entry.firstUser ?? '',
    ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    ...(entry.started !== undefined ? { started: entry.started } : {}),
    ...rest, turns: entry.turns,
  };
}

/**
 * What a listing may leave out before describing a session: by its id, by its last update (ms), by its bytes
 * (a session file that does not pass the `--grep` prefilter of `forms`: passing.ts; store sessions are kept, their
 * text is searched in their store). `cwd`: a session file the index already describes is left out before the
 * prefilter when its project directory is not wanted (the caller still filters the rows by it).
 */
export interface Wanted {
  id?: (id: string) => boolean;
  since?: number;
  forms?: readonly string[];
  cwd?: (cwd: string | undefined) => boolean;
}

/**
 * Every session of the agents `formats` (all when undefined), newest first (by last update), described from the
 * index where it holds; those `wanted` turns down are left out undescribed (their index entries kept).
 * `problems` gets one line per store that could not be read.
 */
export async function listSessions(context: LookupContext & { tmpdir: string; stores: OpenStores }, index: SessionIndex, formats: readonly string[] | undefined,
  problem: (line: string) => void, wanted: Wanted = {}): Promise<SessionRow[]> {
  const found = await everySession(context, formats, index.storeListings, context.stores);
  for (const line of found.problems) problem(line);
  const rows: SessionRow[] = [];
  let listed: { match: SessionMatch; key: string; stat: Stamp; entry: IndexEntry | undefined }[] = [];
  for (const match of found.files) {
    const key = match.files.join('\0');
    if (wanted.id !== undefined && !wanted.id(match.id)) {
      index.keep(key);
      continue;
    }
    const stat = stampOf(match.files);
    if (stat === undefined) continue;
    if (wanted.since !== undefined && stat.mtime < wanted.since) {
      index.keep(key);
      continue;
    }
    listed.push({ match, key, stat, entry: index.get(key, stat.stamp) });
  }
  if (wanted.forms !== undefined) {
    const { cwd } = wanted;
    if (cwd !== undefined) listed = listed.filter(({ entry }) => entry === undefined || cwd(entry.cwd));
    const passing = new Set<number>();
    for await (const i of passingFiles(listed.map(({ match, stat }) => ({ path: match.files[0]!, bytes: stat.bytes })), wanted.forms)) passing.add(i);
    listed = listed.filter((_, i) => passing.has(i));
  }
  const unknown = listed.filter((session) => session.entry === undefined);
  const described = await describeAll(unknown);
  unknown.forEach((session, i) => {
    session.entry = described[i]!;
    index.set(session.key, session.entry);
  });
  for (const { match, stat, entry } of listed) {
    rows.push(row(entry!, { updated: new Date(stat.mtime).toISOString(), bytes: stat.bytes, files: [...match.files], source: { kind: 'file', match } }));
  }
  const stores = found.stores.filter((m) => {
    const keep = (wanted.id === undefined || wanted.id(m.id)) && (wanted.since === undefined || m.session.updated >= wanted.since);
    if (!keep) index.keep(`${m.db}#${m.id}`);
    return keep;
  });
  await storeRows(context, stores, index, rows, problem);
  return rows.sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
}

/** The rows of store sessions: the store's own title, project and times; turns read (once per change) from its lines. */
async function storeRows(context: { stores: OpenStores }, stores: readonly StoreSessionMatch[],
  index: SessionIndex, rows: SessionRow[], problem: (line: string) => void): Promise<void> {
  const keyOf = (m: StoreSessionMatch) => `${m.db}#${m.id}`;
  const stampOfStore = (m: StoreSessionMatch) => `${m.session.bytes}:${m.session.updated}`;
  const missing = stores.filter((m) => index.get(keyOf(m), stampOfStore(m)) === undefined);
  for (const db of new Set(missing.map((m) => m.db))) {
    const ofDb = missing.filter((m) => m.db === db);
    const agent = ofDb[0]!.agent;
    try {
      const opened = await context.stores.open(agent, db);
      const wanted = opened.sessions.filter((s) => ofDb.some((m) => m.id === s.id));
      for await (const { session, lines } of opened.read(wanted)) {
        const m = ofDb.find((x) => x.id === session.id)!;
        const conversation = await conversationFacts((sink) => storeEvents(lines, agent.store.input, keyOf(m), sink));
        index.set(keyOf(m), {
          format: m.format, id: m.id, stamp: stampOfStore(m),
          ...(m.session.title !== undefined && m.session.title !== '' ? { title: cutText(m.session.title) } : {}),
          ...(m.session.cwd !== undefined ? { cwd: m.session.cwd } : {}),
          ...(m.session.created !== undefined ? { started: new Date(m.session.created).toISOString() } : {}),
          ...conversation,
        });
      }
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      problem(`${db}: ${error.message}`);
    }
  }
  for (const m of stores) {
    const entry = index.get(keyOf(m), stampOfStore(m)) ?? {
      format: m.format, id: m.id, stamp: stampOfStore(m), turns: 0, unread: true as const,
      ...(m.session.title !== undefined ? { title: cutText(m.session.title) } : {}),
      ...(m.session.cwd !== undefined ? { cwd: m.session.cwd } : {}),
    };
    rows.push(row(entry, {
      updated: new Date(m.session.updated).toISOString(), bytes: m.session.bytes, files: [`${m.db}#${m.id}`],
      ...(m.session.child ? { child: true } : {}), source: { kind: 'store', match: m },
    }));
  }
}
