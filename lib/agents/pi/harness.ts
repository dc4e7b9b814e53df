// The Pi harness: `<agent dir>/sessions/--<cwd>--/<ISO time>_<uuid>.jsonl` (or the file directly in
// `$PI_CODING_AGENT_SESSION_DIR`), sessions that `pi --session <file>` continues. A resuming pi appends its entries
// to the same file, chained onto our last one; later entries of ours chain onto its last, so the next resume sees
// both conversations (pi continues the chain that ends at the file's last line).
import { randomUUID } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { AppendFile } from '../../session/append-file.js';
import { lastRecordIn, type IdRecord } from '../../session/chained-records.js';
import { createSessionFile, jsonLine, QueueingJsonlHarness } from '../../session/jsonl-harness.js';
import { findInOwnTail } from '../../session/reopened.js';
import type { HarnessFactory, HarnessOptions } from '../../session/types.js';
import { agentDir, customSessionDir, projectFolder, sessionFileName, sessionStart, shellWord, uuidV7 } from './paths.js';
import { FORMAT, PiRecordMapper } from './records.js';

export { FORMAT };

/** The id of the last whole line in `text` that is an entry (has a string `id` and a `parentId` member; pi skips a damaged line too). */
export function lastEntryId(text: string): string | undefined {
  return lastRecordIn(text, (record): record is IdRecord => 'parentId' in record && typeof record.id === 'string')?.id;
}

class PiHarness extends QueueingJsonlHarness<PiRecordMapper> {
  readonly format = FORMAT;
  protected override foreignThen = 'later entries chain onto what it wrote, so the next resume sees both';

  /** Named by its file: `--session <id>` found in another project's folder asks on stdin whether to fork it. */
  get resumeCommand(): string {
    return `pi --session ${shellWord(this.file.path)}`;
  }

  /** The held assistant message ends the session (a reopened one with nothing new: its earlier run wrote it). */
  protected override ending(): void {
    if (!this.replay.active) this.mapper.closeOpen();
  }

  /**
   * The first entry appended to a reopened session: the replay's entries and held message are the earlier
   * run's (it wrote the message at its end), new ids come from a fresh stream, and the chain goes on from the
   * file's last entry of ours; a
   * resuming pi's since then is looked for when the entries are written (`queuedPrefix`).
   */
  protected override continueFile(): void {
    this.mapper.continueFile(randomUUID());
    const last = findInOwnTail(this.file, lastEntryId);
    if (last !== undefined) this.mapper.chainOnto(last);
  }

  /**
   * Right before the queued entries are written: did another process (a resuming pi) append? The first of
   * them then chains onto its last entry, however long ago they were mapped; ours start on a line of their own.
   */
  protected override queuedPrefix(): string {
    const appended = this.file.foreignBytes();
    if (!appended) return '';
    this.noteForeign();
    const last = lastEntryId(appended.text);
    if (last !== undefined) this.mapper.chainQueueOnto(last);
    return appended.needsNewline ? '\n' : '';
  }
}

/** Where a session of `cwd` goes under `root`: directly in a custom session dir, else in the project's folder. */
function sessionDir(options: HarnessOptions): string {
  const custom = customSessionDir(options.env ?? {}, options.homedir ?? '');
  if (custom !== undefined && resolve(custom) === resolve(options.root)) return options.root;
  return join(options.root, 'sessions', projectFolder(options.cwd));
}

export const pi: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$PI_CODING_AGENT_SESSION_DIR (files directly), else $PI_CODING_AGENT_DIR, else ~/.pi/agent',
  defaultRoot(env, homedir) {
    return customSessionDir(env, homedir) ?? agentDir(env, homedir);
  },
  create(options: HarnessOptions) {
    const started = sessionStart(options.startedAt);
    const dir = sessionDir(options);
    let mapper: PiRecordMapper | undefined;
    const { sessionId, file, openingBytes } = createSessionFile(
      // A custom session dir is the root itself: nothing below it to make.
      dir, dir === options.root ? undefined : options.root, (id) => sessionFileName(started, id),
      (id) => {
        mapper = new PiRecordMapper({
          sessionId: id,
          cwd: options.cwd,
          startedAt: started.toISOString(),
          ...(options.model !== undefined ? { model: options.model } : {}),
          ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
        });
        return jsonLine(mapper.header());
      },
      () => uuidV7(started),
    );
    return new PiHarness(sessionId, options.cwd, file, mapper!, options.warn, { removable: openingBytes });
  },
  reopen(options, session) {
    if (!session.sessionFile.startsWith(resolve(options.root) + sep)) {
      throw new Error(`${session.sessionFile} is not a session under ${options.root}`);
    }
    const file = AppendFile.reopen(session.sessionFile, session.mark);
    const mapper = new PiRecordMapper({
      sessionId: session.sessionId,
      cwd: options.cwd,
      startedAt: new Date(0).toISOString(),
      ...(options.model !== undefined ? { model: options.model } : {}),
    });
    return new PiHarness(session.sessionId, options.cwd, file, mapper, options.warn, { reopened: true });
  },
};
