// The skeleton of a harness that writes one JSON line file (Claude Code, Codex, Gemini CLI, OpenCode's
// journal): the replay of a reopened session, the batch of lines written in one append per flush, the look
// for another process's appends before a batch, and finish / finishOrDiscard / abandon. An agent's harness
// extends it with only what differs: its mapping and serialisation, its reaction to foreign bytes, its opening.
import { randomUUID } from 'node:crypto';
import type { GenericEvent } from '../events.js';
import type { JsonPieces } from '../json/spliced-json.js';
import type { JsonSource } from '../json/raw-json.js';
import { AppendFile, type FileMark, type ForeignBytes, foreignAppendWarning } from './append-file.js';
import type { FidelityAccount } from './fidelity.js';
import { findInOwnTail, Replay } from './reopened.js';
import { EventRejected, type HarnessOptions, type SessionHarness } from './types.js';

/** What the skeleton asks of an agent's mapper: its account, and `map` (run alone for a replayed event). */
export interface LineMapper {
  readonly fidelity: FidelityAccount;
  map(event: GenericEvent): unknown;
}

/** How a session file was opened: reopened (an earlier run's), or created with `opening` bytes written. */
export interface Opened {
  /** An earlier run wrote it: the events it wrote are replayed first (see `continueAfter`). */
  reopened?: boolean;
  /**
   * The bytes opening wrote (0: none), when a session holding only those is no conversation and
   * `finishOrDiscard` removes it. Undefined: never removed.
   */
  removable?: number;
}

/** `value` as one line of JSON; a value JSON cannot write (too deeply nested) rejects its event, the harness goes on. */
export function jsonLine(value: unknown): string {
  try {
    return `${JSON.stringify(value)}\n`;
  } catch (error) {
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

/**
 * A new session file `<name(id)>` in `dir` (below `root`; `root` undefined: `dir` is the root itself), `id` drawn
 * by `newId` (again on a collision).
 * `opening`, when given, is written at once (the file is a valid empty session from the moment the session
 * line names it); when that fails the file is removed. Returns the id, the file and the opening's bytes.
 */
export function createSessionFile(
  dir: string, root: string | undefined, name: (sessionId: string) => string, opening?: (sessionId: string) => string,
  newId: () => string = randomUUID,
): { sessionId: string; file: AppendFile; openingBytes: number } {
  let sessionId = '';
  const { file } = AppendFile.createExclusive(dir, () => name(sessionId = newId()), root);
  if (opening === undefined) return { sessionId, file, openingBytes: 0 };
  try {
    const text = opening(sessionId);
    file.write(text);
    file.markOpened();
    return { sessionId, file, openingBytes: Buffer.byteLength(text) };
  } catch (error) {
    file.discard();
    throw error;
  }
}

/**
 * The base of a line-file harness. An event is mapped at once (`mapEvent`), its lines serialised onto
 * `pending` and staged in the file; `flush` writes them in one append. Before the first event of a batch the
 * file is looked at for bytes another process appended (a resuming CLI): the agent's `foreignAppended` says
 * what follows from them. A reopened session maps its earlier run's events again without writing or counting
 * them (`Replay`), and `continueFile` prepares the first new one.
 */
export abstract class JsonlHarness<M extends LineMapper> implements SessionHarness {
  abstract readonly format: string;
  abstract readonly resumeCommand: string;
  mark: FileMark | undefined;
  /** The pieces of the event at hand (text, and raw bytes spliced from the input), staged once all are serialised. */
  protected pending: JsonPieces = [];
  /** Reopened: the events an earlier run wrote, mapped without writing them. */
  protected readonly replay: Replay;
  /** Another process appended to the file (said once). */
  protected foreign = false;
  /** The end of the warning given when another process appended: what this harness does about it. */
  protected foreignThen = 'later lines follow what it wrote, so the next resume sees both';
  private readonly removable: number | undefined;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    protected readonly file: AppendFile,
    protected readonly mapper: M,
    protected readonly warn: HarnessOptions['warn'],
    opened: Opened,
  ) {
    this.replay = new Replay(opened.reopened === true);
    this.removable = opened.removable;
  }

  /** Map `event` and push its serialised lines onto `pending` (or keep them queued until `flush`). */
  protected abstract mapEvent(event: GenericEvent, where: string, source?: JsonSource): void;

  /** Another process appended `appended` (a newline it left owed is already pending): what follows from it. */
  protected abstract foreignAppended(appended: ForeignBytes): void;

  /** A reopened session, before its first new event: take up where the file's earlier run left off. */
  protected continueFile(): void {}

  /** Before the first event of a batch: bytes another process appended are looked for. */
  protected batchStarts(): void {
    this.checkForeign();
  }

  /** Before a batch's one write: lines that close it (a checkpoint). */
  protected batchEnds(): void {}

  /** At the end of the session, before the last flush: the lines it ends with. */
  protected ending(): void {}

  get sessionFile(): string {
    return this.file.path;
  }

  get fidelity(): FidelityAccount {
    return this.mapper.fidelity;
  }

  continueAfter(skip: number): void {
    this.replay.continueAfter(skip);
  }

  add(event: GenericEvent, where: string, source?: JsonSource): void {
    const step = this.replay.next();
    if (step === 'replay') {
      // Written by the earlier run (its warnings and account were given then): only the mapper's state moves on.
      this.fidelity.muted(() => this.mapper.map(event));
      return;
    }
    if (step === 'first') this.continueFile();
    if (!this.holding) this.batchStarts();
    this.mapEvent(event, where, source);
    if (this.pending.length === 0) return;
    // Encoded at once, written with the next flush.
    this.file.stage(this.pending);
    this.pending.length = 0;
  }

  flush(): void {
    if (!this.holding) return;
    this.batchEnds();
    const data = this.pending;
    this.pending = [];
    this.file.write(data);
  }

  finish(): void {
    this.end(false);
  }

  /** A session holding only what opening wrote (and nothing another process appended) is removed. */
  finishOrDiscard(): boolean {
    if (this.removable === undefined) {
      this.finish();
      return false;
    }
    return this.end(true);
  }

  abandon(): void {
    this.pending = [];
    this.file.discard();
  }

  /** Lines are serialised or staged and not yet written: a batch is under way. */
  protected get holding(): boolean {
    return this.pending.length > 0 || this.file.holdsStaged;
  }

  /** Did someone else append? Said once; a line they left unfinished is ended; then the agent's reaction. */
  protected checkForeign(): void {
    const appended = this.file.foreignBytes();
    if (!appended) return;
    this.noteForeign();
    if (appended.needsNewline) this.pending.push('\n');
    this.foreignAppended(appended);
  }

  /** The warning that another process appended, given once. */
  protected noteForeign(): void {
    if (this.foreign) return;
    this.foreign = true;
    this.warn(foreignAppendWarning(this.file.path, this.foreignThen));
  }

  private end(discard: boolean): boolean {
    try {
      this.ending();
      this.flush();
      this.mark = this.file.mark();
      return discard && this.file.removeIfHolding(this.removable!);
    } finally {
      this.file.close();
    }
  }
}

/** A mapper that queues its lines until they are drained, each message in its latest state; `map` gives warnings. */
export interface QueueingMapper extends LineMapper {
  map(event: GenericEvent): string[];
  readonly pending: boolean;
  drain(): unknown[];
}

/**
 * A line-file harness whose mapper queues its lines (a message is replaced in place until it is written, as
 * Gemini's are): they are serialised at the flush, behind `queuedPrefix`, and foreign bytes are looked for then
 * (in `queuedPrefix`), not as events come. A replayed event's lines are dropped: the file has them.
 */
export abstract class QueueingJsonlHarness<M extends QueueingMapper> extends JsonlHarness<M> {
  protected mapEvent(event: GenericEvent, where: string): void {
    for (const warning of this.mapper.map(event)) this.warn(`${where}: ${warning}`);
  }

  /** Foreign bytes are looked for when the queue is written (`queuedPrefix`), not as events come. */
  protected override batchStarts(): void {}

  /** Never called: see `batchStarts`. */
  protected foreignAppended(): void {}

  /** What goes before the queued lines about to be written (what another process appended meanwhile may call for). */
  protected queuedPrefix(): string {
    return '';
  }

  override flush(): void {
    if (this.replay.active) this.mapper.drain(); // the earlier run's lines are in the file already
    if (this.mapper.pending) this.pending.push(this.queuedPrefix() + this.mapper.drain().map(jsonLine).join(''));
    super.flush();
  }

  override abandon(): void {
    this.mapper.drain();
    super.abandon();
  }
}

/** A queueing mapper whose lines chain onto the one before, holding a response until its results come. */
export interface ChainingMapper extends QueueingMapper {
  /** Chain the next line onto the line of id `id` (the file's last, or what another process appended last). */
  chainOnto(id: string): void;
  /** The queued lines, and with `all` the held ones too. */
  drain(all?: boolean): unknown[];
  /** The session ends: what is held is queued, calls still awaiting a result are counted. */
  end(): void;
}

/**
 * A queueing harness whose lines form a chain (Qwen Code, Droid, Copilot CLI): a reopened file's lines are
 * continued from its last line of ours, and what another process (the CLI resuming the session) appended
 * meanwhile is chained onto before our next lines. The agent names only how a line's id is found
 * (`lastChainId`).
 */
export abstract class ChainedJsonlHarness<M extends ChainingMapper> extends QueueingJsonlHarness<M> {
  /** The id of the last chained line in `text`, or undefined. */
  protected abstract lastChainId(text: string): string | undefined;

  override add(event: GenericEvent, where: string, source?: JsonSource): void {
    super.add(event, where, source);
    // A replayed event's lines are in the file already; only the state moves on (the calls awaiting results).
    if (this.replay.active) this.mapper.drain(true);
  }

  /** New lines chain onto the file's last line of ours (what another process appended since: at the next flush). */
  protected override continueFile(): void {
    const last = findInOwnTail(this.file, (text) => this.lastChainId(text));
    if (last !== undefined) this.mapper.chainOnto(last);
  }

  /** Calls still awaiting a result are counted; a reopened session with nothing new: the run that wrote it ended it. */
  protected override ending(): void {
    if (this.replay.active) this.mapper.drain(true);
    else this.mapper.end();
  }

  /** Before our next lines: what another process appended meanwhile; ours start on a line of their own, chained onto its last. */
  protected override queuedPrefix(): string {
    const appended = this.file.foreignBytes();
    if (!appended) return '';
    const last = this.lastChainId(appended.text);
    if (last !== undefined) this.mapper.chainOnto(last);
    this.noteForeign();
    return appended.needsNewline ? '\n' : '';
  }
}
