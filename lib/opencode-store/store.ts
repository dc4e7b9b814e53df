// The CLI's own store as input: its SQLite database (`opencode.db`, `kilo.db`), read through its own program
// (`<program> db ...`; Node 20 has no SQLite of its own), a small store listed and read with one start of it.
// The database is first copied into a private temporary directory, so the CLI (which checkpoints its WAL and
// may migrate an older schema when it starts) only ever opens the copy. Each session comes out as the export
// lines the writer's journal holds: a header `{"info": {id, directory}, "messages": []}`, then one message
// `{info, parts}` per line, in the order the CLI sends them to the model; the export reader (export-reader.ts)
// maps them.
import { closeSync, copyFileSync, openSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { makeTempDir, removeTempDir } from '../util/temp-dirs.js';
import { StoreError, type OpenedStore, type SessionStore, type StoreSession } from '../session/types.js';
import { findProgram } from './binary.js';
import { isObject } from '../util/is-object.js';
import type { Flavour } from './flavour.js';
import { defaultDataDir } from './harness.js';

type Env = Record<string, string | undefined>;

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** The shape of a session id of OpenCode's layout: only such ids reach a query or an argv. */
export const SESSION_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
/** A session id, or a prefix of one of 8 characters or more (`read ses_dbd5`). */
const SESSION_ID_PREFIX = /^ses_[0-9A-Za-z]{4,26}$/;
/** Bytes of message and part data one query returns at most (a longer session is a query of its own). */
const BATCH_BYTES = 16 * 1024 * 1024;
/** Sessions one query names at most (the ids are one argv element: well under Linux's 128 KiB). */
const BATCH_SESSIONS = 500;


/** Whether the file at `path` starts like a SQLite database. */
export function isSqliteFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Every flavour a store was made for (layoutStore): which CLI a database file's name says it is. */
const FLAVOURS: Flavour[] = [];

/** Whether `name` is the file name of `flavour`'s database: `<name>.db`, or a release channel's `<name>-<channel>.db`. */
function namedFor(flavour: Flavour, name: string): boolean {
  const stem = flavour.databaseFile.replace(/\.db$/, '');
  return name === flavour.databaseFile || (name.startsWith(`${stem}-`) && name.endsWith('.db'));
}

/**
 * The database of `flavour`'s store at `path`: the file itself when it is a SQLite database named as that CLI's
 * (or of any name no flavour's database has, for the flavour that claims other names), or its database file in
 * it when `path` is a directory that holds one; else undefined.
 */
export function locateStore(flavour: Flavour, path: string): string | undefined {
  try {
    const st = statSync(path);
    if (st.isDirectory()) {
      const db = join(path, flavour.databaseFile);
      return statSync(db).isFile() && isSqliteFile(db) ? db : undefined;
    }
    const name = basename(path);
    const owner = FLAVOURS.find((f) => namedFor(f, name));
    const ours = owner !== undefined ? owner.format === flavour.format : flavour.claimsOtherNames;
    return ours && st.isFile() && isSqliteFile(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The database `asyncai-log read <ses_id>` looks in: under `root` (`--session-dir <format>=<dir>`), its
 * database file; with no root, where the CLI looks: its database variable (`OPENCODE_DB`: absolute, or relative
 * to the data directory), else `$XDG_DATA_HOME/<dirName>/<database file>`.
 */
export function storeDatabase(flavour: Flavour, root: string | undefined, env: Env, homedir: string): string {
  if (root !== undefined) return join(root, flavour.databaseFile);
  const data = defaultDataDir(flavour, env, homedir);
  const named = env[flavour.databaseVariable];
  if (named !== undefined && named !== '') return named.startsWith('/') ? named : join(data, named);
  return join(data, flavour.databaseFile);
}

/** `id` as an SQL string literal; only ids of the checked shape get here. */
function literal(id: string): string {
  if (!SESSION_ID.test(id)) throw new StoreError(`not a session id of OpenCode's layout: ${JSON.stringify(id)}`);
  return `'${id}'`;
}

/** A session's data bytes: of its messages and parts. */
const SESSION_BYTES = '(SELECT coalesce(sum(length(m.data)), 0) FROM message m WHERE m.session_id = s.id) '
  + '+ (SELECT coalesce(sum(length(p.data)), 0) FROM part p WHERE p.session_id = s.id)';

/** A message's export line (export-reader.ts): its info with its ids, its parts in id order. */
const MESSAGE_LINE = `json_object('info', json_set(m.data, '$.id', m.id, '$.sessionID', m.session_id), 'parts',
    (SELECT json_group_array(json_set(p.data, '$.id', p.id, '$.sessionID', p.session_id, '$.messageID', p.message_id))
     FROM (SELECT * FROM part p WHERE p.message_id = m.id AND json_valid(p.data) ORDER BY p.id) p))`;

/** A session's export header line. */
const HEADER_LINE = "json_object('info', json_object('id', s.id, 'directory', s.directory), 'messages', json('[]'))";

/**
 * The query a store is opened with: each session as a line `{"session": {id, updated, child, title, directory,
 * created, bytes}}` (by creation time, then id), and, when the data of all of them together is `smallBytes` or
 * less, every session's export lines after them (as exportQuery gives them), so that a small store is listed
 * and read with one start of its program. TSV of one column, as exportQuery's.
 */
const openQuery = (smallBytes: number) => `WITH listed AS (SELECT s.*, ${SESSION_BYTES} AS bytes FROM session s),
small AS (SELECT coalesce(sum(bytes), 0) <= ${Math.floor(smallBytes)} AS yes FROM listed)
SELECT line FROM (
SELECT 0 AS g, s.time_created AS a, s.id AS b, 0 AS c, '' AS d,
  json_object('session', json_object('id', s.id, 'updated', s.time_updated, 'child', json(CASE WHEN s.parent_id IS NULL THEN 'false' ELSE 'true' END),
    'title', s.title, 'directory', s.directory, 'created', s.time_created, 'bytes', s.bytes)) AS line
FROM listed s
UNION ALL
SELECT 1, s.id, 0, 0, '', ${HEADER_LINE} FROM session s, small WHERE small.yes
UNION ALL
SELECT 1, m.session_id, 1, m.time_created, m.id, ${MESSAGE_LINE}
FROM message m, small WHERE small.yes AND json_valid(m.data)
) ORDER BY g, a, b, c, d`;

/**
 * The lines of the sessions `ids`, by session, header first, then messages in `time_created` then id order
 * (the order the CLI sends them), each message's parts in id order. Rows whose data is not JSON are left out.
 * Printed as TSV of one column: each row is one line, as JSON puts no raw tab or newline in it.
 */
function exportQuery(ids: readonly string[]): string {
  const list = ids.map(literal).join(', ');
  return `SELECT line FROM (
SELECT s.id AS sid, 0 AS k, 0 AS t, '' AS mid, ${HEADER_LINE} AS line
FROM session s WHERE s.id IN (${list})
UNION ALL
SELECT m.session_id, 1, m.time_created, m.id, ${MESSAGE_LINE}
FROM message m WHERE m.session_id IN (${list}) AND json_valid(m.data)
) ORDER BY sid, k, t, mid`;
}

/**
 * Export lines to `byId`, each after the header of its session (`{"info":{"id":...,"directory":...},"messages":[]}`;
 * the lines of a session not in `byId`, or whose id is not of the checked shape, are left out); returns the sink
 * to give each line to.
 */
function exportSink(byId: Map<string, string[]>): (line: string) => void {
  let current: string[] | undefined;
  return (line) => {
    if (line.startsWith('{"info":{"id":') && line.endsWith('"messages":[]}')) {
      const id = /^\{"info":\{"id":"(ses_[0-9A-Za-z]+)","directory":/.exec(line)?.[1];
      current = id !== undefined ? byId.get(id) : undefined;
    }
    current?.push(line);
  };
}

/** A session as the open query lists it, or undefined when its id is not of the checked shape. */
function listedSession(row: unknown): StoreSession | undefined {
  if (!isObject(row) || typeof row.id !== 'string' || !SESSION_ID.test(row.id)) return undefined;
  return {
    id: row.id, updated: Number(row.updated) || 0, child: row.child === true, bytes: Number(row.bytes) || 0,
    ...(typeof row.title === 'string' ? { title: row.title } : {}),
    ...(typeof row.directory === 'string' ? { cwd: row.directory } : {}),
    ...(Number(row.created) > 0 ? { created: Number(row.created) } : {}),
  };
}

/** Copy `db` (and its WAL) into a new private directory, never opening the original for writing. */
function copyDatabase(flavour: Flavour, db: string, tmpdir: string): { dir: string; copy: string } {
  const dir = makeTempDir(tmpdir, `asyncai-log-${flavour.program}-`);
  const copy = join(dir, flavour.databaseFile);
  const stamp = (path: string) => {
    try {
      const st = statSync(path);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  // The CLI may checkpoint while we copy: the WAL first, then the file, again until neither moved meanwhile.
  for (let attempt = 0; ; attempt += 1) {
    const before = `${stamp(db)} ${stamp(`${db}-wal`)}`;
    try {
      if (stamp(`${db}-wal`) !== '-') copyFileSync(`${db}-wal`, `${copy}-wal`);
      copyFileSync(db, copy);
    } catch (error) {
      throw new StoreError(`cannot copy the database: ${(error as Error).message}`);
    }
    if (`${stamp(db)} ${stamp(`${db}-wal`)}` === before || attempt >= 3) return { dir, copy };
  }
}

export interface StoreOptions {
  env: Env;
  /** Where the private copy goes. */
  tmpdir: string;
  /** A store of this many bytes of data or fewer is read with its list, in one query (default BATCH_BYTES; tests set it). */
  smallBytes?: number;
}

/** A program of a flavour, and the copy of the database it reads. */
interface Reading {
  flavour: Flavour;
  program: string;
  env: Env;
  copy: string;
  /** The copy's directory, the program's working directory. */
  cwd: string;
}

/** Run `<program> <args>` on the copy, each stdout line to `onLine`; throws one line on failure. */
function query({ flavour, program, env, copy, cwd }: Reading, args: string[], onLine: (line: string) => void): Promise<void> {
  const runEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) runEnv[key] = value;
  runEnv[flavour.databaseVariable] = copy;
  return new Promise((resolve, reject) => {
    // From the copy's directory: the CLI run in a git directory moves sessions between projects.
    const child = process.getBuiltinModule('node:child_process').spawn(program, args, { cwd, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => { stderr = (stderr + text).slice(-4096); });
    const lines = process.getBuiltinModule('node:readline').createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', onLine);
    child.on('error', (error) => reject(new StoreError(`${flavour.program}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else {
        const said = stderr.trim().split('\n').pop() ?? '';
        reject(new StoreError(`${flavour.program} db exited with ${code ?? signal}${said !== '' ? `: ${said}` : ''}`));
      }
    });
  });
}

/** Open `flavour`'s store whose database is `db`: copied, listed. Throws StoreError (one line) when it cannot be. */
export async function openStore(flavour: Flavour, db: string, options: StoreOptions): Promise<OpenedStore> {
  const program = findProgram(flavour, options.env);
  if (program === undefined) {
    throw new StoreError(`reading ${flavour.name}'s database needs the ${flavour.program} program: install it (${flavour.install}) `
      + `or name it with ${flavour.programVariable}=<path>`);
  }
  const { dir, copy } = copyDatabase(flavour, db, options.tmpdir);
  const close = () => removeTempDir(dir);
  const reading: Reading = { flavour, program, env: options.env, copy, cwd: dir };
  try {
    const sessions: StoreSession[] = [];
    let odd = 0;
    /** Every session's export lines, when the store was small enough to give them with the list (after it). */
    const given = new Map<string, string[]>();
    const exported = exportSink(given);
    let header = true;
    let lines = false;
    let unreadable: string | undefined;
    await query(reading, ['db', openQuery(options.smallBytes ?? BATCH_BYTES)], (line) => {
      if (header) {
        header = false; // the TSV column name
        return;
      }
      if (!line.startsWith('{"session":')) {
        lines = true;
        exported(line);
        return;
      }
      let session: StoreSession | undefined;
      try {
        session = listedSession((JSON.parse(line) as { session: unknown }).session);
      } catch {
        unreadable ??= line;
        return;
      }
      if (session === undefined) {
        odd += 1;
        return;
      }
      sessions.push(session);
      given.set(session.id, []);
    });
    if (unreadable !== undefined) throw new StoreError(`${flavour.program} db printed no session list: ${unreadable.slice(0, 200)}`);
    const read = lines
      ? async function* (wanted: readonly StoreSession[]) { for (const session of wanted) yield { session, lines: given.get(session.id) ?? [] }; }
      : (wanted: readonly StoreSession[]) => readSessions(reading, wanted);
    return { sessions, odd, read, close };
  } catch (error) {
    await close();
    if (error instanceof StoreError && /no such table/.test(error.message)) {
      throw new StoreError(`${basename(db)} is a SQLite database, but not ${flavour.name}'s (it has no session table)`);
    }
    throw error;
  }
}

/** The export lines of each of `wanted` (in that order), a query of up to BATCH_BYTES of data at a time. */
async function* readSessions(reading: Reading, wanted: readonly StoreSession[]):
  AsyncGenerator<{ session: StoreSession; lines: string[] }> {
  for (let start = 0; start < wanted.length;) {
    // A batch: sessions up to BATCH_BYTES of data together (at least one).
    let end = start;
    let bytes = 0;
    while (end < wanted.length && end - start < BATCH_SESSIONS && (end === start || bytes + wanted[end]!.bytes <= BATCH_BYTES)) {
      bytes += wanted[end]!.bytes;
      end += 1;
    }
    const batch = wanted.slice(start, end);
    const byId = new Map<string, string[]>(batch.map((s) => [s.id, []]));
    const exported = exportSink(byId);
    let header = true;
    await query(reading, ['db', exportQuery(batch.map((s) => s.id))], (line) => {
      if (header) header = false; // the TSV column name
      else exported(line);
    });
    for (const session of batch) yield { session, lines: byId.get(session.id)! };
    start = end;
  }
}

/** The store of `flavour`: its database as input to `read` and `convert`. */
export function layoutStore(flavour: Flavour): SessionStore {
  FLAVOURS.push(flavour);
  return {
    name: flavour.name,
    input: flavour.exportInput,
    locate: (path) => locateStore(flavour, path),
    isSessionId: (value) => SESSION_ID_PREFIX.test(value),
    database: (root, env, homedir) => storeDatabase(flavour, root, env, homedir),
    open: (db, options) => openStore(flavour, db, options),
    hint: `${flavour.name}'s store: asyncai-log convert <its directory>`,
  };
}
