// The Gemini CLI harness: `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, chats that `gemini --resume
// <uuid>` loads from the project directory. A resuming CLI appends its own lines (`$set`, new messages) to the
// same file; later lines of ours follow what it wrote, whole, and replace our messages in place by id. A chat
// written before is reopened to append what its source added (convert): the same ids, so a late tool result
// still replaces its message in place.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { HarnessFactory, HarnessOptions, ReopenSession, SessionHarness } from '../../session/types.js';
import { AppendFile } from '../../session/append-file.js';
import { createSessionFile, jsonLine, QueueingJsonlHarness } from '../../session/jsonl-harness.js';
import { chatFileName, projectHash, resolveProjectSlug } from './paths.js';
import { isObject } from '../../util/is-object.js';
import { FORMAT, GeminiRecordMapper } from './records.js';

export { FORMAT };

/**
 * The message ids of a session: UUID-shaped, drawn from the session id and a counter, so a later run that maps
 * the same events again (a reopened chat) names each message as the run that wrote it did.
 */
export function messageIds(sessionId: string): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`${sessionId}:${n += 1}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

class GeminiHarness extends QueueingJsonlHarness<GeminiRecordMapper> {
  readonly format = FORMAT;
  /** Newline owed before our next line (foreign bytes seen before the first new event ended without one). */
  private owed = '';

  constructor(
    sessionId: string, cwd: string, file: AppendFile, mapper: GeminiRecordMapper, warn: HarnessOptions['warn'],
    private readonly now: () => string,
    reopened = false,
  ) {
    super(sessionId, cwd, file, mapper, warn, { reopened });
  }

  get resumeCommand(): string {
    return `gemini --resume ${this.sessionId}`;
  }

  /** The closing line (`lastUpdated`); a reopened chat with nothing new keeps the one its earlier run set. */
  protected override ending(): void {
    if (this.replay.active) return;
    const prefix = this.queuedPrefix();
    this.pending.push(prefix + [...this.mapper.drain(), this.mapper.closing(this.now())].map(jsonLine).join(''));
  }

  /**
   * Before the first new line of a reopened chat: the earlier run's lines are replayed (dropped from the queue);
   * every response copy in the chat (a resume's rewrite, before or after that run) is noted; and when a
   * resuming gemini added turns since, our next model output starts a message of its own after them.
   */
  protected override continueFile(): void {
    this.mapper.drain();
    this.mapper.shadow(responseCopies(readChat(this.file.path)));
    const appended = this.file.foreignBytes();
    if (!appended) return;
    this.noteForeign();
    if (hasMessage(appended.text)) this.mapper.endResponse();
    if (appended.needsNewline) this.owed = '\n';
  }

  /**
   * Before our next lines: what another process (a resuming gemini) appended meanwhile. Ours then start on a
   * line of their own; the response copies its history rewrite made are noted (see GeminiRecordMapper.shadow).
   */
  protected override queuedPrefix(): string {
    const owed = this.owed;
    this.owed = '';
    const appended = this.file.foreignBytes();
    if (!appended) return owed;
    this.noteForeign();
    this.mapper.shadow(responseCopies(appended.text));
    // What came since decides: it may have ended the line the newline was owed for.
    return appended.needsNewline ? '\n' : '';
  }
}

/** Whether `text` holds a whole message line (one with an `id`) or a history rewrite. */
function hasMessage(text: string): boolean {
  return text.split('\n').slice(0, -1).some((line) => {
    try {
      const record: unknown = JSON.parse(line);
      return isObject(record) && (typeof record.id === 'string' || (isObject(record.$set) && 'messages' in record.$set));
    } catch {
      return false;
    }
  });
}

/** A chat's lines that can hold response copies (`$set` lines naming `_response`), read in chunks. */
function readChat(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const kept: string[] = [];
  let rest = '';
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let position = 0; ;) {
      const n = readSync(fd, buf, 0, buf.length, position);
      if (n === 0) break;
      position += n;
      const lines = (rest + buf.toString('utf8', 0, n)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line.includes('"$set"') && line.includes('_response"')) kept.push(line);
    }
  } finally {
    closeSync(fd);
  }
  return kept.map((line) => `${line}\n`).join('');
}

/** The model message ids whose `<id>_response` copy a `$set.messages` line in `text` holds (whole lines only). */
export function responseCopies(text: string): string[] {
  const ids: string[] = [];
  const lines = text.split('\n');
  for (const line of lines.slice(0, -1)) {
    if (!line.includes('"$set"') || !line.includes('_response"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a damaged foreign line: nothing to learn from it
    }
    const messages = isObject(record) && isObject(record.$set) ? record.$set.messages : undefined;
    if (!Array.isArray(messages)) continue;
    for (const message of messages) {
      if (isObject(message) && typeof message.id === 'string' && message.id.endsWith('_response')) ids.push(message.id.slice(0, -'_response'.length));
    }
  }
  return ids;
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

/** The CLI deletes every chat whose name ends in the same 8-character id as one it cleans up: never share one. */
function shortIdTaken(dir: string, sessionId: string): boolean {
  const suffix = `-${sessionId.slice(0, 8)}.jsonl`;
  try {
    return readdirSync(dir).some((name) => name.endsWith(suffix) || name.endsWith(suffix.slice(0, -1)));
  } catch {
    return false;
  }
}

/** Create a chat (metadata written at once) for the harness or for tests; `clock` gives "now" as ISO text. */
export function createGeminiHarness(options: HarnessOptions, clock: () => Date = () => new Date()): SessionHarness {
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  const slug = resolveProjectSlug(options.root, project);
  const dir = join(options.root, 'tmp', slug, 'chats');
  const started = clock();
  let mapper: GeminiRecordMapper | undefined;
  const { sessionId, file } = createSessionFile(dir, options.root, (id) => chatFileName(started, id), (id) => {
    mapper = new GeminiRecordMapper({
      sessionId: id,
      projectHash: projectHash(project),
      startedAt: started.toISOString(),
      newId: messageIds(id),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
    });
    return jsonLine(mapper.metadata());
  }, () => {
    // A few draws at most: a short id is taken only by chance or by a planted file, never by every draw.
    let id = '';
    for (let draw = 0; draw < 16; draw += 1) {
      id = randomUUID();
      if (!shortIdTaken(dir, id)) break;
    }
    return id;
  });
  // No `removable`: finishOrDiscard keeps a chat with no message, as finish does.
  return new GeminiHarness(sessionId, options.cwd, file, mapper!, options.warn, () => clock().toISOString());
}

export const geminiCli: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$GEMINI_CLI_HOME/.gemini, else ~/.gemini',
  defaultRoot(env, homedir) {
    const home = env.GEMINI_CLI_HOME !== undefined && env.GEMINI_CLI_HOME !== '' ? env.GEMINI_CLI_HOME : homedir;
    return join(home, '.gemini');
  },
  waitsToOpen: true,
  create: (options) => createGeminiHarness(options),
  reopen: (options, session) => reopenGeminiHarness(options, session),
};

/**
 * Reopen a chat an earlier run wrote (convert appends what its source added): it must still be a chat file of
 * this root named for its session, and the file written then (see AppendFile.reopen). Nothing is written yet.
 */
export function reopenGeminiHarness(options: HarnessOptions, session: ReopenSession, clock: () => Date = () => new Date()): SessionHarness {
  const file = session.sessionFile;
  const chats = dirname(file);
  if (!file.startsWith(join(options.root, 'tmp') + sep) || basename(chats) !== 'chats'
    || !basename(file).endsWith(`-${session.sessionId.slice(0, 8)}.jsonl`)) {
    throw new Error(`${file} is not a chat of session ${session.sessionId} under ${options.root}`);
  }
  const opened = AppendFile.reopen(file, session.mark);
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  const mapper = new GeminiRecordMapper({
    sessionId: session.sessionId,
    projectHash: projectHash(project),
    startedAt: clock().toISOString(),
    newId: messageIds(session.sessionId),
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  return new GeminiHarness(session.sessionId, options.cwd, opened, mapper, options.warn, () => clock().toISOString(), true);
}
