// The sessions index: what `sessions` learned of each session file (or store session) that only a whole read
// tells (its turns, its first user text) and what its head and end said, keyed by the session's files and
// stamped with their sizes and modification times, and each store's list of sessions, stamped with its
// database files', so that a listing of unchanged sessions only lists directories and stats files (and runs
// no store's program). One JSON file, `$XDG_CACHE_HOME/asyncai-log/sessions-index.json` (default
// `~/.cache/...`): directory 0700, file 0600, written whole to a new temporary file and renamed over the old
// one. A cache that is a symbolic link, not a regular file or directory, or not this user's is not read and
// not written (said once); a damaged one is read as empty. Shell completion reads its ids.
import { lstatSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readOwnFile, writeNewFile } from '../util/small-file.js';
import { isObject } from '../util/is-object.js';
import type { StoreListings } from '../agents/find-sessions.js';
import type { StoreSession } from '../session/types.js';

/** The cache file's format; another version is read as empty. */
const VERSION = 1;
export const CACHE_FILE = 'sessions-index.json';

/** What is kept of one session. */
export interface IndexEntry {
  format: string;
  id: string;
  /** The files' sizes and modification times (`<size>:<mtime ms>` each, `,` between): the entry holds while they do. */
  stamp: string;
  title?: string;
  firstUser?: string;
  cwd?: string;
  started?: string;
  turns: number;
  /** Set when the conversation could not be read (the other facts stand). */
  unread?: true;
}

/** A store's session list, as its database's files were (`stamp`, find-sessions.ts's databaseStamp). */
export interface StoreEntry {
  format: string;
  stamp: string;
  sessions: StoreSession[];
}

/** The cache directory: `$XDG_CACHE_HOME/asyncai-log` (an absolute one), else `~/.cache/asyncai-log`. */
export function cacheDir(env: Record<string, string | undefined>, homedir: string): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir, '.cache'), 'asyncai-log');
}

/** Why the thing at `path` is not ours to use, or undefined (missing, or ours of the kind asked). */
function notOurs(path: string, kind: 'file' | 'dir'): string | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (kind === 'dir' ? !stat.isDirectory() : !stat.isFile()) return kind === 'dir' ? 'not a directory' : 'not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return 'not this user\'s';
  if ((stat.mode & 0o022) !== 0) return 'writable by others';
  return undefined;
}

/**
 * The sessions index of one run: loaded once, updated as sessions are described (and stores listed), saved
 * once when changed.
 */
export class SessionIndex {
  private readonly entries = new Map<string, IndexEntry>();
  private readonly stores = new Map<string, StoreEntry>();
  private readonly seenStores = new Set<string>();
  private readonly seen = new Set<string>();
  private changed = false;
  /** Why the cache is not used (said once by the caller), or undefined. */
  readonly refused: string | undefined;
  private readonly file: string;

  /** `dir` undefined: no cache (`--no-cache`): nothing read, nothing written. */
  constructor(private readonly dir: string | undefined) {
    this.file = dir === undefined ? '' : join(dir, CACHE_FILE);
    if (dir === undefined) return;
    const why = notOurs(dir, 'dir') ?? notOurs(this.file, 'file');
    if (why !== undefined) {
      this.refused = `${notOurs(dir, 'dir') !== undefined ? dir : this.file}: ${why}, not used as the sessions cache`;
      return;
    }
    const { entries, stores } = readIndex(this.file);
    for (const [key, entry] of entries) this.entries.set(key, entry);
    for (const [db, entry] of stores) this.stores.set(db, entry);
  }

  /** Stores' session lists: a database's while its files are unchanged (everySession's `listings`). */
  readonly storeListings: StoreListings = {
    get: (db, stamp) => {
      this.seenStores.add(db);
      const entry = this.stores.get(db);
      return entry !== undefined && entry.stamp === stamp ? entry.sessions : undefined;
    },
    set: (db, format, stamp, sessions) => {
      this.seenStores.add(db);
      this.stores.set(db, { format, stamp, sessions: [...sessions] });
      this.changed = true;
    },
  };

  /** The entry of `key` if its stamp is `stamp` (the session unchanged). */
  get(key: string, stamp: string): IndexEntry | undefined {
    this.seen.add(key);
    const entry = this.entries.get(key);
    return entry !== undefined && entry.stamp === stamp ? entry : undefined;
  }

  /** `key` is still there, not looked at this run (not listed as asked): kept as it is. */
  keep(key: string): void {
    this.seen.add(key);
  }

  set(key: string, entry: IndexEntry): void {
    this.seen.add(key);
    this.entries.set(key, entry);
    this.changed = true;
  }

  /**
   * Write the index when it changed, leaving out the sessions of the agents listed (`formats`) that this run
   * did not see (gone); throws on a write failure (the caller says it, the listing stands).
   */
  save(formats: readonly string[]): void {
    if (this.dir === undefined || this.refused !== undefined) return;
    for (const [key, entry] of this.entries) {
      if (!this.seen.has(key) && formats.includes(entry.format)) {
        this.entries.delete(key);
        this.changed = true;
      }
    }
    for (const [db, entry] of this.stores) {
      if (!this.seenStores.has(db) && formats.includes(entry.format)) {
        this.stores.delete(db);
        this.changed = true;
      }
    }
    if (!this.changed) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const why = notOurs(this.dir, 'dir') ?? notOurs(this.file, 'file');
    if (why !== undefined) throw new Error(`${this.dir}: ${why}, not written`);
    const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    const text = JSON.stringify({ version: VERSION, entries: Object.fromEntries(this.entries), stores: Object.fromEntries(this.stores) });
    if (!writeNewFile(temp, text)) throw new Error(`${temp}: exists already, not written`);
    try {
      renameSync(temp, this.file);
    } catch (error) {
      try { unlinkSync(temp); } catch { /* gone */ }
      throw error;
    }
  }
}

/** The entries of the index file at `path` (none when it is missing, damaged, or of another version). */
export function readEntries(path: string): [string, IndexEntry][] {
  return readIndex(path).entries;
}

/** Whether `value` is a store session as a store lists it. */
function isStoreSession(value: unknown): value is StoreSession {
  return isObject(value) && typeof value.id === 'string' && typeof value.updated === 'number' && typeof value.child === 'boolean'
    && typeof value.bytes === 'number' && (value.title === undefined || typeof value.title === 'string')
    && (value.cwd === undefined || typeof value.cwd === 'string') && (value.created === undefined || typeof value.created === 'number');
}

/** The session entries and store lists of the index file at `path` (none when it is missing, damaged, or of another version). */
function readIndex(path: string): { entries: [string, IndexEntry][]; stores: [string, StoreEntry][] } {
  const none = { entries: [], stores: [] };
  let text: string | undefined;
  try {
    text = readOwnFile(path)?.text;
  } catch {
    return none;
  }
  if (text === undefined) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return none;
  }
  if (!isObject(parsed) || parsed.version !== VERSION || !isObject(parsed.entries)) return none;
  const entries = Object.entries(parsed.entries).filter((pair): pair is [string, IndexEntry] => {
    const e = pair[1];
    return isObject(e) && typeof e.format === 'string' && typeof e.id === 'string' && typeof e.stamp === 'string' && typeof e.turns === 'number';
  });
  const stores = Object.entries(isObject(parsed.stores) ? parsed.stores : {}).filter((pair): pair is [string, StoreEntry] => {
    const e = pair[1];
    return isObject(e) && typeof e.format === 'string' && typeof e.stamp === 'string' && Array.isArray(e.sessions) && e.sessions.every(isStoreSession);
  });
  return { entries, stores };
}

/**
 * The session ids the cache at `dir` holds (for shell completion), none when it is refused or missing: what the
 * last listing saw, read without a listing of its own.
 */
export function cachedIds(dir: string): string[] {
  const file = join(dir, CACHE_FILE);
  if (notOurs(dir, 'dir') !== undefined || notOurs(file, 'file') !== undefined) return [];
  return [...new Set(readEntries(file).map(([, entry]) => entry.id))].sort();
}
