// `read <id>` and `convert <id>`: a session id, or a prefix of 8 characters or more of one, looked up under every
// registered agent's root (`--session-dir <format>=<dir>`, else the agent's default, its environment variables
// honoured) through each agent's `Agent.sessions`. A whole id that names a session is that one, whatever longer
// ids it starts; otherwise the sessions whose id starts with it, from every agent, are the matches.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AGENTS, SESSION_STORES, type StoreAgent } from './index.js';
import { StoreError, type Agent, type OpenedStore, type StoreSession } from '../session/types.js';

/** One session an id names. */
export interface SessionMatch {
  /** Its agent's `--session-format`. */
  readonly format: string;
  readonly agent: Agent;
  /** Its whole id. */
  readonly id: string;
  /** Its files, the one to read first first. */
  readonly files: readonly string[];
}

/** Where lookups start: the run's `--session-dir` roots (relative to `processCwd`), environment and home. */
export interface LookupContext {
  sessionDirs: Record<string, string>;
  env: Record<string, string | undefined>;
  homedir: string;
  processCwd: string;
}

/** Whether some agent's sessions may have `value` as an id or id prefix (else it is a path). */
export function mayBeSessionId(value: string): boolean {
  return AGENTS.some((agent) => agent.sessions?.matches(value) === true);
}

/**
 * The store a store session id (`ses_...`) is looked up in, and its database: of the stores whose ids have that
 * shape (OpenCode's and Kilo's share it), the one named by `--session-dir <format>=`, else the first whose
 * database exists, else the first. Undefined when no store's ids have that shape.
 */
export function storeForId(value: string, context: LookupContext): { agent: StoreAgent; db: string } | undefined {
  const candidates = SESSION_STORES.filter((agent) => agent.store.isSessionId(value)).map((agent) => {
    const root = context.sessionDirs[agent.format];
    const db = resolve(context.processCwd, agent.store.database(root === undefined ? undefined : resolve(context.processCwd, root), context.env, context.homedir));
    return { agent, db, named: root !== undefined };
  });
  const chosen = candidates.find((c) => c.named) ?? candidates.find((c) => existsSync(c.db)) ?? candidates[0];
  return chosen === undefined ? undefined : { agent: chosen.agent, db: chosen.db };
}

/** The sessions of a store `id` names: the one of that id, else those whose id starts with it. */
export function storeSessionsById<T extends { id: string }>(sessions: readonly T[], id: string): T[] {
  const whole = sessions.filter((s) => s.id === id);
  return whole.length > 0 ? whole : sessions.filter((s) => s.id.startsWith(id));
}

/** The sessions `value` names, and the directories looked in. */
export async function findSessionsById(value: string, context: LookupContext): Promise<{ matches: SessionMatch[]; searched: string[] }> {
  const matches: SessionMatch[] = [];
  const searched: string[] = [];
  for (const agent of AGENTS) {
    const lookup = agent.sessions;
    if (lookup === undefined || !lookup.matches(value)) continue;
    const format = agent.harness.format;
    const root = resolve(context.processCwd, context.sessionDirs[format] ?? agent.harness.defaultRoot(context.env, context.homedir));
    searched.push(lookup.sessionsDir(root));
    for (const found of await lookup.find(root, value)) matches.push({ format, agent, id: found.id, files: found.files });
  }
  const whole = matches.filter((match) => match.id.toLowerCase() === value.toLowerCase());
  return { matches: whole.length > 0 ? whole : matches, searched };
}

/**
 * What is said (after `<value>: `) when a value names no session, or several (each named with its format):
 * undefined when it names one. `where` says where none was found (`under <dir>, <dir>`, `in <database>`).
 */
export function lookupProblem(matches: readonly { id: string; format: string }[], where: string): string | undefined {
  if (matches.length === 0) return `no session of this id ${where}`;
  if (matches.length === 1) return undefined;
  const shown = matches.slice(0, 10).map((match) => `${match.id} (${match.format})`).join(', ');
  return `ambiguous: ${matches.length} sessions match: ${shown}${matches.length > 10 ? ', ...' : ''}`;
}

/** A session of a store, as every-session listings give it: read it through `agent.store.open(db)`. */
export interface StoreSessionMatch {
  readonly format: string;
  readonly agent: StoreAgent;
  readonly id: string;
  /** The store's database. */
  readonly db: string;
  readonly session: StoreSession;
}

/**
 * Stores' session lists kept between runs (the sessions index): a database's sessions, given while its files
 * (the database and its `-wal` and `-shm`) have the sizes and modification times of `stamp`.
 */
export interface StoreListings {
  get(db: string, stamp: string): readonly StoreSession[] | undefined;
  set(db: string, format: string, stamp: string, sessions: readonly StoreSession[]): void;
}

/** `<size>:<mtime ms>` of a store's database, its `-wal` and its `-shm` (`-` for one missing). */
export function databaseStamp(db: string): string {
  return [db, `${db}-wal`, `${db}-shm`].map((path) => {
    try {
      const stat = statSync(path);
      return `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return '-';
    }
  }).join(',');
}

/**
 * The stores one run reads, each database opened once (the first time it is asked for: a small store's sessions
 * come with its list) and kept for the run's later reads of it; `close` closes them all.
 */
export class OpenStores {
  private readonly opened = new Map<string, Promise<OpenedStore>>();

  constructor(private readonly options: { env: Record<string, string | undefined>; tmpdir: string }) {}

  /** The store of `db` (a failure to open it is the same StoreError each time). */
  open(agent: StoreAgent, db: string): Promise<OpenedStore> {
    let opened = this.opened.get(db);
    if (opened === undefined) {
      opened = agent.store.open(db, { env: this.options.env, tmpdir: this.options.tmpdir });
      this.opened.set(db, opened);
    }
    return opened;
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    for (const opened of all) await (await opened.catch(() => undefined))?.close();
  }
}

/** What `everySession` found: sessions in files, sessions in stores, and the stores that could not be opened. */
export interface EverySession {
  readonly files: SessionMatch[];
  readonly stores: StoreSessionMatch[];
  /** One line per store that exists but could not be read (`<database>: <why>`). */
  readonly problems: string[];
}

/**
 * Every session of every registered agent on this machine: each agent's root (`--session-dir <format>=`, else
 * its default, its environment variables honoured), in registry order. `formats` keeps only those agents. A
 * store is listed (opened through `stores`, else opened and closed again) only when its database exists, and
 * not even then when `listings` holds its list for the database's files as they are; a root that does not
 * exist has none.
 */
export async function everySession(context: LookupContext & { tmpdir: string }, formats?: readonly string[], listings?: StoreListings,
  stores?: OpenStores): Promise<EverySession> {
  const wanted = (format: string) => formats === undefined || formats.includes(format);
  const files: SessionMatch[] = [];
  for (const agent of AGENTS) {
    const format = agent.harness.format;
    if (agent.sessions === undefined || !wanted(format)) continue;
    const root = resolve(context.processCwd, context.sessionDirs[format] ?? agent.harness.defaultRoot(context.env, context.homedir));
    for (const found of await agent.sessions.find(root, '')) files.push({ format, agent, id: found.id, files: found.files });
  }
  const inStores: StoreSessionMatch[] = [];
  const problems: string[] = [];
  const opener = stores ?? new OpenStores(context);
  try {
    for (const agent of SESSION_STORES) {
      if (!wanted(agent.format)) continue;
      const problem = await listStore(agent, opener, context, inStores, listings);
      if (problem !== undefined) problems.push(problem);
    }
  } finally {
    if (stores === undefined) await opener.close();
  }
  return { files, stores: inStores, problems };
}

/** The sessions of `agent`'s store to `into` (from `listings` while its files are unchanged); a line when it cannot be read. */
async function listStore(agent: StoreAgent, stores: OpenStores, context: LookupContext, into: StoreSessionMatch[],
  listings: StoreListings | undefined): Promise<string | undefined> {
  const root = context.sessionDirs[agent.format];
  const db = resolve(context.processCwd, agent.store.database(root === undefined ? undefined : resolve(context.processCwd, root), context.env, context.homedir));
  if (!existsSync(db)) return undefined;
  const stamp = listings === undefined ? '' : databaseStamp(db);
  const kept = listings?.get(db, stamp);
  try {
    const sessions = kept ?? (await stores.open(agent, db)).sessions;
    for (const session of sessions) into.push({ format: agent.format, agent, id: session.id, db, session });
    if (kept === undefined) listings?.set(db, agent.format, stamp, sessions);
    return undefined;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return `${db}: ${error.message}`;
  }
}
