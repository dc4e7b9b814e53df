// The Qwen Code harness: `<root>/projects/<encoded cwd>/chats/<uuid>.jsonl`, chats that `qwen --resume <uuid>`
// loads from the project directory. Every record names the file's session id and the project directory, and
// is chained onto the one before; a resuming CLI appends its own records to the same file, and later records
// of ours chain onto the last of them, so the next resume (which follows the chain back from the last
// record) sees both conversations.
import { createHash, randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { AppendFile, type FileMark, foreignAppendWarning } from '../../session/append-file.js';
import type { FidelityAccount } from '../../session/fidelity.js';
import { findInOwnTail, Replay } from '../../session/reopened.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type ReopenSession, type SessionHarness } from '../../session/types.js';
import { isObject } from '../../util/is-object.js';
import { chatsDir, qwenRoot, writtenDirName } from './paths.js';
import { FORMAT, QwenRecordMapper, type ChatRecord } from './records.js';

export { FORMAT };

/** Compact JSON, one record a line (the CLI finds titles by a raw search of compact JSON). */
function serialize(record: ChatRecord): string {
  try {
    return `${JSON.stringify(record)}\n`;
  } catch (error) {
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

/** The `uuid` of the last whole record in `text` (bytes another process appended), or undefined. */
export function lastRecordUuid(text: string): string | undefined {
  const lines = text.split('\n');
  // The last piece is cut off unless the text ended with a newline: never trusted.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    try {
      const record: unknown = JSON.parse(line);
      if (isObject(record) && typeof record.uuid === 'string' && record.uuid !== '') return record.uuid;
    } catch {
      // A damaged foreign line: look further back.
    }
  }
  return undefined;
}

/**
 * The record ids of a session: UUID-shaped, drawn from the session id and a counter, so they are unique in the
 * file whatever the random source, and a later run that maps the same events again names each record alike.
 */
export function recordIds(sessionId: string): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`${sessionId}:${n += 1}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/** The project path the CLI would use: the directory with symlinks resolved (a path from the input is taken as it is). */
function projectPath(cwd: string, fromInput: boolean): string {
  if (fromInput) return cwd;
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

class QwenHarness implements SessionHarness {
  readonly format = FORMAT;
  private foreign = false;
  /** Reopened: the events an earlier run wrote, mapped without writing them. */
  private readonly replay: Replay;
  mark: FileMark | undefined;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    private readonly file: AppendFile,
    private readonly mapper: QwenRecordMapper,
    private readonly warn: (message: string) => void,
    reopened = false,
  ) {
    this.replay = new Replay(reopened);
  }

  continueAfter(skip: number): void {
    this.replay.continueAfter(skip);
  }

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    return `qwen --resume ${this.sessionId}`;
  }

  get fidelity(): FidelityAccount {
    return this.mapper.fidelity;
  }

  add(event: GenericEvent, where: string): void {
    const step = this.replay.next();
    if (step === 'replay') {
      // Written by the earlier run (its warnings and account were given then): only the state moves on (the
      // calls awaiting results, the monitor task ids); its records are in the file already.
      this.fidelity.muted(() => this.mapper.map(event));
      this.mapper.drain(true);
      return;
    }
    if (step === 'first') {
      // New records chain onto the last one of ours in the file (what another process appended since is
      // chained onto at the next flush).
      const last = findInOwnTail(this.file, lastRecordUuid);
      if (last !== undefined) this.mapper.chainOnto(last);
    }
    for (const warning of this.mapper.map(event)) this.warn(`${where}: ${warning}`);
  }

  flush(): void {
    if (this.replay.active) this.mapper.drain(true); // the earlier run's records are in the file already
    if (!this.mapper.pending) return;
    const prefix = this.foreignPrefix();
    this.file.write(prefix + this.mapper.drain().map(serialize).join(''));
  }

  finish(): void {
    this.finishOrDiscard(false);
  }

  /** A chat that holds no record (every event was left out) is no session: removed (when `discard`). */
  finishOrDiscard(discard = true): boolean {
    try {
      // A reopened chat with nothing new: the run that wrote it ended it.
      if (this.replay.active) this.mapper.drain(true);
      else this.mapper.end();
      this.flush();
      this.mark = this.file.mark();
      return discard && this.file.removeIfHolding(0);
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.mapper.drain();
    this.file.discard();
  }

  /**
   * Before our next records: what another process (a resuming qwen) appended meanwhile. Ours then start on a
   * line of their own and chain onto its last record, which is the leaf the next resume starts from.
   */
  private foreignPrefix(): string {
    const appended = this.file.foreignBytes();
    if (!appended) return '';
    const last = lastRecordUuid(appended.text);
    if (last !== undefined) this.mapper.chainOnto(last);
    if (!this.foreign) {
      this.foreign = true;
      this.warn(foreignAppendWarning(this.file.path, 'later records chain onto what it wrote, so the next resume sees both'));
    }
    return appended.needsNewline ? '\n' : '';
  }
}

/** Create a chat (nothing written until the first record) for the harness or for tests. */
export function createQwenHarness(options: HarnessOptions, newId?: () => string): SessionHarness {
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  if (writtenDirName(project).cut) options.warn('the project directory is too long for the folder qwen names after it: the session is written under a shortened name, where qwen --resume will not find it');
  let sessionId = '';
  // The file's name is the session id, drawn here: never a path component from the input.
  const { file } = AppendFile.createExclusive(chatsDir(options.root, project), () => {
    sessionId = randomUUID();
    return `${sessionId}.jsonl`;
  }, options.root);
  file.markOpened();
  const mapper = new QwenRecordMapper({
    sessionId,
    cwd: project,
    newId: newId ?? recordIds(sessionId),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  return new QwenHarness(sessionId, options.cwd, file, mapper, options.warn);
}

export const qwenCode: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$QWEN_RUNTIME_DIR, else $QWEN_HOME, else ~/.qwen',
  defaultRoot: (env, homedir) => qwenRoot(env, homedir),
  create: (options) => createQwenHarness(options),
  reopen: (options, session) => reopenQwenHarness(options, session),
};

/**
 * Reopen a chat an earlier run wrote (convert appends what its source added): it must still be a chat of this
 * root named for its session, and the file written then (see AppendFile.reopen). Nothing is written yet. Its
 * new records get ids drawn from the session id and the size the chat had, never those of an earlier run.
 */
export function reopenQwenHarness(options: HarnessOptions, session: ReopenSession): SessionHarness {
  const file = session.sessionFile;
  const chats = dirname(file);
  if (!file.startsWith(join(options.root, 'projects') + sep) || basename(chats) !== 'chats' || basename(file) !== `${session.sessionId}.jsonl`) {
    throw new Error(`${file} is not a chat of session ${session.sessionId} under ${options.root}`);
  }
  const opened = AppendFile.reopen(file, session.mark);
  const mapper = new QwenRecordMapper({
    sessionId: session.sessionId,
    cwd: projectPath(options.cwd, options.cwdFromInput === true),
    newId: recordIds(`${session.sessionId}@${session.mark.size}`),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  return new QwenHarness(session.sessionId, options.cwd, opened, mapper, options.warn, true);
}
