// The OpenCode harness: OpenCode keeps sessions in a SQLite database that only its own CLI writes here. While
// the stream runs, each flush appends the touched messages to a journal (`<data dir>/asyncai-log/<ses_id>.jsonl`,
// its first line an empty export document, later lines whole messages, a later copy replacing an earlier);
// when it ends, the journal becomes one export document that `opencode import` loads, run from the project.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../../harnesses/types.js';
import { AppendFile } from '../../session/append-file.js';
import { isObject } from '../../util/is-object.js';
import { findOpencode, MISSING_OPENCODE } from './binary.js';
import { IdMinter } from './ids.js';
import { resolveProject, sessionPath } from './project.js';
import { modelRef, OpencodeMapper, type MessageEntry, type ModelRef } from './records.js';

export const FORMAT = 'opencode';
/** The OpenCode version whose formats this writes. */
export const OPENCODE_VERSION = '1.18.33';
/** The folder of the data directory our journals go in. */
export const JOURNAL_DIR = 'asyncai-log';
/** How long `opencode import` may take. */
const IMPORT_TIMEOUT_MS = 120_000;

type Env = Record<string, string | undefined>;

function line(value: unknown): string {
  try {
    return `${JSON.stringify(value)}\n`;
  } catch (error) {
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

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

/** OpenCode's own data directory: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
export function defaultDataDir(env: Env, homedir: string): string {
  const data = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir, '.local', 'share');
  return join(data, 'opencode');
}

/**
 * The environment `opencode import` runs in, so the session lands where `root` says. OpenCode's own data
 * directory (`defaultRoot`): the caller's environment as it is, so an `OPENCODE_DB` the user set is honoured
 * as OpenCode honours it (absolute, or relative to the data directory). Another directory named `opencode`
 * is used as `$XDG_DATA_HOME/opencode` (an absolute `OPENCODE_DB` would send the session elsewhere, so it is
 * dropped; a relative one stays relative to it); any other directory gets `OPENCODE_DB=<root>/opencode.db`.
 */
export function opencodeEnv(env: Env, root: string, defaultRoot: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  if (resolve(root) === resolve(defaultRoot)) return out;
  if (basename(root) === 'opencode') {
    out.XDG_DATA_HOME = dirname(root);
    if (out.OPENCODE_DB !== undefined && isAbsolute(out.OPENCODE_DB)) delete out.OPENCODE_DB;
  } else {
    out.OPENCODE_DB = join(root, 'opencode.db');
  }
  return out;
}

/** OpenCode's configured default model (`model` in `$XDG_CONFIG_HOME/opencode/opencode.json`), if readable. */
export function configuredModel(env: Env, homedir: string): string | undefined {
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir, '.config');
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(config, 'opencode', 'opencode.json'), 'utf8'));
    const model = isObject(parsed) ? parsed.model : undefined;
    return typeof model === 'string' && model.includes('/') ? model : undefined;
  } catch {
    return undefined;
  }
}

class OpencodeHarness implements SessionHarness {
  readonly format = FORMAT;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    private readonly file: AppendFile,
    private readonly mapper: OpencodeMapper,
    private readonly warn: (message: string) => void,
    private readonly load: (document: string) => void,
    private readonly userModel: ModelRef,
    private readonly sure: boolean,
    /** Variables the command needs to find the session (`OPENCODE_DB=...`), as `NAME=value ` words. */
    private readonly where: string,
  ) {}

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    const model = this.sure ? '' : ` -m ${this.userModel.providerID}/${this.userModel.modelID}`;
    return `${this.where}opencode -s ${this.sessionId}${model}`;
  }

  add(event: GenericEvent, where: string): void {
    for (const warning of this.mapper.map(event)) this.warn(`${where}: ${warning}`);
  }

  flush(): void {
    if (this.mapper.pending) this.file.write(this.mapper.drain().map(line).join(''));
  }

  finish(): void {
    try {
      this.flush();
    } finally {
      this.file.close();
    }
    const text = readFileSync(this.file.path, 'utf8');
    const document = journalDocument(text);
    if (!document) throw new Error('the journal holds no session');
    const last = document.messages.reduce((max, m) => Math.max(max, (m.info.time as { created?: number } | undefined)?.created ?? 0), 0);
    const info: Record<string, unknown> = { ...document.info, time: { ...(document.info.time as object), updated: Math.max(Date.now(), last) } };
    if (this.mapper.title !== undefined) info.title = this.mapper.title;
    this.load(JSON.stringify({ info, messages: document.messages }));
  }

  abandon(): void {
    this.mapper.drain();
    this.file.close();
  }
}

/** `text` as one shell word (quoted unless it is plain). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** Write `text` to a new file (mode 0600, never an existing one). */
function createFile(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * `opencode import <document>` from `directory`, with a fixed argv and no shell: the document is a file of
 * ours beside the journal, removed afterwards. Throws with OpenCode's last line when it fails.
 */
function importer(program: string, env: Record<string, string>, directory: string, journal: string): (document: string) => void {
  return (document) => {
    const path = journal.replace(/\.jsonl$/, '.export.json');
    createFile(path, document);
    try {
      const result = spawnSync(program, ['import', path], {
        cwd: directory, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: IMPORT_TIMEOUT_MS,
      });
      if (result.error) throw new Error(`opencode import: ${result.error.message}`);
      if (result.status !== 0) {
        const last = `${result.stderr}${result.stdout}`.trim().split('\n').pop() ?? '';
        throw new Error(`opencode import exited with ${result.status ?? result.signal}: ${last}`);
      }
    } finally {
      try { unlinkSync(path); } catch { /* already gone */ }
    }
  };
}

export interface OpencodeHarnessOptions extends HarnessOptions {
  /** Clock for ids and times (tests). */
  clock?: () => number;
}

/** Open a session: its journal with the session line written at once. */
export function createOpencodeHarness(options: OpencodeHarnessOptions): SessionHarness {
  const env = options.env ?? {};
  const program = findOpencode(env);
  if (program === undefined) throw new Error(MISSING_OPENCODE);
  const ids = new IdMinter(options.clock);
  const sessionId = ids.next('ses');
  const directory = options.cwd;
  const project = options.cwdFromInput ? { id: 'global', worktree: '/' } : resolveProject(directory);
  const configured = configuredModel(env, options.homedir ?? '');
  const userModel = modelRef(configured ?? options.model ?? 'default', 'opencode');
  const mapper = new OpencodeMapper({
    sessionId, directory, worktree: project.worktree, userModel, ids,
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  mkdirSync(options.root, { recursive: true, mode: 0o700 });
  const { file } = AppendFile.createExclusive(join(options.root, JOURNAL_DIR), () => `${sessionId}.jsonl`, options.root);
  const now = (options.clock ?? Date.now)();
  const info = {
    id: sessionId, slug: sessionId.slice(-8).toLowerCase(), projectID: project.id, directory, path: sessionPath(project, directory),
    title: `asyncai-log session ${new Date(now).toISOString()}`, version: OPENCODE_VERSION, time: { created: now, updated: now },
  };
  try {
    file.write(line({ info, messages: [] }));
  } catch (error) {
    file.close();
    throw error;
  }
  const importEnv = opencodeEnv(env, options.root, defaultDataDir(env, options.homedir ?? ''));
  // The session is where the caller's own opencode would not look: the hint says where.
  const where = (['XDG_DATA_HOME', 'OPENCODE_DB'] as const).filter((key) => importEnv[key] !== env[key])
    .map((key) => `${key}=${shellWord(importEnv[key] ?? '')} `).join('');
  return new OpencodeHarness(sessionId, directory, file, mapper, options.warn, importer(program, importEnv, directory, file.path),
    userModel, configured !== undefined, where);
}

export const opencode: HarnessFactory = {
  format: FORMAT,
  defaultRoot: defaultDataDir,
  preflight: (env) => (findOpencode(env) === undefined ? MISSING_OPENCODE : undefined),
  create: (options) => createOpencodeHarness(options),
};
