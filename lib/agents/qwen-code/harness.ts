// The Qwen Code harness: `<root>/projects/<encoded cwd>/chats/<uuid>.jsonl`, chats that `qwen --resume <uuid>`
// loads from the project directory. Every record names the file's session id and the project directory, and
// is chained onto the one before; a resuming CLI appends its own records to the same file, and later records
// of ours chain onto the last of them, so the next resume (which follows the chain back from the last
// record) sees both conversations.
import { basename, dirname, join, sep } from 'node:path';
import { AppendFile } from '../../session/append-file.js';
import { lastUuidIn } from '../../session/chained-records.js';
import { ChainedJsonlHarness, createSessionFile } from '../../session/jsonl-harness.js';
import { projectPath } from '../../session/project-path.js';
import type { HarnessFactory, HarnessOptions, ReopenSession, SessionHarness } from '../../session/types.js';
import { seededUuids } from '../../util/random-id.js';
import { chatsDir, qwenRoot, writtenDirName } from './paths.js';
import { FORMAT, QwenRecordMapper } from './records.js';

export { FORMAT };

/** The `uuid` of the last whole record in `text` (bytes another process appended), or undefined. */
export const lastRecordUuid = lastUuidIn;

/**
 * The chat's records are queued by the mapper and written at a flush as compact JSON, one record a line (the
 * CLI finds titles by a raw search of compact JSON), chained onto the last record in the file.
 */
class QwenHarness extends ChainedJsonlHarness<QwenRecordMapper> {
  readonly format = FORMAT;
  protected override foreignThen = 'later records chain onto what it wrote, so the next resume sees both';

  get resumeCommand(): string {
    return `qwen --resume ${this.sessionId}`;
  }

  protected lastChainId(text: string): string | undefined {
    return lastRecordUuid(text);
  }
}

/** Create a chat (nothing written until the first record) for the harness or for tests. */
export function createQwenHarness(options: HarnessOptions, newId?: () => string): SessionHarness {
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  if (writtenDirName(project).cut) options.warn('the project directory is too long for the folder qwen names after it: the session is written under a shortened name, where qwen --resume will not find it');
  // The file's name is the session id, drawn here: never a path component from the input.
  const { sessionId, file } = createSessionFile(chatsDir(options.root, project), options.root, (id) => `${id}.jsonl`);
  const mapper = new QwenRecordMapper({
    sessionId,
    cwd: project,
    newId: newId ?? seededUuids(sessionId),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  // A chat that holds no record (every event was left out) is no session: finishOrDiscard removes it.
  return new QwenHarness(sessionId, options.cwd, file, mapper, options.warn, { removable: 0 });
}

export const qwenCode: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$QWEN_RUNTIME_DIR, else settings advanced.runtimeOutputDir, else $QWEN_HOME, else ~/.qwen',
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
    newId: seededUuids(`${session.sessionId}@${session.mark.size}`),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  return new QwenHarness(session.sessionId, options.cwd, opened, mapper, options.warn, { reopened: true, removable: 0 });
}
