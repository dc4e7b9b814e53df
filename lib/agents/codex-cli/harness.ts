// The Codex CLI harness: `<root>/sessions/YYYY/MM/DD/rollout-...-<uuid>.jsonl` (filed by the session's start),
// rollouts that `codex exec resume <uuid>` and `codex resume <uuid>` load. It notices lines a concurrent resume appended
// (Codex appends its resumed turn to the same file) and carries Codex's token totals on from them.
import { randomUUID } from 'node:crypto';
import { join, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { AppendFile, type FileMark, foreignAppendWarning } from '../../session/append-file.js';
import { findInOwnTail, Replay } from '../../session/reopened.js';
import type { FidelityAccount } from '../../session/fidelity.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../../session/types.js';
import { FORMAT, CodexRecordMapper, lastTotalIn, type RolloutLine } from './records.js';
import { rolloutDirParts, rolloutFileName, sessionStart } from './rollout-path.js';

export { FORMAT };

class CodexHarness implements SessionHarness {
  readonly format = FORMAT;
  private pending: string[] = [];
  private foreign = false;
  /** Reopened: the events an earlier run wrote, mapped without writing them. */
  private readonly replay: Replay;
  mark: FileMark | undefined;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    private readonly file: AppendFile,
    private readonly mapper: CodexRecordMapper,
    private readonly warn: (message: string) => void,
    /** The bytes of the session_meta line written at creation (undefined: reopened, never discarded). */
    private readonly metaBytes: number | undefined,
  ) {
    this.replay = new Replay(metaBytes === undefined);
  }

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    return `codex resume ${this.sessionId}`;
  }

  get fidelity(): FidelityAccount {
    return this.mapper.fidelity;
  }

  continueAfter(skip: number): void {
    this.replay.continueAfter(skip);
  }

  add(event: GenericEvent, where: string): void {
    const step = this.replay.next();
    if (step === 'replay') {
      // Written by the earlier run (its warnings and account were given then): only the totals and call ids move on.
      this.fidelity.muted(() => this.mapper.map(event));
      return;
    }
    if (step === 'first') this.continueFile();
    if (this.pending.length === 0) this.checkForeign();
    const { lines, warnings } = this.mapper.map(event);
    const text = lines.map(serialize).join('');
    for (const warning of warnings) this.warn(`${where}: ${warning}`);
    if (text !== '') this.pending.push(text);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const data = this.pending.join('');
    this.pending = [];
    this.file.write(data);
  }

  finish(): void {
    this.finishOrDiscard(false);
  }

  /** A rollout holding only its session_meta line is no conversation: removed (when `discard`). */
  finishOrDiscard(discard = true): boolean {
    try {
      // A reopened session with nothing new: its turn was completed by the run that wrote it.
      if (!this.replay.active) {
        if (this.pending.length === 0) this.checkForeign();
        // The open turn ends with the session, as Codex ends its own with task_complete.
        for (const line of this.mapper.endTurn()) this.pending.push(serialize(line));
      }
      this.flush();
      this.mark = this.file.mark();
      return discard && this.metaBytes !== undefined && this.file.removeIfHolding(this.metaBytes);
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.pending = [];
    this.file.discard();
  }

  /**
   * The first line appended to a reopened session: the earlier run completed its open turn (task_complete),
   * so what follows starts a new one; the token totals run on from the file's last total of ours (and from a
   * resuming Codex's, when one appended since: `checkForeign`).
   */
  private continueFile(): void {
    this.mapper.turnCompleted();
    const total = findInOwnTail(this.file, lastTotalIn);
    if (total) this.mapper.adoptTotal(total);
  }

  /** Before the first line of a batch: did someone else (a resuming Codex) append? */
  private checkForeign(): void {
    const appended = this.file.foreignBytes();
    if (!appended) return;
    if (!this.foreign) {
      this.foreign = true;
      this.warn(foreignAppendWarning(this.file.path, 'later lines follow what it wrote, so the next resume sees both'));
    }
    // Codex's token totals run on through its resumed turn: continue from its last total, not from ours.
    const total = lastTotalIn(appended.text);
    if (total) this.mapper.adoptTotal(total);
    this.mapper.foreignAppended();
    if (appended.needsNewline) this.pending.push('\n');
  }
}

function serialize(line: RolloutLine): string {
  try {
    return `${JSON.stringify(line)}\n`;
  } catch (error) {
    // Too deeply nested for JSON.stringify, or similar: the event is rejected, the harness goes on.
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
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
    let sessionId = '';
    const { file } = AppendFile.createExclusive(dir, () => {
      sessionId = randomUUID();
      return rolloutFileName(started, sessionId);
    }, options.root);
    const mapper = new CodexRecordMapper({
      sessionId,
      cwd: options.cwd,
      startedAt: started.toISOString(),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
    });
    const meta = serialize(mapper.sessionMeta());
    try {
      // Written at once: the file is a valid (empty) session from the moment the session line names it.
      file.write(meta);
      file.markOpened();
    } catch (error) {
      file.discard();
      throw error;
    }
    return new CodexHarness(sessionId, options.cwd, file, mapper, options.warn, Buffer.byteLength(meta));
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
    return new CodexHarness(session.sessionId, options.cwd, file, mapper, options.warn, undefined);
  },
};
