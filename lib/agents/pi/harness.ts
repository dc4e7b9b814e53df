// The Pi harness: `<agent dir>/sessions/--<cwd>--/<ISO time>_<uuid>.jsonl` (or the file directly in
// `$PI_CODING_AGENT_SESSION_DIR`), sessions that `pi --session <file>` continues. A resuming pi appends its entries
// to the same file, chained onto our last one; later entries of ours chain onto its last, so the next resume sees
// both conversations (pi continues the chain that ends at the file's last line).
import { join, resolve, sep } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { AppendFile, type FileMark, foreignAppendWarning } from '../../session/append-file.js';
import type { FidelityAccount } from '../../session/fidelity.js';
import { findInOwnTail, Replay } from '../../session/reopened.js';
import { isObject } from '../../util/is-object.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../../session/types.js';
import { agentDir, customSessionDir, projectFolder, sessionFileName, sessionStart, shellWord, uuidV7 } from './paths.js';
import { FORMAT, PiRecordMapper, type PiEntry } from './records.js';

export { FORMAT };

function serialize(entry: PiEntry): string {
  try {
    return `${JSON.stringify(entry)}\n`;
  } catch (error) {
    // Too deeply nested for JSON.stringify, or similar: the event is rejected, the harness goes on.
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

/** The id of the last whole line in `text` that is an entry (has a string `id` and a `parentId` member). */
export function lastEntryId(text: string): string | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]!);
    } catch {
      continue; // a damaged line: pi skips it too
    }
    if (isObject(value) && 'parentId' in value && typeof value.id === 'string') return value.id;
  }
  return undefined;
}

class PiHarness implements SessionHarness {
  readonly format = FORMAT;
  /** Entries mapped but not written yet, each with its line (serialised at once, so a bad event is rejected then). */
  private pending: { entry: PiEntry; line: string }[] = [];
  private foreign = false;
  private readonly replay: Replay;
  mark: FileMark | undefined;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    private readonly file: AppendFile,
    private readonly mapper: PiRecordMapper,
    private readonly warn: (message: string) => void,
    /** The bytes of the header written at creation (undefined: reopened, never discarded). */
    private readonly headerBytes: number | undefined,
  ) {
    this.replay = new Replay(headerBytes === undefined);
  }

  get sessionFile(): string {
    return this.file.path;
  }

  /** Named by its file: `--session <id>` found in another project's folder asks on stdin whether to fork it. */
  get resumeCommand(): string {
    return `pi --session ${shellWord(this.file.path)}`;
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
      // Written by the earlier run (its warnings and account were given then): only the state moves on.
      this.fidelity.muted(() => this.mapper.map(event));
      return;
    }
    if (step === 'first') this.continueFile();
    const { entries, warnings } = this.mapper.map(event);
    for (const warning of warnings) this.warn(`${where}: ${warning}`);
    this.pending.push(...entries.map((entry) => ({ entry, line: serialize(entry) })));
  }

  /**
   * Append the pending entries. Whether another process (a resuming pi) appended is checked right before, not
   * when they were mapped: the first of them then chains onto its last entry, however long the batch took.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const owed = this.checkForeign();
    const data = owed + this.pending.map(({ line }) => line).join('');
    this.pending = [];
    this.file.write(data);
  }

  finish(): void {
    this.finishOrDiscard(false);
  }

  /** A file holding only its header is no conversation: removed (when `discard`). */
  finishOrDiscard(discard = true): boolean {
    try {
      if (!this.replay.active) {
        for (const entry of this.mapper.close()) this.pending.push({ entry, line: serialize(entry) });
      }
      this.flush();
      this.mark = this.file.mark();
      return discard && this.headerBytes !== undefined && this.file.removeIfHolding(this.headerBytes);
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.pending = [];
    this.file.discard();
  }

  /**
   * The first entry appended to a reopened session: the earlier run wrote its held message at its end, so the
   * replay's is dropped, and the chain goes on from the file's last entry of ours (or a resuming pi's: checkForeign).
   */
  private continueFile(): void {
    this.mapper.close();
    const last = findInOwnTail(this.file, lastEntryId);
    if (last !== undefined) this.mapper.chainOnto(last);
  }

  /**
   * Did someone else (a resuming pi) append since our last write? Then the first pending entry chains onto its last
   * entry (the others, and the mapper's next ones, chain onto ours as before). Returns the newline owed when its
   * bytes did not end with one.
   */
  private checkForeign(): string {
    const appended = this.file.foreignBytes();
    if (!appended) return '';
    if (!this.foreign) {
      this.foreign = true;
      this.warn(foreignAppendWarning(this.file.path, 'later entries chain onto what it wrote, so the next resume sees both'));
    }
    const last = lastEntryId(appended.text);
    if (last !== undefined) {
      const first = this.pending[0]!;
      first.entry.parentId = last;
      first.line = serialize(first.entry);
    }
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
    let sessionId = '';
    const { file } = AppendFile.createExclusive(dir, () => {
      sessionId = uuidV7(started);
      return sessionFileName(started, sessionId);
    }, dir === options.root ? undefined : options.root); // a custom session dir is the root itself: nothing below it to make
    const mapper = new PiRecordMapper({
      sessionId,
      cwd: options.cwd,
      startedAt: started.toISOString(),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
    });
    const header = serialize(mapper.header());
    try {
      // Written at once: the file is a valid (empty) session from the moment the session line names it.
      file.write(header);
      file.markOpened();
    } catch (error) {
      file.discard();
      throw error;
    }
    return new PiHarness(sessionId, options.cwd, file, mapper, options.warn, Buffer.byteLength(header));
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
    return new PiHarness(session.sessionId, options.cwd, file, mapper, options.warn, undefined);
  },
};
