// Converts one file: read it in 1 MiB chunks (hashing what is read), decide its format from the first
// non-blank line, map lines to generic events and write them through the session logger, one write per
// chunk as the filter does. The session opens at the first conversation event, so a file without one leaves
// no empty session behind. Used inline and from worker threads alike; it never throws.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { sep } from 'node:path';
import type { GenericEvent } from '../events.js';
import { openSessions } from '../filter.js';
import type { SessionHarness } from '../harnesses/types.js';
import { isObject } from '../input/foreign.js';
import { detectInputFormat, findInputFormat } from '../input/index.js';
import { LineSplitter, type Line } from '../input/lines.js';
import { jsonSourceOf, type JsonSource } from '../input/raw-json.js';
import { InputError, type InputAdapter } from '../input/types.js';
import { SessionLogger } from '../session/logger.js';
import type { ConvertOutcome, ConvertSettings, ConvertTarget, ConvertTask, SessionRef } from './types.js';

/**
 * Bytes per read. What one read makes dies young: 64 KiB keeps it inside the young generation the launcher
 * sets (1 MiB reads were 30-50% slower there, and held more memory).
 */
const CHUNK_BYTES = 64 * 1024;
/** Diagnostics kept per file (all are counted). */
export const MAX_MESSAGES = 200;
/** Events held while waiting for the first conversation event; past this the session opens anyway. */
const MAX_HELD_EVENTS = 10_000;

/** The record field that marks a converted session (see `provenanceFor`). */
export const PROVENANCE_FIELD = 'asyncaiLog';

/**
 * The fields stamped on every record of a converted session: which tool converted it, from what input
 * format and which file. Usage tools and `convert` itself recognise converted sessions by this field.
 */
export function provenanceFor(inputFormat: string, source: string): Record<string, unknown> {
  return { [PROVENANCE_FIELD]: { convertedFrom: inputFormat, source } };
}

/**
 * A record of a session that `convert` wrote: it carries the provenance field (Claude Code records at top
 * level, Codex rollouts in their `session_meta` payload).
 */
export function isConvertedRecord(value: unknown): boolean {
  const marked = (record: unknown) => isObject(record) && isObject(record[PROVENANCE_FIELD])
    && typeof record[PROVENANCE_FIELD].convertedFrom === 'string';
  return marked(value) || (isObject(value) && marked(value.payload));
}

/**
 * A Codex rollout of a sub-agent thread: its `session_meta` says `thread_source: "subagent"` (and `source`
 * is `{subagent: {thread_spawn: {parent_thread_id, ...}}}`), as Codex 0.171.0 writes them.
 */
export function isCodexSubagent(value: unknown): boolean {
  if (!isObject(value) || value.type !== 'session_meta' || !isObject(value.payload)) return false;
  const payload = value.payload;
  return payload.thread_source === 'subagent' || (isObject(payload.source) && 'subagent' in payload.source);
}

/** Input formats that are a harness's own session files: such a file inside that harness's root is a session already. */
const NATIVE_FORMAT: Record<string, string> = { 'claude-transcript': 'claude-code-cli', 'codex-rollout': 'codex-cli', 'gemini-chat': 'gemini-cli',
  'opencode-export': 'opencode' };

/** Hooks the caller may give: bytes read so far (for progress), reported per chunk. */
export interface ConvertHooks {
  progress?(bytes: number): void;
}

function describe(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '')}` : err.message;
}

function emptyOutcome(index: number): ConvertOutcome {
  return { index, status: 'failed', harnesses: [], records: 0, events: 0, warnings: 0, messages: [], bytes: 0 };
}

/**
 * The file in fresh 1 MiB buffers (the line splitter keeps chunks while a line spans them). Reads are
 * synchronous, off the thread pool: the pool is busy with the fsyncs of finished files, and a read queued
 * behind them would stall the converter. The event loop turns between chunks (signals, progress, the
 * durability of finished files).
 */
async function* chunks(fd: number): AsyncGenerator<Buffer> {
  let position = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const bytesRead = readSync(fd, buf, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield bytesRead === CHUNK_BYTES ? buf : buf.subarray(0, bytesRead);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * fsync a file this run wrote, so a manifest entry never names a session a crash could lose. Asynchronous
 * (the thread pool waits for the disk): the caller syncs a finished file while the next one is converted.
 */
export async function syncFile(path: string): Promise<void> {
  const file = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Convert one source file for the task's targets. A target whose known session was made from the same
 * bytes (same SHA-256) is left alone; the others get a new session each. Resolves with the outcome, also
 * for unreadable files and write failures (status `failed`).
 */
export async function convertSource(task: ConvertTask, settings: ConvertSettings, hooks: ConvertHooks = {}): Promise<ConvertOutcome> {
  const outcome = emptyOutcome(task.index);
  let file: number;
  try {
    file = openSync(task.real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    outcome.error = `cannot read: ${describe(error)}`;
    return outcome;
  }
  try {
    const st = fstatSync(file);
    if (!st.isFile()) {
      outcome.error = 'not a regular file';
      return outcome;
    }
    const write = task.targets.filter((t) => t.rewrite || t.known === undefined);
    const verify = task.targets.filter((t) => !t.rewrite && t.known !== undefined);
    const same: ConvertTarget[] = [];
    let fingerprint: ConvertOutcome['fingerprint'];
    if (verify.length > 0) {
      // Size or mtime moved: the content decides. A file only touched keeps its session.
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of chunks(file)) {
        hash.update(chunk);
        size += chunk.length;
        hooks.progress?.(chunk.length);
      }
      outcome.bytes += size;
      fingerprint = { size, mtime_ms: st.mtimeMs, sha256: hash.digest('hex') };
      for (const target of verify) (target.known!.sha256 === fingerprint.sha256 ? same : write).push(target);
    }
    const unchanged: SessionRef[] = same.map((t) => ({
      format: t.format, session_id: t.known!.session_id, session_file: t.known!.session_file, unchanged: true,
    }));
    if (write.length === 0) {
      const known = same[0]!.known!;
      return {
        ...outcome, status: 'skipped', reason: 'unchanged', input_format: known.input_format, cwd: known.cwd,
        harnesses: unchanged, ...(fingerprint ? { fingerprint } : {}),
      };
    }
    const conversion = new FileConversion(task, settings, write, outcome);
    await conversion.read(file, st.mtimeMs, hooks);
    outcome.harnesses = [...unchanged, ...outcome.harnesses];
    // Formats in the order the task named them.
    const order = task.targets.map((t) => t.format);
    outcome.harnesses.sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
    return outcome;
  } catch (error) {
    outcome.status = 'failed';
    outcome.error = `cannot read: ${describe(error)}`;
    return outcome;
  } finally {
    closeSync(file);
  }
}

type Stop = { status: 'skipped'; reason: string } | { status: 'failed'; error: string } | { status: 'would-convert' };

/** The state of one file's conversion: its adapter, its sessions once open, and why it stopped early. */
class FileConversion {
  private adapter: InputAdapter | undefined;
  private inputFormat: string | undefined;
  private logger: SessionLogger | undefined;
  private harnesses: SessionHarness[] = [];
  private held: { event: GenericEvent; where: string }[] = [];
  private stop: Stop | undefined;
  private loggerError: string | undefined;
  private cwd: string | undefined;
  /** The first parsed line has been looked at (format, converted session, subagent). */
  private checked = false;

  constructor(
    private readonly task: ConvertTask,
    private readonly settings: ConvertSettings,
    private targets: ConvertTarget[],
    private readonly outcome: ConvertOutcome,
  ) {
    if (settings.from !== 'auto') {
      const format = findInputFormat(settings.from);
      if (format) {
        this.adapter = format.create();
        this.inputFormat = format.name;
      }
    }
  }

  private warn = (message: string): void => {
    this.outcome.warnings += 1;
    if (this.outcome.messages.length < MAX_MESSAGES) this.outcome.messages.push(message);
  };

  async read(file: number, mtimeMs: number, hooks: ConvertHooks): Promise<void> {
    const hash = createHash('sha256');
    let size = 0;
    const splitter = new LineSplitter(this.settings.maxLineBytes !== undefined ? { maxLineBytes: this.settings.maxLineBytes } : {});
    try {
      for await (const chunk of chunks(file)) {
        hash.update(chunk);
        size += chunk.length;
        hooks.progress?.(chunk.length);
        const now = new Date().toISOString();
        for (const line of splitter.push(chunk)) {
          this.line(line, now);
          if (this.stop) break;
        }
        this.logger?.flush();
        if (this.logger?.failed) this.stop ??= { status: 'failed', error: this.loggerError ?? 'cannot write the session' };
        if (this.stop) break;
      }
      if (!this.stop) {
        const now = new Date().toISOString();
        for (const line of splitter.end()) this.line(line, now);
        if (!this.stop && this.adapter) {
          const events = this.adapter.end(now, (message) => this.warn(`${this.task.path}: ${message}`));
          for (const event of events) this.emit(event, this.task.path);
        }
      }
    } catch (error) {
      // An fs error is the file's; anything else is a fault in mapping it (reported, never thrown on).
      const code = (error as NodeJS.ErrnoException).code;
      this.stop ??= { status: 'failed', error: `${code !== undefined ? 'cannot read' : 'cannot convert'}: ${describe(error)}` };
    }
    this.logger?.finish();
    if (this.logger?.failed) this.stop ??= { status: 'failed', error: this.loggerError ?? 'cannot write the session' };
    this.outcome.bytes += size;
    this.finish({ size, mtime_ms: mtimeMs, sha256: hash.digest('hex') });
  }

  private finish(fingerprint: NonNullable<ConvertOutcome['fingerprint']>): void {
    const o = this.outcome;
    if (this.inputFormat !== undefined) o.input_format = this.inputFormat;
    if (this.cwd !== undefined) o.cwd = this.cwd;
    o.harnesses = this.harnesses.map((h) => {
      const known = this.targets.find((t) => t.format === h.format)?.known;
      return {
        format: h.format, session_id: h.sessionId, session_file: h.sessionFile,
        ...(known !== undefined ? { previous_session_id: known.session_id } : {}),
      };
    });
    const stop = this.stop;
    if (stop) {
      o.status = stop.status;
      if (stop.status === 'skipped') o.reason = stop.reason;
      else if (stop.status === 'failed') o.error = stop.error;
      else o.reason = this.task.reason;
      return;
    }
    if (this.settings.dryRun && this.adapter && o.records > 0) {
      // The whole file was read without learning more (a stream that never names its project).
      this.cwd ??= this.sessionCwd();
      o.cwd = this.cwd;
      o.status = 'would-convert';
      o.reason = this.task.reason;
      return;
    }
    if (!this.logger) {
      o.status = 'skipped';
      o.reason = o.records === 0 ? 'empty' : this.adapter ? 'no-conversation' : 'unrecognised';
      return;
    }
    o.status = 'converted';
    o.reason = this.task.reason;
    o.fingerprint = fingerprint;
  }

  private line(line: Line, now: string): void {
    this.outcome.records += 1;
    const where = `${this.task.path}:${line.no}`;
    if (line.text === undefined) {
      this.warn(`${where}: line of ${line.bytes} bytes is over the limit; skipped`);
      return;
    }
    if (line.invalidUtf8) this.warn(`${where}: invalid UTF-8 replaced with U+FFFD`);
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      if (!this.inputFormat) {
        // The first line is not JSON: not a log this tool reads.
        this.stop = { status: 'skipped', reason: 'unrecognised' };
        return;
      }
      this.warn(`${where}: invalid JSON: ${(error as Error).message}`);
      return;
    }
    if (!this.checked) {
      this.checked = true;
      if (!this.first(value)) return;
    }
    let events: GenericEvent[];
    try {
      events = this.adapter!.map(value, now, (message) => this.warn(`${where}: ${message}`));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.warn(`${where}: ${error.message}`);
      return;
    }
    // Long lines: the harnesses may copy the line's long strings as they are instead of serialising them again.
    const source = events.length > 0 ? jsonSourceOf(line, value) : undefined;
    for (const event of events) {
      this.emit(event, where, source);
      if (this.stop) return;
    }
    // A dry run reads only until it knows where the session would go.
    if (this.settings.dryRun && !(this.adapter!.waitsForFacts?.() ?? false)) {
      this.cwd = this.sessionCwd();
      this.stop = { status: 'would-convert' };
    }
  }

  /** The first parsed line: decide the format and whether this file is converted at all. */
  private first(value: unknown): boolean {
    if (isConvertedRecord(value)) {
      this.stop = { status: 'skipped', reason: 'converted-session' };
      return false;
    }
    if (!this.settings.subagents && isCodexSubagent(value)) {
      this.stop = { status: 'skipped', reason: 'subagent' };
      return false;
    }
    if (!this.adapter) {
      const format = detectInputFormat(value);
      if (!format) {
        this.stop = { status: 'skipped', reason: 'unrecognised' };
        return false;
      }
      this.adapter = format.create();
      this.inputFormat = format.name;
    }
    // A Claude Code session under the Claude Code root it would be written to (say, `convert ~/.claude/projects
    // ~/.codex/sessions` with the default format) is a session there already: writing it again only doubles it.
    const native = NATIVE_FORMAT[this.inputFormat!];
    const inPlace = (t: ConvertTarget) => t.format === native && this.task.real.startsWith(`${t.root}${sep}`);
    if (this.targets.some(inPlace)) {
      this.targets = this.targets.filter((t) => !inPlace(t));
      if (this.targets.length === 0) {
        this.stop = { status: 'skipped', reason: 'already-a-session' };
        return false;
      }
    }
    return true;
  }

  private emit(event: GenericEvent, where: string, source?: JsonSource): void {
    this.outcome.events += 1;
    if (this.settings.dryRun) return;
    if (!this.settings.keepUsage && 'usage' in event && event.usage !== undefined) {
      const { usage: _dropped, ...rest } = event;
      event = rest as GenericEvent;
    }
    if (!this.logger) {
      // The session started with the first event of the log (held ones came before this one).
      const first = this.held[0]?.event.timestamp ?? event.timestamp;
      if (event.agent_id === undefined && event.type !== 'context') this.open(first);
      else if (this.held.length >= MAX_HELD_EVENTS) this.open(first);
      else {
        // Held past this line's batch: its bytes are not kept, so the event is serialised as usual later.
        this.held.push({ event, where });
        return;
      }
      if (!this.logger) return;
    }
    const rejected = this.logger.write(event, where, source);
    if (rejected !== undefined) this.warn(`${where}: ${rejected}`);
  }

  /** `--cwd`, else the project directory the input names, else the current directory. */
  private sessionCwd(): string {
    const facts = this.adapter?.facts() ?? {};
    return this.settings.cwd ?? (facts.cwd !== undefined && facts.cwd.startsWith('/') ? facts.cwd : this.settings.processCwd);
  }

  /** Open the sessions, started at `startedAt` (the log's first event time: Codex files a session by it). */
  private open(startedAt: string): void {
    if (this.stop) return;
    const cwd = this.sessionCwd();
    this.cwd = cwd;
    const sessionDirs: Record<string, string> = {};
    for (const target of this.targets) sessionDirs[target.format] = target.root;
    try {
      this.harnesses = openSessions({
        formats: this.targets.map((t) => t.format),
        sessionDirs,
        agentName: 'asyncai-log',
        env: this.settings.env,
        homedir: this.settings.homedir,
        processCwd: this.settings.processCwd,
        provenance: provenanceFor(this.inputFormat ?? 'unknown', this.task.real),
        ...(this.settings.model !== undefined ? { model: this.settings.model } : {}),
      // Converted sessions are never stamped with what is on disk now (the branch checked out today).
      }, { path: cwd, fromInput: true }, this.warn, startedAt);
    } catch (error) {
      this.stop = { status: 'failed', error: `cannot create the session: ${(error as Error).message}` };
      return;
    }
    this.logger = new SessionLogger(this.harnesses, (message) => {
      this.loggerError = message;
      this.warn(message);
    });
    const held = this.held;
    this.held = [];
    for (const { event, where } of held) {
      const rejected = this.logger.write(event, where);
      if (rejected !== undefined) this.warn(`${where}: ${rejected}`);
    }
  }
}
