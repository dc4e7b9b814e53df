// The Codex CLI harness: `<root>/sessions/YYYY/MM/DD/rollout-...-<uuid>.jsonl` (filed by the session's start),
// rollouts that `codex exec resume <uuid>` and `codex resume <uuid>` load. It notices lines a concurrent resume appended
// (Codex appends its resumed turn to the same file) and carries Codex's token totals on from them.
import { join, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { AppendFile, type ForeignBytes } from '../../session/append-file.js';
import { createSessionFile, jsonLine, JsonlHarness } from '../../session/jsonl-harness.js';
import { findInOwnTail } from '../../session/reopened.js';
import type { HarnessFactory, HarnessOptions } from '../../session/types.js';
import { FORMAT, CodexRecordMapper } from './records.js';
import { lastTotalIn } from './token-usage.js';
import { rolloutDirParts, rolloutFileName, sessionStart } from './rollout-path.js';

export { FORMAT };

class CodexHarness extends JsonlHarness<CodexRecordMapper> {
  readonly format = FORMAT;

  get resumeCommand(): string {
    return `codex resume ${this.sessionId}`;
  }

  protected mapEvent(event: GenericEvent, where: string): void {
    const { lines, warnings } = this.mapper.map(event);
    const text = lines.map(jsonLine).join('');
    for (const warning of warnings) this.warn(`${where}: ${warning}`);
    if (text !== '') this.pending.push(text);
  }

  /** The open turn ends with the session, as Codex ends its own with task_complete. */
  protected override ending(): void {
    // A reopened session with nothing new: its turn was completed by the run that wrote it.
    if (this.replay.active) return;
    if (!this.holding) this.checkForeign();
    for (const line of this.mapper.endTurn()) this.pending.push(jsonLine(line));
  }

  /**
   * The first line appended to a reopened session: the earlier run completed its open turn (task_complete),
   * so what follows starts a new one; the token totals run on from the file's last total of ours (and from a
   * resuming Codex's, when one appended since: `foreignAppended`).
   */
  protected override continueFile(): void {
    this.mapper.turnCompleted();
    const total = findInOwnTail(this.file, lastTotalIn);
    if (total) this.mapper.adoptTotal(total);
  }

  /** A resuming Codex appended before this batch. */
  protected foreignAppended(appended: ForeignBytes): void {
    // Codex's token totals run on through its resumed turn: continue from its last total, not from ours.
    const total = lastTotalIn(appended.text);
    if (total) this.mapper.adoptTotal(total);
    this.mapper.foreignAppended();
  }
}

export const codexCli: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$CODEX_HOME, else ~/.codex',
  defaultRoot(env, homedir) {
    return env.CODEX_HOME && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(homedir, '.codex');
  },
  create(options: HarnessOptions) {
    const started = sessionStart(options.startedAt);
    const dir = join(options.root, 'sessions', ...rolloutDirParts(started));
    let mapper: CodexRecordMapper | undefined;
    // The session_meta line, written at once; a rollout holding only it is no conversation.
    const { sessionId, file, openingBytes } = createSessionFile(dir, options.root, (id) => rolloutFileName(started, id), (id) => {
      mapper = new CodexRecordMapper({
        sessionId: id,
        cwd: options.cwd,
        startedAt: started.toISOString(),
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
      });
      return jsonLine(mapper.sessionMeta());
    });
    return new CodexHarness(sessionId, options.cwd, file, mapper!, options.warn, { removable: openingBytes });
  },
  reopen(options, session) {
    if (!session.sessionFile.startsWith(join(options.root, 'sessions') + sep)) {
      throw new Error(`${session.sessionFile} is not a session under ${options.root}`);
    }
    const file = AppendFile.reopen(session.sessionFile, session.mark);
    // No session_meta: the file has it. The mapper only needs what the lines after it name.
    const mapper = new CodexRecordMapper({
      sessionId: session.sessionId,
      cwd: options.cwd,
      startedAt: new Date(0).toISOString(),
      ...(options.model !== undefined ? { model: options.model } : {}),
    });
    return new CodexHarness(session.sessionId, options.cwd, file, mapper, options.warn, { reopened: true });
  },
};
