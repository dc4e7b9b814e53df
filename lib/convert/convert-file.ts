// Converts one file: read it in 1 MiB chunks (hashing what is read), decide its format from the first
// non-blank line, map lines to generic events and write them through the session logger, one write per
// chunk as the filter does. The session opens at the first conversation event, so a file without one leaves
// no empty session behind. Used inline and from worker threads alike; it never throws.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { sep } from 'node:path';
import type { GenericEvent } from '../events.js';
import { openSessions } from '../filter.js';
import { findHarness } from '../harnesses/index.js';
import type { HarnessOptions, SessionHarness } from '../harnesses/types.js';
import { isObject } from '../input/foreign.js';
import { detectInputFormat, findInputFormat } from '../input/index.js';
import { LineSplitter, type Line } from '../input/lines.js';
import { PrettyDocument } from '../input/pretty-document.js';
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
 * SHA-256 of a file read in chunks: of all of it, of its complete lines (up to its last newline: a line
 * still being written is converted later), and of the prefixes of `prefixes` bytes (what earlier runs converted).
 */
export class FileHash {
  private readonly hash = createHash('sha256');
  private atNewline: Hash | undefined;
  private position = 0;
  private completeSize = 0;
  /** The hashes of the wanted prefixes the file was long enough for. */
  readonly prefixes = new Map<number, string>();

  constructor(private readonly wanted: readonly number[] = []) {}

  update(chunk: Buffer): void {
    const end = this.position + chunk.length;
    for (const size of this.wanted) {
      if (size > this.position && size <= end && !this.prefixes.has(size)) {
        this.prefixes.set(size, this.hash.copy().update(chunk.subarray(0, size - this.position)).digest('hex'));
      }
    }
    const nl = chunk.lastIndexOf(10);
    if (nl === -1) this.hash.update(chunk);
    else {
      this.hash.update(nl === chunk.length - 1 ? chunk : chunk.subarray(0, nl + 1));
      this.atNewline = this.hash.copy();
      this.completeSize = this.position + nl + 1;
      if (nl < chunk.length - 1) this.hash.update(chunk.subarray(nl + 1));
    }
    this.position = end;
  }

  all(): { size: number; sha256: string } {
    return { size: this.position, sha256: this.hash.copy().digest('hex') };
  }

  complete(): { size: number; sha256: string } {
    return { size: this.completeSize, sha256: (this.atNewline ?? createHash('sha256')).copy().digest('hex') };
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
      // Size or mtime moved: the content decides. A file only touched keeps its session; one that only
      // grew (the bytes converted before are still its start) is appended to it; any other change makes a new one.
      const hash = new FileHash(verify.map((t) => t.known!.size));
      for await (const chunk of chunks(file)) {
        hash.update(chunk);
        hooks.progress?.(chunk.length);
      }
      const all = hash.all();
      const complete = hash.complete();
      outcome.bytes += all.size;
      for (const target of verify) {
        const known = target.known!;
        const match = [all, complete].find((h) => h.size === known.size && h.sha256 === known.sha256);
        if (match) {
          fingerprint = { size: match.size, mtime_ms: st.mtimeMs, sha256: match.sha256 };
          same.push(target);
        } else if (hash.prefixes.get(known.size) === known.sha256 && known.session_mark !== undefined
          && findHarness(target.format)?.reopen !== undefined) {
          write.push({ ...target, append: true });
        } else {
          write.push(target);
        }
      }
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
  /** The last line is unended and not JSON yet (still being written): it is left for a later run. */
  private partial = false;
  /** Events the input format gave only at the end. */
  private tailEvents = 0;
  /** Reading bytes an earlier run converted: their warnings were reported then. */
  private quiet = false;
  /** Sessions of earlier runs appended to, by format; the formats whose new part has begun. */
  private readonly reopened = new Map<string, SessionHarness>();
  private readonly continued = new Set<string>();
  private readonly endsAfterLine: number[] = [];
  /** A pretty-printed document opening the file, being gathered. */
  private document: PrettyDocument | undefined;

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
    if (this.quiet) return;
    this.outcome.warnings += 1;
    if (this.outcome.messages.length < MAX_MESSAGES) this.outcome.messages.push(message);
  };

  async read(file: number, mtimeMs: number, hooks: ConvertHooks): Promise<void> {
    const hash = new FileHash();
    const splitter = new LineSplitter(this.settings.maxLineBytes !== undefined ? { maxLineBytes: this.settings.maxLineBytes } : {});
    // Where the bytes an earlier run converted end, per session appended to: the lines before are mapped again
    // (their events rebuild the state a turn continues from) and written only to new sessions.
    const ends = [...new Set(this.targets.filter((t) => t.append).map((t) => t.known!.size))].sort((a, b) => a - b);
    this.quiet = ends.length > 0;
    let position = 0;
    try {
      for await (const chunk of chunks(file)) {
        hash.update(chunk);
        hooks.progress?.(chunk.length);
        const now = new Date().toISOString();
        let from = 0;
        while (from < chunk.length && !this.stop) {
          const end = ends[0] !== undefined && ends[0] <= position + chunk.length ? ends.shift()! : undefined;
          const to = end !== undefined ? end - position : chunk.length;
          this.lines(splitter.push(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to)), now);
          // A line the earlier run converted unended is still its own when it ends now.
          if (end !== undefined) this.reached(end, splitter.holding);
          from = to;
        }
        position += chunk.length;
        this.logger?.flush();
        if (this.logger?.failed) this.stop ??= { status: 'failed', error: this.loggerError ?? 'cannot write the session' };
        if (this.stop) break;
      }
      if (!this.stop) {
        const now = new Date().toISOString();
        for (const line of splitter.end()) this.line(line, now, true);
        if (this.document) {
          this.outcome.records += 1;
          this.warn(`${this.task.path}:${this.document.first}: the JSON document starting here does not end (no closing "}" in the first column)`);
          this.document = undefined;
        }
        if (!this.stop && this.adapter) {
          const events = this.adapter.end(now, (message) => this.warn(`${this.task.path}: ${message}`));
          this.tailEvents = events.length;
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
    const converted = this.partial ? hash.complete() : hash.all();
    this.outcome.bytes += hash.all().size;
    this.finish({ size: converted.size, mtime_ms: mtimeMs, sha256: converted.sha256 });
  }

  private lines(lines: Line[], now: string): void {
    for (const line of lines) {
      this.line(line, now);
      if (this.stop) return;
      if (this.endsAfterLine.length > 0) for (const end of this.endsAfterLine.splice(0)) this.reached(end, false);
    }
  }

  /**
   * The bytes an earlier run converted end here (`unended`: within a line, which then belongs to them): the
   * sessions it wrote take the events from here on, after those that run had only at its end.
   */
  private reached(end: number, unended: boolean): void {
    if (unended) {
      this.endsAfterLine.push(end);
      return;
    }
    this.quiet = false;
    for (const target of this.targets) {
      if (!target.append || target.known!.size !== end) continue;
      this.continued.add(target.format);
      this.reopened.get(target.format)?.continueAfter?.(target.known!.tail_events ?? 0);
    }
  }

  private finish(fingerprint: NonNullable<ConvertOutcome['fingerprint']>): void {
    const o = this.outcome;
    if (this.inputFormat !== undefined) o.input_format = this.inputFormat;
    if (this.cwd !== undefined) o.cwd = this.cwd;
    o.harnesses = this.harnesses.map((h) => {
      const known = this.targets.find((t) => t.format === h.format)?.known;
      return {
        format: h.format, session_id: h.sessionId, session_file: h.sessionFile,
        ...(known !== undefined && known.session_id !== h.sessionId ? { previous_session_id: known.session_id } : {}),
      };
    });
    for (const h of this.harnesses) if (h.mark !== undefined) (o.marks ??= {})[h.format] = h.mark;
    o.tail_events = this.tailEvents;
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
    o.reason = this.reopened.size > 0 ? 'grew' : this.task.reason;
    o.fingerprint = fingerprint;
  }

  private line(line: Line, now: string, last = false): void {
    let where = `${this.task.path}:${line.no}`;
    let value: unknown;
    /** The value is this line's own (not a document's): writers may copy its long strings from its bytes. */
    let own = true;
    if (this.document || (!this.checked && (this.document = PrettyDocument.start(line, this.settings.maxLineBytes)))) {
      // A pretty-printed document opening the file (an OpenCode export, a legacy Gemini chat): one record.
      const document = this.document;
      if (document.first === line.no) return;
      let whole: ReturnType<PrettyDocument['push']>;
      try {
        whole = document.push(line);
      } catch {
        this.document = undefined;
        this.stop = { status: 'skipped', reason: 'unrecognised' };
        return;
      }
      if (!whole) return;
      this.document = undefined;
      this.outcome.records += 1;
      where = `${this.task.path}:${document.first}`;
      own = false;
      if ('over' in whole) {
        this.warn(`${where}: JSON document of ${whole.over} bytes is over the limit; skipped`);
        return;
      }
      value = whole.value;
    } else {
      this.outcome.records += 1;
      if (line.text === undefined) {
        this.warn(`${where}: line of ${line.bytes} bytes is over the limit; skipped`);
        return;
      }
      if (line.invalidUtf8) this.warn(`${where}: invalid UTF-8 replaced with U+FFFD`);
      try {
        value = JSON.parse(line.text);
      } catch (error) {
        if (last && this.inputFormat) {
          // The writer has not finished this line yet: the next run takes it.
          this.outcome.records -= 1;
          this.partial = true;
          return;
        }
        if (!this.inputFormat) {
          // The first line is not JSON: not a log this tool reads.
          this.stop = { status: 'skipped', reason: 'unrecognised' };
          return;
        }
        this.warn(`${where}: invalid JSON: ${(error as Error).message}`);
        return;
      }
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
    const source = events.length > 0 && own ? jsonSourceOf(line, value) : undefined;
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
    const provenance = provenanceFor(this.inputFormat ?? 'unknown', this.task.real);
    const fresh: ConvertTarget[] = [];
    const harnesses = new Map<string, SessionHarness>();
    for (const target of this.targets) {
      const known = target.known;
      if (!target.append || !known?.session_mark) {
        fresh.push(target);
        continue;
      }
      // The session keeps the project it was written for.
      const options: HarnessOptions = {
        root: target.root, cwd: known.cwd, cwdFromInput: true, env: this.settings.env, homedir: this.settings.homedir,
        provenance, warn: this.warn, ...(this.settings.model !== undefined ? { model: this.settings.model } : {}),
      };
      try {
        const harness = findHarness(target.format)!.reopen!(options, {
          sessionId: known.session_id, sessionFile: known.session_file, mark: known.session_mark,
        });
        harnesses.set(target.format, harness);
        this.reopened.set(target.format, harness);
        this.cwd = known.cwd;
        if (this.continued.has(target.format)) harness.continueAfter?.(known.tail_events ?? 0);
      } catch (error) {
        const quiet = this.quiet;
        this.quiet = false;
        this.warn(`${this.task.path}: cannot append to ${known.session_file}: ${(error as Error).message}; converted into a new session`);
        this.quiet = quiet;
        fresh.push({ ...target, append: false });
      }
    }
    if (fresh.length > 0) {
      const sessionDirs: Record<string, string> = {};
      for (const target of fresh) sessionDirs[target.format] = target.root;
      try {
        const created = openSessions({
          formats: fresh.map((t) => t.format),
          sessionDirs,
          agentName: 'asyncai-log',
          env: this.settings.env,
          homedir: this.settings.homedir,
          processCwd: this.settings.processCwd,
          provenance,
          ...(this.settings.model !== undefined ? { model: this.settings.model } : {}),
        // Converted sessions are never stamped with what is on disk now (the branch checked out today).
        }, { path: cwd, fromInput: true }, this.warn, startedAt);
        created.forEach((harness) => harnesses.set(harness.format, harness));
      } catch (error) {
        for (const harness of harnesses.values()) harness.abandon();
        this.stop = { status: 'failed', error: `cannot create the session: ${(error as Error).message}` };
        return;
      }
    }
    // A new session from this file replays nothing: it is written from the start.
    this.targets = this.targets.map((t) => (t.append && !this.reopened.has(t.format) ? { ...t, append: false } : t));
    this.harnesses = this.targets.map((t) => harnesses.get(t.format)!);
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
