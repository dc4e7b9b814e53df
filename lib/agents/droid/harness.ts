// The Factory Droid harness: `<root>/sessions/<cwd with "/" as "-">/<uuid>.jsonl`, sessions that `droid exec -s
// <uuid>` continues (and `--fork <uuid>` copies) from the project directory. Droid reads a session's messages in
// file order; a resuming droid appends its own to the same file, and later messages of ours are chained
// (`parentId`) onto the last of them, so the next resume sees both conversations.
import { basename, dirname, join, sep } from 'node:path';
import { AppendFile } from '../../session/append-file.js';
import { lastRecordIn, type IdRecord } from '../../session/chained-records.js';
import { ChainedJsonlHarness, createSessionFile } from '../../session/jsonl-harness.js';
import { projectPath } from '../../session/project-path.js';
import type { HarnessFactory, HarnessOptions, ReopenSession, SessionHarness } from '../../session/types.js';
import { seededUuids } from '../../util/random-id.js';
import { droidRoot, sessionsDir, writtenDirName } from './paths.js';
import { DroidRecordMapper, FORMAT } from './records.js';

export { FORMAT };

/** The `id` of the last whole `message` line in `text` (bytes another process appended, or ours read back). */
export function lastMessageId(text: string): string | undefined {
  return lastRecordIn(text, (record): record is IdRecord =>
    record.type === 'message' && typeof record.id === 'string' && record.id !== '')?.id;
}

/** The session's lines are queued by the mapper and written at a flush, one compact JSON line each. */
class DroidHarness extends ChainedJsonlHarness<DroidRecordMapper> {
  readonly format = FORMAT;
  protected override foreignThen = 'later messages follow what it wrote, so the next resume sees both';

  get resumeCommand(): string {
    return `droid --resume ${this.sessionId}`;
  }

  protected lastChainId(text: string): string | undefined {
    return lastMessageId(text);
  }
}

/** Create a session (nothing written until the first line) for the harness or for tests. */
export function createDroidHarness(options: HarnessOptions, newId?: () => string): SessionHarness {
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  if (writtenDirName(project).cut) options.warn('the project directory is too long for the folder droid names after it: the session is written under a shortened name, where droid will not find it');
  // The file's name is the session id, drawn here: never a path component from the input.
  const { sessionId, file } = createSessionFile(sessionsDir(options.root, project), options.root, (id) => `${id}.jsonl`);
  const mapper = new DroidRecordMapper({
    sessionId,
    cwd: project,
    newId: newId ?? seededUuids(sessionId),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  // A session that holds no line (every event was left out) is no session: finishOrDiscard removes it.
  return new DroidHarness(sessionId, options.cwd, file, mapper, options.warn, { removable: 0 });
}

/**
 * Reopen a session an earlier run wrote (convert appends what its source added): it must still be a session of
 * this root named for its id, and the file written then (see AppendFile.reopen). Its new messages get ids drawn
 * from the session id and the size the file had, never those of an earlier run.
 */
export function reopenDroidHarness(options: HarnessOptions, session: ReopenSession): SessionHarness {
  const file = session.sessionFile;
  if (!file.startsWith(join(options.root, 'sessions') + sep) || dirname(dirname(file)) !== join(options.root, 'sessions') || basename(file) !== `${session.sessionId}.jsonl`) {
    throw new Error(`${file} is not a session ${session.sessionId} under ${options.root}`);
  }
  const opened = AppendFile.reopen(file, session.mark);
  const mapper = new DroidRecordMapper({
    sessionId: session.sessionId,
    cwd: projectPath(options.cwd, options.cwdFromInput === true),
    headerWritten: true,
    newId: seededUuids(`${session.sessionId}@${session.mark.size}`),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  return new DroidHarness(session.sessionId, options.cwd, opened, mapper, options.warn, { reopened: true, removable: 0 });
}

export const droid: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$FACTORY_HOME_OVERRIDE/.factory, else ~/.factory',
  defaultRoot: (env, homedir) => droidRoot(env, homedir),
  create: (options) => createDroidHarness(options),
  reopen: (options, session) => reopenDroidHarness(options, session),
};
