// The Copilot CLI harness: `<root>/session-state/<uuid>/events.jsonl` (and `workspace.yaml` beside it), sessions
// that `copilot --resume=<uuid>` (or an 8-hex prefix of it) and `copilot --continue` load. A resuming CLI appends
// its own events to the same file; the CLI replays the file in order, so later events of ours, written after its
// lines (and chained onto its last), keep both conversations.
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { AppendFile, makeDirsBelow } from '../../session/append-file.js';
import { lastRecordIn, type IdRecord } from '../../session/chained-records.js';
import { ChainedJsonlHarness, createSessionFile, jsonLine } from '../../session/jsonl-harness.js';
import type { HarnessFactory, HarnessOptions, ReopenSession, SessionHarness } from '../../session/types.js';
import { seededUuids } from '../../util/random-id.js';
import { writeNewFile } from '../../util/small-file.js';
import { copilotRoot, EVENTS_FILE, isUuid, sessionStateDir, WORKSPACE_FILE, workspaceYaml } from './paths.js';
import { CopilotEventMapper, FORMAT } from './records.js';

export { FORMAT };

/** How many fresh session ids to try before giving up (a collision of random UUIDs means something is wrong). */
const MAX_ATTEMPTS = 16;

/** The id of the last whole line in `text` that is an event (a UUID `id` and a `parentId` member). */
export function lastEventId(text: string): string | undefined {
  return lastRecordIn(text, (record): record is IdRecord => 'parentId' in record && isUuid(record.id))?.id;
}

/** When the session is filed as started: `startedAt` when it is a valid time of a four-digit year, else now. */
function startTime(startedAt: string | undefined): string {
  const date = startedAt === undefined ? new Date() : new Date(startedAt);
  const year = date.getUTCFullYear();
  return (Number.isNaN(year) || year < 1 || year > 9999 ? new Date() : date).toISOString();
}

class CopilotHarness extends ChainedJsonlHarness<CopilotEventMapper> {
  readonly format = FORMAT;
  protected override foreignThen = 'later events follow what it wrote, so the next resume sees both';

  get resumeCommand(): string {
    return `copilot --resume=${this.sessionId}`;
  }

  protected lastChainId(text: string): string | undefined {
    return lastEventId(text);
  }

  /** A session holding only its `session.start` goes, with the folder this run made for it. */
  override finishOrDiscard(): boolean {
    const removed = super.finishOrDiscard();
    if (removed) removeSessionDir(dirname(this.file.path));
    return removed;
  }

  override abandon(): void {
    const path = this.file.path;
    super.abandon();
    // Removed by the discard (it held only its opening): the folder this run made goes too.
    if (!existsSync(path)) removeSessionDir(dirname(path));
  }
}

/** Remove the workspace file and the folder this run made for a session whose events file is gone. */
function removeSessionDir(dir: string): void {
  try { unlinkSync(join(dir, WORKSPACE_FILE)); } catch { /* not there */ }
  try { rmdirSync(dir); } catch { /* not empty: another process's files are left */ }
}

/** A new session folder under `<root>/session-state/`, made exclusively, named by a fresh UUID: its id. */
function newSessionDir(root: string): { sessionId: string; dir: string } {
  const state = sessionStateDir(root);
  makeDirsBelow(root, state);
  for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
    const sessionId = randomUUID();
    const dir = join(state, sessionId);
    try {
      mkdirSync(dir, { mode: 0o700 });
      return { sessionId, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another session's folder: a fresh id. A link planted where ours would go is never passed by.
      if (lstatSync(dir).isSymbolicLink()) throw new Error(`${dir} is a symbolic link; a session is not written through one below the storage root`);
    }
  }
  throw new Error(`could not create a new session folder in ${state} after ${MAX_ATTEMPTS} attempts`);
}

/** Create a session (its folder, `workspace.yaml`, and `events.jsonl` holding `session.start`), for the harness or tests. */
export function createCopilotHarness(options: HarnessOptions, newId?: (sessionId: string) => () => string): SessionHarness {
  const started = startTime(options.startedAt);
  const { sessionId, dir } = newSessionDir(options.root);
  let mapper: CopilotEventMapper | undefined;
  try {
    // Created when the session started, updated now: the CLI's `/session prune` deletes old sessions on request.
    if (!writeNewFile(join(dir, WORKSPACE_FILE), workspaceYaml(sessionId, options.cwd, started, new Date().toISOString()))) {
      throw new Error(`${join(dir, WORKSPACE_FILE)} exists`);
    }
    const { file, openingBytes } = createSessionFile(dir, options.root, () => EVENTS_FILE, (id) => {
      mapper = new CopilotEventMapper({
        sessionId: id,
        cwd: options.cwd,
        // The file's event ids: drawn from the session id, so a reopened session's replay names them again.
        newId: (newId ?? seededUuids)(id),
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
      });
      return jsonLine(mapper.header(started));
    }, () => sessionId);
    // A session holding no event but its start (every event was left out) is no session: finishOrDiscard removes it.
    return new CopilotHarness(sessionId, options.cwd, file, mapper!, options.warn, { removable: openingBytes });
  } catch (error) {
    removeSessionDir(dir);
    throw error;
  }
}

/**
 * Reopen a session an earlier run wrote (convert appends what its source added): it must still be the events
 * file of this root named for its session, and the file written then (see AppendFile.reopen). Its new events
 * get ids drawn from the session id and the size it had, never those of an earlier run.
 */
export function reopenCopilotHarness(options: HarnessOptions, session: ReopenSession): SessionHarness {
  const file = session.sessionFile;
  const dir = dirname(file);
  if (!file.startsWith(sessionStateDir(options.root) + sep) || basename(dir) !== session.sessionId
    || dirname(dir) !== sessionStateDir(options.root) || basename(file) !== EVENTS_FILE) {
    throw new Error(`${file} is not the events file of session ${session.sessionId} under ${options.root}`);
  }
  const opened = AppendFile.reopen(file, session.mark);
  const mapper = new CopilotEventMapper({
    sessionId: session.sessionId,
    cwd: options.cwd,
    newId: seededUuids(`${session.sessionId}@${session.mark.size}`),
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
  return new CopilotHarness(session.sessionId, options.cwd, opened, mapper, options.warn, { reopened: true });
}

export const copilotCli: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$COPILOT_HOME, else ~/.copilot',
  defaultRoot: (env, homedir) => copilotRoot(env, homedir),
  create: (options) => createCopilotHarness(options),
  reopen: (options, session) => reopenCopilotHarness(options, session),
};
