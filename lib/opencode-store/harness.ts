// The harness of OpenCode's layout: OpenCode (and Kilo, its fork) keep sessions in a SQLite database that only
// the CLI's own program writes here. While the stream runs, each flush appends the touched messages to a journal
// (`<data dir>/asyncai-log/<ses_id>.jsonl`, its first line an empty export document, later lines whole messages,
// a later copy replacing an earlier); when it ends, the journal becomes one export document that
// `<program> import` loads, run from the project. A session an earlier run wrote is reopened to append what its
// source added (convert): the new messages and parts are imported, the rows that run imported and this one
// changed are updated (see update.ts). What differs between the CLIs is their Flavour (flavour.ts).
import { closeSync, constants, openSync, readFileSync, readSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { HarnessFactory, HarnessOptions, ReopenSession, SessionHarness } from '../session/types.js';
import { AppendFile } from '../session/append-file.js';
import { createSessionFile, jsonLine, QueueingJsonlHarness } from '../session/jsonl-harness.js';
import { isObject } from '../util/is-object.js';
import { writeNewFile } from '../util/small-file.js';
import { findProgram, missingProgram } from './binary.js';
import type { Flavour } from './flavour.js';
import { IdMinter } from './ids.js';
import { resolveProject, sessionPath } from './project.js';
import { modelRef, OpencodeMapper, type MessageEntry, type ModelRef } from './records.js';
import { rowUpdates } from './update.js';

/** The folder of the data directory our journals go in. */
export const JOURNAL_DIR = 'asyncai-log';
/** How long `<program> import` may take. */
const IMPORT_TIMEOUT_MS = 120_000;

type Env = Record<string, string | undefined>;

/**
 * The export document a journal holds: its first line's session, then each message in the order it first
 * appeared, in its last copy. Damaged lines (a write cut short by a kill) are skipped.
 */
export function journalDocument(text: string): { info: Record<string, unknown>; messages: MessageEntry[] } | undefined {
  let info: Record<string, unknown> | undefined;
  const messages = new Map<string, MessageEntry>();
  for (const row of text.split('\n')) {
    if (row.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      continue;
    }
    if (!isObject(value) || !isObject(value.info)) continue;
    if (Array.isArray(value.messages)) {
      info ??= value.info;
      continue;
    }
    if (typeof value.info.id === 'string' && Array.isArray(value.parts)) messages.set(value.info.id, value as unknown as MessageEntry);
  }
  return info && { info, messages: [...messages.values()] };
}

/** The CLI's own data directory: `$XDG_DATA_HOME/<dirName>`, else `~/.local/share/<dirName>`. */
export function defaultDataDir(flavour: Flavour, env: Env, homedir: string): string {
  const data = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir, '.local', 'share');
  return join(data, flavour.dirName);
}

/**
 * The environment `<program> import` runs in, so the session lands where `root` says. The CLI's own data
 * directory (`defaultRoot`): the caller's environment as it is, so a database variable (`OPENCODE_DB`) the user
 * set is honoured as the CLI honours it (absolute, or relative to the data directory). Another directory named
 * as the CLI's (`opencode`) is used as `$XDG_DATA_HOME/<that name>` (an absolute database variable would send the
 * session elsewhere, so it is dropped; a relative one stays relative to it); any other directory gets the
 * variable set to `<root>/<database file>`.
 */
export function storeEnv(flavour: Flavour, env: Env, root: string, defaultRoot: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  if (resolve(root) === resolve(defaultRoot)) return out;
  const variable = flavour.databaseVariable;
  if (basename(root) === flavour.dirName) {
    out.XDG_DATA_HOME = dirname(root);
    if (out[variable] !== undefined && isAbsolute(out[variable])) delete out[variable];
  } else {
    out[variable] = join(root, flavour.databaseFile);
  }
  return out;
}

/** JSON with comments (`// ...`, `/* ... *\/`) and trailing commas, as the CLIs' `.jsonc` config files hold it, parsed. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"') {
      // A string, escapes and all, as it is.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else {
      out += c;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/**
 * The CLI's configured default model (`model` in its global config files under `$XDG_CONFIG_HOME/<dirName>`,
 * the last that names one), if readable.
 */
export function configuredModel(flavour: Flavour, env: Env, homedir: string): string | undefined {
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir, '.config');
  let found: string | undefined;
  for (const file of flavour.configFiles) {
    try {
      const text = readFileSync(join(config, flavour.dirName, file), 'utf8');
      const parsed: unknown = file.endsWith('.jsonc') ? parseJsonc(text) : JSON.parse(text);
      const model = isObject(parsed) ? parsed.model : undefined;
      if (typeof model === 'string' && model.includes('/')) found = model;
    } catch {
      // Absent or unreadable: the next file decides.
    }
  }
  return found;
}

/** What a reopened session knows of the earlier run: the journal's bytes then, and its messages as imported. */
interface Earlier {
  size: number;
  messages: ReadonlyMap<string, MessageEntry>;
  /** Runs one `<program> db` statement. */
  db: (statement: string) => void;
}

/** The journal's lines are the mapper's touched messages, written whole at each flush; `finish` loads them. */
class OpencodeHarness extends QueueingJsonlHarness<OpencodeMapper> {
  readonly format: string;
  /** Where this run's lines begin in a reopened journal. */
  private start: number | undefined;

  constructor(
    private readonly flavour: Flavour,
    sessionId: string,
    cwd: string,
    file: AppendFile,
    mapper: OpencodeMapper,
    warn: (message: string) => void,
    private readonly load: (document: string) => void,
    private readonly userModel: ModelRef,
    private readonly sure: boolean,
    /** Variables the command needs to find the session (`OPENCODE_DB=...`), as `NAME=value ` words. */
    private readonly where: string,
    private readonly earlier?: Earlier,
  ) {
    super(sessionId, cwd, file, mapper, warn, { reopened: earlier !== undefined });
    this.format = flavour.format;
  }

  get resumeCommand(): string {
    const model = this.sure ? '' : ` -m ${this.userModel.providerID}/${this.userModel.modelID}`;
    return `${this.where}${this.flavour.program} -s ${this.sessionId}${model}`;
  }

  override finish(): void {
    super.finish();
    if (this.earlier) {
      // A reopened session with nothing new is as the earlier run left it.
      if (!this.replay.active) this.appendToSession(this.earlier);
      return;
    }
    const text = readFileSync(this.file.path, 'utf8');
    const document = journalDocument(text);
    if (!document) throw new Error('the journal holds no session');
    const info: Record<string, unknown> = { ...document.info, time: { ...(document.info.time as object), updated: updatedAt(document.messages) } };
    if (this.mapper.title !== undefined) info.title = this.mapper.title;
    this.load(JSON.stringify({ info, messages: document.messages }));
  }

  /**
   * Before the first new line of a reopened journal: the earlier run's messages are replayed (dropped from the
   * queue), and lines after them (a run killed before it was recorded, its ids minted anew now) are passed over.
   */
  protected override continueFile(): void {
    this.mapper.drain();
    if (this.file.foreignBytes() !== undefined) {
      this.warn(`${this.file.path}: lines after those recorded (an interrupted run) are not loaded again`);
    }
    this.start = this.file.mark().size;
  }

  /**
   * The messages this run touched (the journal's lines after the earlier run's): imported (the CLI adds the
   * new messages and parts, and skips the rows it has), then the rows it has and this run changed updated.
   */
  private appendToSession(earlier: Earlier): void {
    const text = readFileSync(this.file.path);
    const first = text.subarray(0, text.indexOf(10) + 1).toString('utf8');
    const touched = journalDocument(first + text.subarray(this.start ?? earlier.size).toString('utf8'));
    if (!touched || touched.messages.length === 0) return;
    const now = updatedAt(touched.messages);
    this.load(JSON.stringify({ info: { ...touched.info, time: { ...(touched.info.time as object), updated: now } }, messages: touched.messages }));
    const { statements, tooLong } = rowUpdates(this.sessionId, earlier.messages, touched.messages, now);
    for (const row of tooLong) {
      this.warn(`${this.sessionId}: ${row.table} ${row.id}${row.tool !== undefined ? ` (${row.tool})` : ''} changed, but is too long to update through ${this.flavour.program} db; ${this.flavour.name} keeps it as it was`);
    }
    statements.push(`UPDATE session SET time_updated = ${now} WHERE id = '${this.sessionId}'`);
    for (const statement of statements) earlier.db(statement);
  }
}

/** The session's `time.updated`: now, or its last message's time when that is later. */
function updatedAt(messages: readonly MessageEntry[]): number {
  const last = messages.reduce((max, m) => Math.max(max, (m.info.time as { created?: number } | undefined)?.created ?? 0), 0);
  return Math.max(Date.now(), last);
}

/** `text` as one shell word (quoted unless it is plain). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** The variables the caller's own program needs to find the session (where it would not look by itself), as `NAME=value ` words. */
function whereHint(flavour: Flavour, env: Record<string, string | undefined>, importEnv: Record<string, string>): string {
  return ['XDG_DATA_HOME', flavour.databaseVariable].filter((key) => importEnv[key] !== env[key])
    .map((key) => `${key}=${shellWord(importEnv[key] ?? '')} `).join('');
}

/**
 * `<program> import <document>` from `directory`, with a fixed argv and no shell: the document is a file of
 * ours beside the journal, removed afterwards. Throws with the program's last line when it fails.
 */
function importer(flavour: Flavour, program: string, env: Record<string, string>, directory: string, journal: string): (document: string) => void {
  return (document) => {
    const path = journal.replace(/\.jsonl$/, '.export.json');
    if (!writeNewFile(path, document)) throw new Error(`${path} exists`);
    try {
      runProgram(flavour, program, ['import', path], env, directory, 'import');
    } finally {
      try { unlinkSync(path); } catch { /* already gone */ }
    }
  };
}

/** Whether `dir` can be a process's working directory here (it exists and is a directory). */
function isDirectoryHere(dir: string): boolean {
  if (dir.includes('\0')) return false;
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where `<program> import` runs: the project directory, as the CLI files a session under the directory it is
 * imported from. A project that is not a directory here (a cwd from another machine, a `--cwd` made later)
 * cannot be one: the import runs from `/`, said in one line (the records keep the project directory).
 */
function importDirectory(flavour: Flavour, directory: string, warn: (message: string) => void): string {
  if (isDirectoryHere(directory)) return directory;
  const shown = JSON.stringify(directory.length > 200 ? `${directory.slice(0, 200)}...` : directory);
  warn(`warn ${flavour.format}.import_directory: the project directory ${shown} is not a directory here; the session is imported from / (${flavour.name} files it there)`);
  return '/';
}

/** `<program> <args>` from `directory`, no shell; throws with the program's last line when it fails. */
function runProgram(flavour: Flavour, program: string, args: string[], env: Record<string, string>, directory: string, what: string): void {
  const result = process.getBuiltinModule('node:child_process').spawnSync(program, args, {
    cwd: directory, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: IMPORT_TIMEOUT_MS,
  });
  const name = flavour.program;
  if (result.error) throw new Error(`${name} ${what}: ${result.error.message}`);
  if (result.status !== 0) {
    const last = `${result.stderr}${result.stdout}`.trim().split('\n').pop() ?? '';
    throw new Error(`${name} ${what} exited with ${result.status ?? result.signal}: ${last}`);
  }
}

export interface OpencodeHarnessOptions extends HarnessOptions {
  /** Clock for ids and times (tests). */
  clock?: () => number;
}

/** The program, the project and the models a session of `options` is written with. */
function setting(flavour: Flavour, options: OpencodeHarnessOptions) {
  const env = options.env ?? {};
  const program = findProgram(flavour, env);
  if (program === undefined) throw new Error(missingProgram(flavour));
  const directory = options.cwd;
  const project = options.cwdFromInput ? { id: 'global', worktree: '/' } : resolveProject(directory, flavour.projectCache);
  const configured = configuredModel(flavour, env, options.homedir ?? '');
  const userModel = modelRef(configured ?? options.model ?? 'default', flavour.program);
  const mapperFor = (sessionId: string, ids: IdMinter) => new OpencodeMapper({
    flavour, sessionId, directory, worktree: project.worktree, userModel, ids,
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  return { env, program, directory, project, configured, userModel, mapperFor };
}

/** Open a session of `flavour`: its journal with the session line written at once. */
export function createLayoutHarness(flavour: Flavour, options: OpencodeHarnessOptions): SessionHarness {
  const { env, program, directory, project, configured, userModel, mapperFor } = setting(flavour, options);
  const ids = new IdMinter(options.clock);
  const sessionId = ids.next('ses');
  const mapper = mapperFor(sessionId, ids);
  // The first line: an empty export document of the session.
  const { file } = createSessionFile(join(options.root, JOURNAL_DIR), options.root, () => `${sessionId}.jsonl`, () => {
    const now = (options.clock ?? Date.now)();
    const info = {
      id: sessionId, slug: sessionId.slice(-8).toLowerCase(), projectID: project.id, directory, path: sessionPath(project, directory),
      title: `asyncai-log session ${new Date(now).toISOString()}`, version: flavour.version, time: { created: now, updated: now },
    };
    return jsonLine({ info, messages: [] });
  }, () => sessionId);
  const importEnv = storeEnv(flavour, env, options.root, defaultDataDir(flavour, env, options.homedir ?? ''));
  const load = importer(flavour, program, importEnv, importDirectory(flavour, directory, options.warn), file.path);
  return new OpencodeHarness(flavour, sessionId, directory, file, mapper, options.warn, load,
    userModel, configured !== undefined, whereHint(flavour, env, importEnv));
}

/** The writer of `flavour`: `--session-format <flavour.format>`. */
export function layoutHarness(flavour: Flavour): HarnessFactory {
  return {
    format: flavour.format,
    rootHelp: `$XDG_DATA_HOME/${flavour.dirName}, else ~/.local/share/${flavour.dirName}`,
    defaultRoot: (env, homedir) => defaultDataDir(flavour, env, homedir),
    preflight: (env) => (findProgram(flavour, env) === undefined ? missingProgram(flavour) : undefined),
    create: (options) => createLayoutHarness(flavour, options),
    reopen: (options, session) => reopenLayoutHarness(flavour, options, session),
  };
}

/** The first `size` bytes of a file, as text. */
function readPrefix(path: string, size: number): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reopen the session of a journal an earlier run wrote and imported (it must be that journal, unchanged since,
 * see AppendFile.reopen). The events that run wrote, mapped again, get the ids it minted (in minting order), so
 * what follows continues its messages; nothing reaches the CLI until `finish`.
 */
export function reopenLayoutHarness(flavour: Flavour, options: OpencodeHarnessOptions, session: ReopenSession): SessionHarness {
  const { env, program, directory, userModel, configured, mapperFor } = setting(flavour, options);
  const journal = join(options.root, JOURNAL_DIR, `${session.sessionId}.jsonl`);
  if (session.sessionFile !== journal) throw new Error(`${session.sessionFile} is not the journal of ${session.sessionId} under ${options.root}`);
  const file = AppendFile.reopen(journal, session.mark);
  try {
    const document = journalDocument(readPrefix(journal, session.mark.size));
    if (!document || document.info.id !== session.sessionId) throw new Error('the journal holds no such session');
    const recorded = document.messages.flatMap((m) => [m.info.id, ...m.parts.map((p) => p.id)]).filter((id): id is string => typeof id === 'string');
    const mapper = mapperFor(session.sessionId, new IdMinter(options.clock, recorded));
    const storeEnvironment = storeEnv(flavour, env, options.root, defaultDataDir(flavour, env, options.homedir ?? ''));
    const from = importDirectory(flavour, directory, options.warn);
    const earlier: Earlier = {
      size: session.mark.size,
      messages: new Map(document.messages.map((m) => [m.info.id as string, m])),
      db: (statement) => runProgram(flavour, program, ['db', statement], storeEnvironment, from, 'db'),
    };
    return new OpencodeHarness(flavour, session.sessionId, directory, file, mapper, options.warn, importer(flavour, program, storeEnvironment, from, journal),
      userModel, configured !== undefined, whereHint(flavour, env, storeEnvironment), earlier);
  } catch (error) {
    file.close();
    throw error;
  }
}
