// The Claude Code CLI harness: `<root>/projects/<encoded-cwd>/<uuid>.jsonl`, records that
// `claude --resume <uuid>` loads. It notices bytes appended by a concurrent resume and keeps its later
// records on the branch the next resume will pick (chained onto the file's last record, plus a checkpoint).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import type { JsonSource } from '../../json/raw-json.js';
import { AppendFile, type ForeignBytes } from '../../session/append-file.js';
import { createSessionFile, JsonlHarness } from '../../session/jsonl-harness.js';
import { lastChainRecordIn, lastUuidIn } from '../../session/chained-records.js';
import { findInOwnTail } from '../../session/reopened.js';
import type { HarnessFactory, HarnessOptions } from '../../session/types.js';
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

class ClaudeHarness extends JsonlHarness<ClaudeRecordMapper> {
  readonly format = FORMAT;
  protected override foreignThen = 'later records are chained onto its last record so the next resume sees them';
  /** Our last chain records, to copy forward when a concurrent writer forks from before them (see fork.ts). */
  private readonly recent = new RecentChain();
  /** The start of a line another process was still writing when we last looked. */
  private foreignTail = '';
  private warnedFork = false;

  get resumeCommand(): string {
    return `claude --resume ${this.sessionId}`;
  }

  protected mapEvent(event: GenericEvent, where: string, source?: JsonSource): void {
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
    for (const record of records) if (typeof record.uuid === 'string') this.recent.own(record.uuid);
    for (const warning of warnings) this.warn(`${where}: ${warning}`, once);
  }

  /** After another process appended: a checkpoint, so the next resume picks the branch our records are on. */
  protected override batchEnds(): void {
    if (!this.foreign) return;
    const checkpoint = this.mapper.lastPrompt();
    if (checkpoint) serializeRecord(checkpoint, this.pending);
  }

  /**
   * The first record appended to a reopened session follows the last record there of ours (a resume that
   * appended since is seen by `checkForeign`, as in a live session); a turn under way keeps its message id.
   */
  protected override continueFile(): void {
    const last = findInOwnTail(this.file, lastChainRecordIn);
    if (last === undefined) return;
    this.mapper.parentUuid = last.uuid;
    this.recent.own(last.uuid);
    const message = last.message as Record<string, unknown> | undefined;
    if (last.type === 'assistant' && typeof message?.id === 'string') {
      this.mapper.continueMessage(message.id, typeof last.requestId === 'string' ? last.requestId : undefined);
    }
  }

  /** Someone else appended before this batch: continue their branch. */
  protected foreignAppended(appended: ForeignBytes): void {
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

/** The mapper of session `sessionId`: the branch of the checkout it runs in, unless the cwd came from the input. */
function claudeMapper(sessionId: string, options: HarnessOptions): ClaudeRecordMapper {
  const gitBranch = options.cwdFromInput ? undefined : readGitBranch(options.cwd);
  const mapperOptions: MapperOptions = {
    sessionId,
    cwd: options.cwd,
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(gitBranch !== undefined ? { gitBranch } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  };
  return new ClaudeRecordMapper(mapperOptions);
}

export const claudeCodeCli: HarnessFactory = {
  format: FORMAT,
  rootHelp: '$CLAUDE_CONFIG_DIR, else ~/.claude',
  defaultModel: DEFAULT_MODEL,
  defaultRoot(env, homedir) {
    return env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(homedir, '.claude');
  },
  create(options) {
    const dir = join(options.root, 'projects', encodeProjectDir(options.cwd));
    const { sessionId, file } = createSessionFile(dir, options.root, (id) => `${id}.jsonl`);
    return new ClaudeHarness(sessionId, options.cwd, file, claudeMapper(sessionId, options), options.warn, { removable: 0 });
  },
  reopen(options, session) {
    if (!session.sessionFile.startsWith(join(options.root, 'projects', encodeProjectDir(options.cwd)) + sep)) {
      throw new Error(`${session.sessionFile} is not a session of ${options.cwd} under ${options.root}`);
    }
    const file = AppendFile.reopen(session.sessionFile, session.mark);
    return new ClaudeHarness(session.sessionId, options.cwd, file, claudeMapper(session.sessionId, options), options.warn, { reopened: true });
  },
};
