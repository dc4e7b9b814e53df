// `read --usage --by session|day|month|model` (and `read --usage` of a directory or of nothing: every session on
// this machine): the sessions of any registered agent, each agent's token fields read into one shape
// (lib/usage.ts TokenCounts) through its `Agent.usage` hook, else through its input adapter's events, then
// grouped, with a total row: a table on a terminal, NDJSON otherwise. The files of agents that count their own
// entries are counted on worker threads (lib/session/file-pool.ts, usage-entries-worker.ts) while the others are
// read here.
import { createReadStream, lstatSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENTS, locateStore, type StoreAgent } from '../agents/index.js';
import { everySession, findSessionsById, lookupProblem, mayBeSessionId, OpenStores, storeForId, storeSessionsById } from '../agents/find-sessions.js';
import { findInputFormat } from '../agents/input-formats.js';
import type { InputFormat } from '../input/types.js';
import { FilePool } from '../session/file-pool.js';
import { defaultThreads } from '../util/thread-pool.js';
import { ReaderError, StoreError, type Agent, type ReaderWarning, type StoreSession, type UsageEntry } from '../session/types.js';
import { addTokenCounts, messagesApiTokens, zeroTokens, type TokenCounts, type Usage } from '../usage.js';
import { cannotBeRead } from '../util/fs-errors.js';
import { MAX_RECORD_BYTES } from '../util/record-limit.js';
import { readAdapted, sniffFile } from './any-input.js';
import { Output } from './output.js';
import { UsageError } from '../session/options.js';
import { diagnosticLine } from '../util/shown-text.js';
import { group, mergedEntries, ndjson, usageTable, type Counted, type UsageGroup } from './usage-rows.js';
import type { ReadCommandOptions as ReadOptions } from './read-options.js';
import type { EntriesReply, EntriesTask } from './usage-entries-task.js';

export { localDay, usageTable, USAGE_GROUPS, type UsageGroup, type UsageRow } from './usage-rows.js';

/** What the grouped usage needs of the read command's options. */
export type UsageByOptions = Pick<ReadOptions, 'inputs' | 'by' | 'sessionDirs' | 'env' | 'homedir' | 'processCwd' | 'tmpdir' | 'maxRecordBytes' | 'threads'>;
type ReadCommandOptions = UsageByOptions;

/** One session to count: a file of an agent, or a session of a store. */
type Unit =
  | { kind: 'file'; agent: Agent; id: string; path: string }
  | { kind: 'store'; agent: StoreAgent; db: string; only?: string };

/** Whether `read --usage` with these inputs groups (a `--by`, no input, or a directory among them). */
export function groupsUsage(options: Pick<ReadCommandOptions, 'inputs' | 'processCwd' | 'by'>): boolean {
  if (options.by !== undefined || options.inputs.length === 0) return true;
  return options.inputs.some((input) => input !== '-' && isDirectory(resolve(options.processCwd, input)));
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The agent whose own session files are of input format `name`. */
function agentOfInput(name: string | undefined): Agent | undefined {
  return name === undefined ? undefined : AGENTS.find((agent) => agent.sessionInput === name);
}

/** A session's id as its path says it: the last UUID in it, else the file's name without its extension. */
function idOfPath(path: string): string {
  const uuids = path.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi);
  if (uuids !== null) return uuids.at(-1)!;
  return (path.split(/[\\/]/).at(-1) ?? path).replace(/\.jsonl?$/, '');
}

/** Run `read --usage` grouped by `by`. Resolves with the exit code: 0, or 1 when any session could not be read. */
export async function runUsageBy(options: ReadCommandOptions, by: UsageGroup, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; table: boolean }): Promise<number> {
  if (options.inputs.includes('-')) throw new UsageError('--usage --by reads files, directories and session ids, not - (stdin)');
  let code = 0;
  const report = (message: string) => {
    io.stderr.write(diagnosticLine(message));
  };
  const fail = (message: string) => {
    report(message);
    code = 1;
  };
  // A store is opened once: listed and read with one start of its program when it is small.
  const stores = new OpenStores({ env: options.env, tmpdir: options.tmpdir ?? tmpdir() });
  let counted: Counted[];
  try {
    const units = await sessionsOf(options, stores, fail);
    counted = await countAll(units, options, stores, fail, (w) => report(`${w.file}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`));
  } finally {
    await stores.close();
  }
  const rows = group(counted, by);
  const total = zeroTokens();
  for (const row of rows) addTokenCounts(total, row.tokens);
  const text = io.table ? usageTable(by, rows, total) : ndjson(by, rows, total, counted.length);
  await new Output(io.stdout, report).writeText(text);
  return code;
}

/** The sessions the inputs name (every session on this machine when there is none), in order. */
async function sessionsOf(options: ReadCommandOptions, stores: OpenStores, fail: (message: string) => void): Promise<Unit[]> {
  const units: Unit[] = [];
  if (options.inputs.length === 0) {
    const found = await everySession({ ...options, tmpdir: options.tmpdir ?? tmpdir() }, undefined, undefined, stores);
    for (const problem of found.problems) fail(problem);
    for (const match of found.files) for (const path of match.files) units.push({ kind: 'file', agent: match.agent, id: match.id, path });
    // Every session of each store listed (its database read once).
    const dbs = new Set<string>();
    for (const s of found.stores) {
      if (dbs.has(s.db)) continue;
      dbs.add(s.db);
      units.push({ kind: 'store', agent: s.agent, db: s.db });
    }
    return units;
  }
  for (const input of options.inputs) {
    const keeper = storeForId(input, options);
    if (keeper !== undefined) {
      units.push({ kind: 'store', agent: keeper.agent, db: keeper.db, only: input });
      continue;
    }
    const path = resolve(options.processCwd, input);
    const store = locateStore(path);
    if (store !== undefined) {
      units.push({ kind: 'store', agent: store.agent, db: store.db });
      continue;
    }
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      if (mayBeSessionId(input)) {
        const found = await findSessionsById(input, options);
        const problem = lookupProblem(found.matches, `under ${found.searched.join(', ')}`);
        if (problem !== undefined) fail(`${input}: ${problem}`);
        else for (const file of found.matches[0]!.files) units.push({ kind: 'file', agent: found.matches[0]!.agent, id: found.matches[0]!.id, path: file });
      } else {
        fail(`${input}: ${cannotBeRead(error)}`);
      }
      continue;
    }
    if (stat.isDirectory()) {
      for (const file of filesUnder(path, fail)) {
        const unit = fileUnit(file, options, undefined);
        if (unit !== undefined) units.push(unit);
      }
      continue;
    }
    const unit = fileUnit(path, options, fail);
    if (unit !== undefined) units.push(unit);
  }
  return units;
}

/** The regular `.json` and `.jsonl` files under `dir`, symbolic links not followed, in name order (a directory that cannot be listed is said). */
function filesUnder(dir: string, fail: (message: string) => void): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    fail(`${dir}: ${cannotBeRead(error)}`);
    return out;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, fail));
    else if (entry.isFile() && /\.jsonl?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * The file at `path` as a session to count, its agent found from its content as `read` finds it; undefined
 * when it is no agent's session file (said through `fail` when given: a file named on the command line), or one
 * counted with another session's.
 */
function fileUnit(path: string, options: ReadCommandOptions, fail: ((message: string) => void) | undefined): Unit | undefined {
  const what = sniffFile(path, options.maxRecordBytes ?? MAX_RECORD_BYTES);
  if (what.kind === 'bad') {
    fail?.(what.message);
    return undefined;
  }
  const agent = what.kind === 'adapted' ? agentOfInput(what.format.name) : agentOfInput(what.input);
  if (agent === undefined) {
    fail?.(`${path}: not a session file of an agent asyncai-log reads`);
    return undefined;
  }
  if (agent.usage?.countedWithSession?.(path) === true) return undefined;
  return { kind: 'file', agent, id: idOfPath(path), path };
}

/**
 * Without `--threads`, bytes of files to count on workers below which this thread counts them all (a worker has
 * its own start), for an agent that does not say (SessionUsage.workerMinBytes).
 */
const POOL_MIN_BYTES = 128 * 1024 * 1024;

/**
 * Count every unit, in order: the files of agents that count their own entries on worker threads when there are
 * several and enough bytes of them, or `--threads` says how many workers, the rest here meanwhile.
 */
async function countAll(units: Unit[], options: ReadCommandOptions, stores: OpenStores, fail: (message: string) => void,
  warn: (w: ReaderWarning) => void): Promise<Counted[]> {
  const own = units.filter((unit): unit is Unit & { kind: 'file' } => unit.kind === 'file' && unit.agent.usage?.entries !== undefined);
  /** The files' bytes, each in parts of its agent's workerMinBytes: the pool pays from 1. */
  let share = 0;
  for (const unit of own) {
    try {
      share += lstatSync(unit.path).size / (unit.agent.usage?.workerMinBytes ?? POOL_MIN_BYTES);
    } catch {
      // Said when it is counted.
    }
  }
  const size = Math.min(options.threads ?? defaultThreads(), own.length);
  const pool = own.length >= 2 && (options.threads !== undefined || share >= 1)
    ? FilePool.start<EntriesTask, EntriesReply>(size, new URL('./usage-entries-worker.js', import.meta.url)) : undefined;
  const limits = options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {};
  try {
    const pending = new Map<Unit, Promise<Counted[]>>();
    if (pool !== undefined) {
      for (const unit of own) {
        pending.set(unit, pool.run({ format: unit.agent.harness.format, path: unit.path, ...limits }).then((reply) => {
          if (reply === undefined) return countFile(unit, options, fail, warn);
          for (const w of reply.warnings) warn(w);
          if ('error' in reply) {
            fail(reply.error);
            return [];
          }
          return [{ agent: unit.agent.harness.format, id: unit.id, path: unit.path, entries: reply.entries }];
        }));
      }
    }
    const counted: Counted[] = [];
    for (const unit of units) {
      const onWorker = pending.get(unit);
      if (onWorker !== undefined) counted.push(...await onWorker);
      else if (unit.kind === 'store') counted.push(...await countStore(unit, options, stores, fail));
      else counted.push(...await countFile(unit, options, fail, warn));
    }
    return counted;
  } finally {
    pool?.close();
  }
}

/** One file's entries: its agent's own count, else its events' usage through its input adapter. */
async function countFile(unit: Unit & { kind: 'file' }, options: ReadCommandOptions, fail: (message: string) => void, warn: (w: ReaderWarning) => void): Promise<Counted[]> {
  const { agent, path } = unit;
  const limits = options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {};
  try {
    let entries: UsageEntry[];
    if (agent.usage?.entries !== undefined) {
      entries = await agent.usage.entries(path, { ...limits, onWarning: warn });
    } else {
      const format = findInputFormat(agent.sessionInput ?? '');
      if (format === undefined) return [];
      entries = await eventEntries(createReadStream(path), format, agent, path, options, (message) => warn({ file: path, message }));
    }
    // Merged as a worker merges them: the same rows, far fewer objects kept until the end.
    return [{ agent: agent.harness.format, id: unit.id, path, entries: mergedEntries(entries) }];
  } catch (error) {
    if (error instanceof ReaderError) fail(error.message);
    else if (typeof (error as NodeJS.ErrnoException).syscall === 'string') fail(`${path}: ${cannotBeRead(error)}`);
    else throw error;
    return [];
  }
}

/** The usage of the events a session's lines give through its agent's input adapter. */
async function eventEntries(chunks: AsyncIterable<Buffer | string> | Iterable<string>, format: InputFormat, agent: Agent, name: string, options: ReadCommandOptions, report: (message: string) => void): Promise<UsageEntry[]> {
  const entries: UsageEntry[] = [];
  const tokensOf = (usage: Usage) => agent.usage?.tokens?.(usage) ?? messagesApiTokens(usage);
  const bytes = (async function* () {
    for await (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  })();
  await readAdapted(bytes, format, {
    name, events: false, maxLineBytes: options.maxRecordBytes ?? MAX_RECORD_BYTES,
    report: (message) => report(message.startsWith(`${name}:`) ? message.slice(name.length + 1).replace(/^ /, '') : message),
    closed: () => false,
    write: async (events) => {
      for (const event of events) {
        if ((event.type !== 'assistant' && event.type !== 'tool_call') || event.usage === undefined) continue;
        const tokens = tokensOf(event.usage);
        if (tokens !== undefined) entries.push({ timestamp: event.timestamp, model: event.model, tokens });
      }
    },
  });
  return entries;
}

/** The sessions of a store unit (every session when it names none), each through the store's input adapter. */
async function countStore(unit: Unit & { kind: 'store' }, options: ReadCommandOptions, stores: OpenStores, fail: (message: string) => void): Promise<Counted[]> {
  const { agent, db } = unit;
  const format = findInputFormat(agent.store.input);
  const owner = AGENTS.find((a) => a.harness.format === agent.format);
  if (format === undefined || owner === undefined) return [];
  let opened;
  try {
    opened = await stores.open(agent, db);
  } catch (error) {
    if (!(error instanceof StoreError) && typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
    fail(`${db}: ${error instanceof StoreError ? error.message : cannotBeRead(error)}`);
    return [];
  }
  const counted: Counted[] = [];
  try {
    if (opened.odd > 0) fail(`${db}: ${opened.odd} session${opened.odd === 1 ? '' : 's'} whose id is not of ${agent.store.name}'s shape, not read`);
    let wanted: StoreSession[] = [...opened.sessions];
    if (unit.only !== undefined) {
      wanted = storeSessionsById(opened.sessions, unit.only);
      const problem = lookupProblem(wanted.map((s) => ({ id: s.id, format: agent.format })), `in ${db}`);
      if (problem !== undefined) {
        fail(`${unit.only}: ${problem}`);
        return [];
      }
    }
    for await (const { session, lines } of opened.read(wanted)) {
      const name = `${db}#${session.id}`;
      const entries = await eventEntries(lines.map((line) => `${line}\n`), format, owner, name, options, (message) => fail(`${name}: ${message}`));
      counted.push({ agent: agent.format, id: session.id, path: name, entries });
    }
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    fail(`${db}: ${error.message}`);
  }
  return counted;
}
