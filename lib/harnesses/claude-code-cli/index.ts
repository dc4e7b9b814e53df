// The Claude Code CLI harness: `<root>/projects/<encoded-cwd>/<uuid>.jsonl`, records that
// `claude --resume <uuid>` loads. It notices bytes appended by a concurrent resume and keeps its later
// records on the branch the next resume will pick (chained onto the file's last record, plus a checkpoint).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GenericEvent } from '../../events.js';
import type { JsonSource } from '../../input/raw-json.js';
import { AppendFile } from '../../session/append-file.js';
import { stringifySpliced, type JsonPieces } from '../../session/spliced-json.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../types.js';
import { encodeProjectDir } from './project-dir.js';
import { ClaudeRecordMapper, type ClaudeRecord } from './records.js';

export const FORMAT = 'claude-code-cli';

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

/** The uuid of the last complete uuid-bearing record in `text` (bytes another process appended). */
export function lastUuidIn(text: string): string | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record === 'object' && record !== null) {
        const uuid = (record as Record<string, unknown>).uuid;
        if (typeof uuid === 'string' && uuid !== '') return uuid;
      }
    } catch {
      // A damaged foreign line: look further back.
    }
  }
  return undefined;
}

class ClaudeHarness implements SessionHarness {
  readonly format = FORMAT;
  /** Serialised records waiting for the next flush (text, and raw bytes spliced from the input). */
  private pending: JsonPieces = [];
  private foreign = false;
  private readonly mapper: ClaudeRecordMapper;
  readonly cwd: string;

  constructor(
    readonly sessionId: string,
    private readonly file: AppendFile,
    options: HarnessOptions,
    private readonly warn: (message: string) => void,
  ) {
    this.cwd = options.cwd;
    const gitBranch = options.cwdFromInput ? undefined : readGitBranch(options.cwd);
    this.mapper = new ClaudeRecordMapper({
      sessionId,
      cwd: options.cwd,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(gitBranch !== undefined ? { gitBranch } : {}),
      ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
    });
  }

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    return `claude --resume ${this.sessionId}`;
  }

  add(event: GenericEvent, where: string, source?: JsonSource): void {
    if (this.pending.length === 0) this.checkForeign();
    const parent = this.mapper.parentUuid;
    const { records, warnings } = this.mapper.map(event);
    const start = this.pending.length;
    try {
      for (const record of records) serialize(record, this.pending, source);
    } catch (error) {
      this.pending.length = start;
      this.mapper.undo(parent); // the chain continues from the last record actually written
      throw error;
    }
    for (const warning of warnings) this.warn(`${where}: ${warning}`);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    if (this.foreign) {
      const checkpoint = this.mapper.lastPrompt();
      if (checkpoint) serialize(checkpoint, this.pending);
    }
    const data = this.pending;
    this.pending = [];
    this.file.write(data);
  }

  finish(): void {
    try {
      this.flush();
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.pending = [];
    this.file.close();
  }

  /** Before the first record of a batch: did someone else append? Then continue their branch. */
  private checkForeign(): void {
    const appended = this.file.foreignBytes();
    if (!appended) return;
    if (!this.foreign) {
      this.foreign = true;
      this.warn(`warn session.foreign_append: ${this.file.path} was appended to by another process (a concurrent resume?); `
        + 'later records are chained onto its last record so the next resume sees them');
    }
    const uuid = lastUuidIn(appended.text);
    if (uuid !== undefined) this.mapper.parentUuid = uuid;
    if (appended.needsNewline) this.pending.push('\n');
  }
}

/**
 * Append one record's JSON line to `out`. Records of long input lines splice the line's long strings in as
 * raw bytes (the same JSON value, without serialising them again).
 */
function serialize(record: ClaudeRecord, out: JsonPieces, source?: JsonSource): void {
  try {
    const json = source ? stringifySpliced(record, source) : JSON.stringify(record);
    if (typeof json === 'string') {
      out.push(`${json}\n`);
    } else {
      for (let i = 0; i < json.length - 1; i += 1) out.push(json[i]!);
      out.push(`${json[json.length - 1] as string}\n`);
    }
  } catch (error) {
    // Too deeply nested for JSON.stringify, or similar: the event is rejected, the harness goes on.
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

export const claudeCodeCli: HarnessFactory = {
  format: FORMAT,
  defaultRoot(env, homedir) {
    return env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR !== '' ? env.CLAUDE_CONFIG_DIR : join(homedir, '.claude');
  },
  create(options) {
    const dir = join(options.root, 'projects', encodeProjectDir(options.cwd));
    let sessionId = '';
    const { file } = AppendFile.createExclusive(dir, () => {
      sessionId = randomUUID();
      return `${sessionId}.jsonl`;
    });
    return new ClaudeHarness(sessionId, file, options, options.warn);
  },
};
