// The Claude Code CLI harness: `<root>/projects/<encoded-cwd>/<uuid>.jsonl`, records that
// `claude --resume <uuid>` loads. It notices bytes appended by a concurrent resume and keeps its later
// records on the branch the next resume will pick (chained onto the file's last record, plus a checkpoint).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import type { JsonSource } from '../../json/raw-json.js';
import { AppendFile, type FileMark, foreignAppendWarning } from '../../session/append-file.js';
import type { JsonPieces } from '../../json/spliced-json.js';
import { findInOwnTail, Replay } from '../../session/reopened.js';
import type { FidelityAccount } from '../../session/fidelity.js';
import { type HarnessFactory, type HarnessOptions, type SessionHarness } from '../../session/types.js';
import { copyChain, readRecords, RecentChain } from './fork.js';
import { encodeProjectDir } from './project-dir.js';
import { FORMAT, ClaudeRecordMapper, DEFAULT_MODEL, type MapperOptions } from './records.js';
import { serializeRecord } from './serialize.js';

export { FORMAT };

/**
 * The branch name of the git checkout holding `cwd`, read from `.git/HEAD` (nothing is executed).
 * Detached heads give "HEAD", as Claude Code writes; outside a checkout, undefined.
 */
export function readGitBranch(cwd: string): string | undefined {
  let dir = cwd;
  for (let depth = 0; depth < 64; depth += 1) {
    try {
      const head = readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim();
      const match = /^ref: refs\/heads\/(.+)$/.exec(head);
      return match ? match[1] : 'HEAD';
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
  return undefined;
}

/** The last complete uuid-bearing record in `text` (bytes another process appended, or our own read back). */
export function lastChainRecordIn(text: string): Record<string, unknown> & { uuid: string } | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record === 'object' && record !== null) {
        const uuid = (record as Record<string, unknown>).uuid;
        if (typeof uuid === 'string' && uuid !== '') return record as Record<string, unknown> & { uuid: string };
      }
    } catch {
      // A damaged foreign line: look further back.
    }
  }
  return undefined;
}

/** The uuid of the last complete uuid-bearing record in `text` (bytes another process appended). */
export function lastUuidIn(text: string): string | undefined {
  return lastChainRecordIn(text)?.uuid;
}

class ClaudeHarness implements SessionHarness {
  readonly format = FORMAT;
  /**
   * The records of the event at hand (text, and raw bytes spliced from the input), staged in the file once all
   * are serialised: encoded at once, written with the next flush.
   */
  private pending: JsonPieces = [];
  private foreign = false;
  /** Our last chain records, to copy forward when a concurrent writer forks from before them (see fork.ts). */
  private readonly recent = new RecentChain();
  /** The start of a line another process was still writing when we last looked. */
  private foreignTail = '';
  private warnedFork = false;
  private readonly mapper: ClaudeRecordMapper;
  readonly cwd: string;
  /** Reopened: the events an earlier run wrote, mapped without writing them. */
  private readonly replay: Replay;
  mark: FileMark | undefined;

  constructor(
    readonly sessionId: string,
    private readonly file: AppendFile,
    options: HarnessOptions,
    private readonly warn: HarnessOptions['warn'],
    reopened = false,
  ) {
    this.replay = new Replay(reopened);
    this.cwd = options.cwd;
    const gitBranch = options.cwdFromInput ? undefined : readGitBranch(options.cwd);
    const mapperOptions: MapperOptions = {
      sessionId,
      cwd: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(gitBranch !== undefined ? { gitBranch } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
    };
    this.mapper = new ClaudeRecordMapper(mapperOptions);
  }

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    return `claude --resume ${this.sessionId}`;
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
      // Written by the earlier run (its warnings and account were given then): only the state moves on.
      this.fidelity.muted(() => this.mapper.map(event));
      return;
    }
    if (step === 'first') this.chainOntoFile();
    if (!this.holding) this.checkForeign();
    const parent = this.mapper.parentUuid;
    const { records, warnings, once } = this.mapper.map(event);
    const start = this.pending.length;
    try {
      for (const record of records) serializeRecord(record, this.pending, source);
    } catch (error) {
      this.pending.length = start;
      this.mapper.undo(parent); // the chain continues from the last record actually written
      throw error;
    }
    this.stagePending();
    for (const record of records) if (typeof record.uuid === 'string') this.recent.own(record.uuid);
    for (const warning of warnings) this.warn(`${where}: ${warning}`, once);
  }

  flush(): void {
    if (!this.holding) return;
    if (this.foreign) {
      const checkpoint = this.mapper.lastPrompt();
      if (checkpoint) serializeRecord(checkpoint, this.pending);
    }
    const data = this.pending;
    this.pending = [];
    this.file.write(data);
  }

  finish(): void {
    try {
      this.flush();
      this.mark = this.file.mark();
    } finally {
      this.file.close();
    }
  }

  finishOrDiscard(): boolean {
    try {
      this.flush();
      return this.file.removeIfHolding(0);
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.pending = [];
    this.file.discard();
  }

  /**
   * The first record appended to a reopened session follows the last record there of ours (a resume that
   * appended since is seen by `checkForeign`, as in a live session); a turn under way keeps its message id.
   */
  private chainOntoFile(): void {
    const last = findInOwnTail(this.file, lastChainRecordIn);
    if (last === undefined) return;
    this.mapper.parentUuid = last.uuid;
    this.recent.own(last.uuid);
    const message = last.message as Record<string, unknown> | undefined;
    if (last.type === 'assistant' && typeof message?.id === 'string') this.mapper.continueMessage(message.id);
  }

  /** Records are serialised or staged and not yet written: a batch is under way. */
  private get holding(): boolean {
    return this.pending.length > 0 || this.file.holdsStaged;
  }

  private stagePending(): void {
    this.file.stage(this.pending);
    this.pending.length = 0;
  }

  /** Before the first record of a batch: did someone else append? Then continue their branch. */
  private checkForeign(): void {
    const appended = this.file.foreignBytes();
    if (!appended) return;
    if (!this.foreign) {
      this.foreign = true;
      this.warn(foreignAppendWarning(this.file.path, 'later records are chained onto its last record so the next resume sees them'));
    }
    if (appended.needsNewline) this.pending.push('\n');
    // Only complete lines are read; a line still being written is read with the next append.
    const text = this.foreignTail + appended.text;
    const cut = text.lastIndexOf('\n') + 1;
    this.foreignTail = text.length - cut > MAX_FOREIGN_TAIL ? '' : text.slice(cut);
    const complete = text.slice(0, cut);
    const uuid = lastUuidIn(complete);
    if (uuid === undefined) return;
    // The other writer continued from an older record (the leaf it loaded): what we wrote since is off its
    // branch. Copies of it follow the other writer's last record, so the next resume sees both.
    const skipped = this.recent.skippedBy(complete);
    this.mapper.parentUuid = uuid;
    this.recent.anchor(uuid);
    if (skipped !== undefined && skipped.length === 0) return;
    const records = skipped === undefined ? undefined : readRecords(this.file.path, skipped);
    if (!this.warnedFork) {
      this.warnedFork = true;
      this.warn(records === undefined
        ? 'warn session.concurrent_fork: another process continued the session from a record older than the ones kept for copying; records written meanwhile may be missing from the next resume'
        : 'warn session.concurrent_fork: another process continued the session from an earlier record; records written meanwhile are appended again after its records so the next resume sees them');
    }
    if (records === undefined) return;
    const { copies, messageIds } = copyChain(records, uuid, randomUUID);
    for (const copy of copies) {
      serializeRecord(copy, this.pending);
      this.recent.own(copy.uuid as string);
      this.mapper.parentUuid = copy.uuid as string;
    }
    // A turn still going on continues under its copy's message id.
    for (const [from, to] of messageIds) this.mapper.renameMessage(from, to);
  }
}

/** The longest unfinished foreign line carried to the next look (longer ones are not needed: no uuid there). */
const MAX_FOREIGN_TAIL = 1024 * 1024;

export const claudeCodeCli: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$CLAUDE_CONFIG_DIR, else ~/.claude',
  defaultModel: DEFAULT_MODEL,
  defaultRoot(env, homedir) {
    return env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(homedir, '.claude');
  },
  create(options) {
    const dir = join(options.root, 'projects', encodeProjectDir(options.cwd));
    let sessionId = '';
    const { file } = AppendFile.createExclusive(dir, () => {
      sessionId = randomUUID();
      return `${sessionId}.jsonl`;
    }, options.root);
    return new ClaudeHarness(sessionId, file, options, options.warn);
  },
  reopen(options, session) {
    if (!session.sessionFile.startsWith(join(options.root, 'projects', encodeProjectDir(options.cwd)) + sep)) {
      throw new Error(`${session.sessionFile} is not a session of ${options.cwd} under ${options.root}`);
    }
    const file = AppendFile.reopen(session.sessionFile, session.mark);
    return new ClaudeHarness(session.sessionId, file, options, options.warn, true);
  },
};
