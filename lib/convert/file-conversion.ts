// One file's conversion: reads its lines in small chunks (hashing what is read) through the event reader,
// decides its format from the first parsed line, and writes the events through the session logger, one
// write per chunk as the filter does. The session opens at the first conversation event, so a file without
// one leaves no empty session behind; a file that only grew is appended to the session of the earlier run.
import { sep } from 'node:path';
import type { GenericEvent } from '../events.js';
import { sessionFormatOf } from '../agents/index.js';
import type { SessionHarness } from '../session/types.js';
import { EventReader, type LineSink } from '../input/event-reader.js';
import { detectInputFormat, findInputFormat } from '../agents/input-formats.js';
import { bytesOf, isOverLong, LAZY_TEXT_BYTES, LineSplitter, type Line } from '../lines/lines.js';
import type { JsonSource } from '../json/raw-json.js';
import { AppendFile } from '../session/append-file.js';
import { SessionLogger } from '../session/logger.js';
import { sessionCwd } from '../agents/open-sessions.js';
import { chunks, FileHash } from './file-read.js';
import { UnreadMembers } from '../json/unread-members.js';
import { writeTail } from './tail-events.js';
import { unsupportedInput } from '../agents/input-formats.js';
import { describe, settleOutcome, type Stop } from './outcome.js';
import { cannotBeRead } from '../util/fs-errors.js';
import { isCodexSubagent, isConvertedRecord } from './provenance.js';
import { openTargets } from './targets.js';
import type { ConvertOutcome, ConvertSettings, ConvertTarget, ConvertTask } from './types.js';

/** Hooks the caller may give: bytes read so far (for progress), reported per chunk. */
export interface ConvertHooks {
  progress?(bytes: number): void;
}

/** Diagnostics kept per file (all are counted). */
export const MAX_MESSAGES = 200;
/** Events held while waiting for the first conversation event; past this the session opens anyway. */
const MAX_HELD_EVENTS = 10_000;

/** The state of one file's conversion: its adapter, its sessions once open, and why it stopped early. */
export class FileConversion {
  /** Lines -> values -> events, with the filter's diagnostics; its adapter is the file's input format's. */
  private readonly reader: EventReader;
  private readonly sink: LineSink<string> = {
    diagnostic: (where, message) => this.warn(`${where}: ${message}`),
    write: (event, where, source) => this.emit(event, where, source),
    stopped: () => this.stop !== undefined,
  };
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
  private reopened = new Map<string, SessionHarness>();
  private readonly continued = new Set<string>();
  private readonly endsAfterLine: number[] = [];
  /** Where the members the input format never reads lie in the huge lines it may want again (see readTail). */
  private unreadMembers: UnreadMembers | undefined;
  /** Dry run: a real run would have opened the sessions by now (at this file's first conversation event). */
  private wouldOpen = false;
  private wouldHold = 0;
  /** Dry run: whether the input then continued what was converted before (a real run asks when it opens). */
  private wouldExtend = true;

  constructor(
    private readonly task: ConvertTask,
    private readonly settings: ConvertSettings,
    private targets: ConvertTarget[],
    private readonly outcome: ConvertOutcome,
  ) {
    const format = settings.from !== 'auto' ? findInputFormat(settings.from) : undefined;
    this.inputFormat = format?.name;
    this.reader = new EventReader({
      ...(format ? { adapter: format.create() } : {}),
      ...(settings.maxLineBytes !== undefined ? { maxLineBytes: settings.maxLineBytes } : {}),
      documents: true,
      // The file is read again for a format that holds lines by number (a Claude Code transcript: see readTail).
      rereadable: true,
    });
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
        // A binary file (a database, an image) fails with one line, not a bad line per newline in it.
        const unsupported = position === 0 ? unsupportedInput(chunk) : undefined;
        if (unsupported !== undefined) {
          // Named on the command line, it fails; met in a walk (an image beside the logs), it is skipped as any
          // file that is no log is.
          this.stop = this.task.named ? { status: 'failed', error: unsupported } : { status: 'skipped', reason: 'unrecognised' };
          break;
        }
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
        const unended = this.reader.end();
        if (unended) {
          this.outcome.records += 1;
          this.warn(`${this.task.path}:${unended.no}: ${unended.bad}`);
        }
        if (!this.stop && this.reader.adapter) await this.readTail(file, position, now);
      }
    } catch (error) {
      // An fs error is the file's; anything else is a fault in mapping it (reported, never thrown on).
      const code = (error as NodeJS.ErrnoException).code;
      this.stop ??= { status: 'failed', error: code !== undefined ? cannotBeRead(error) : `cannot convert: ${describe(error)}` };
    }
    this.logger?.finish();
    if (this.logger?.failed) this.stop ??= { status: 'failed', error: this.loggerError ?? 'cannot write the session' };
    const converted = this.partial ? hash.complete() : hash.all();
    this.outcome.bytes += hash.all().size;
    this.finish({ size: converted.size, mtime_ms: mtimeMs, sha256: converted.sha256 });
  }

  /**
   * The events the input format gives only at the end (see tail-events.ts): one that held lines by number has
   * them read again from the file, the first `size` bytes.
   */
  private async readTail(file: number, size: number, now: string): Promise<void> {
    const path = this.task.path;
    await writeTail(this.reader.adapter!, file, size, now, {
      emit: (event, source) => {
        this.tailEvents += 1;
        const rejected = this.emit(event, path, source);
        if (rejected !== undefined) this.warn(`${path}: ${rejected}`);
      },
      warn: (message) => this.warn(`${path}: ${message}`),
      flush: () => this.logger?.flush(),
    }, {
      maxLineBytes: this.settings.maxLineBytes,
      collect: this.settings.collect ? (globalThis as { gc?: () => void }).gc : undefined,
      members: this.unreadMembers,
    });
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
    this.reader.adapter?.earlierEnd?.();
    for (const target of this.targets) {
      if (!target.append || target.known!.size !== end) continue;
      this.continued.add(target.format);
      this.reopened.get(target.format)?.continueAfter?.(target.known!.tail_events ?? 0);
    }
  }

  private finish(fingerprint: NonNullable<ConvertOutcome['fingerprint']>): void {
    settleOutcome(this.outcome, {
      task: this.task, targets: this.targets, harnesses: this.harnesses, inputFormat: this.inputFormat, cwd: this.cwd,
      stop: this.stop, tailEvents: this.tailEvents, recognised: this.reader.adapter !== undefined,
      opened: this.logger !== undefined || this.wouldOpen, appended: this.reopened.size > 0, dryRun: this.settings.dryRun,
      dryRunCwd: () => this.sessionCwd(), dryRunReason: () => this.dryRunReason(),
    }, fingerprint);
  }

  private line(line: Line, now: string, last = false): void {
    if (this.scanned(line)) return;
    // A huge line is parsed from its bytes (bounded memory), and every line gets the filter's diagnostics. A
    // pretty-printed document opening the file (an OpenCode export, a legacy Gemini chat) is one record.
    const read = this.reader.value(line);
    if (!read) return;
    if (read.before) {
      this.outcome.records += 1;
      if (!this.inputFormat) {
        // A lone `{` that opened no document: the first line is not JSON.
        this.stop = { status: 'skipped', reason: 'unrecognised' };
        return;
      }
      this.warn(`${this.task.path}:${read.before.no}: ${read.before.bad}`);
    }
    this.outcome.records += 1;
    const where = `${this.task.path}:${read.no ?? line.no}`;
    if ('bad' in read && !isOverLong(line)) {
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
    }
    if ('value' in read && !this.checked) {
      this.checked = true;
      if (!this.first(read.value)) return;
    }
    if (!this.reader.events(line, where, read, now, this.sink) || this.stop) return;
    if (read.no === undefined || read.no === line.no) this.noteUnread(line);
    // A dry run reads only until a session would open and it knows where (a file that would be appended to, to
    // its end: whether it only continues the earlier one is known there).
    if (this.settings.dryRun && this.wouldOpen && !this.targets.some((t) => t.append) && !(this.reader.adapter!.waitsForFacts?.() ?? false)) {
      this.cwd = this.sessionCwd();
      this.stop = { status: 'would-convert' };
    }
  }

  /**
   * A line the input format took from its bytes, without its value (InputAdapter.scan): one valid line after
   * the first, outside a pretty-printed document. It is then a record that made no events.
   */
  private scanned(line: Line): boolean {
    const adapter = this.reader.adapter;
    if (adapter?.scan === undefined || !this.checked || line.invalidUtf8 || this.reader.gathering) return false;
    const at = bytesOf(line);
    if (at === undefined) return false;
    const where = `${this.task.path}:${line.no}`;
    if (!adapter.scan(at.source, at.start, at.start + line.bytes, line.no, (message) => this.warn(`${where}: ${message}`))) return false;
    this.outcome.records += 1;
    this.noteUnread(line);
    return true;
  }

  /** A huge line (valid JSON) the input format may read again: where its unread members lie. */
  private noteUnread(line: Line): void {
    const adapter = this.reader.adapter;
    if (adapter?.endFrom === undefined || adapter.unread === undefined || line.bytes < LAZY_TEXT_BYTES || line.invalidUtf8) return;
    const at = bytesOf(line);
    if (at === undefined) return;
    this.unreadMembers ??= new UnreadMembers(adapter.unread);
    this.unreadMembers.note(line.no, at.source, at.start, at.start + line.bytes);
  }

  /**
   * Dry run: the reason a real run would give. `grew` when it would append: the input continues what was
   * converted, and a session is still the file written then (the real run's own check, AppendFile.reopen,
   * opening it without writing).
   */
  private dryRunReason(): string {
    if (!this.wouldExtend) return this.task.reason;
    for (const target of this.targets) {
      if (!target.append || target.known?.session_mark === undefined) continue;
      try {
        AppendFile.reopen(target.known.session_file, target.known.session_mark).close();
        return 'grew';
      } catch {
        // Not that file any more: a real run writes a new session.
      }
    }
    return this.task.reason;
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
    if (!this.reader.adapter) {
      const format = detectInputFormat(value);
      if (!format) {
        this.stop = { status: 'skipped', reason: 'unrecognised' };
        return false;
      }
      this.reader.adapter = format.create();
      this.inputFormat = format.name;
    }
    // A Claude Code session under the Claude Code root it would be written to (say, `convert ~/.claude/projects
    // ~/.codex/sessions` with the default format) is a session there already: writing it again only doubles it.
    const native = sessionFormatOf(this.inputFormat!);
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

  /** Write one event (or hold it until the session opens); returns why the session rejected it, if it did. */
  private emit(event: GenericEvent, where: string, source?: JsonSource): string | undefined {
    this.outcome.events += 1;
    if (this.settings.dryRun) {
      // Where a real run would open the sessions (see below).
      if (!this.wouldOpen && ((event.agent_id === undefined && event.type !== 'context') || ++this.wouldHold > MAX_HELD_EVENTS)) {
        this.wouldOpen = true;
        this.wouldExtend = this.reader.adapter?.extendsEarlier?.() !== false;
      }
      return undefined;
    }
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
        return undefined;
      }
      if (!this.logger) return undefined;
    }
    return this.logger.write(event, where, source);
  }

  /** `--cwd`, else the project directory the input names, else the current directory. */
  private sessionCwd(): string {
    return sessionCwd(this.settings.cwd, this.reader.adapter?.facts() ?? {}, this.settings.processCwd).path;
  }

  /** Open the sessions, started at `startedAt` (the log's first event time: Codex files a session by it). */
  private open(startedAt: string): void {
    if (this.stop) return;
    const opened = openTargets(this.targets, this.sessionCwd(), startedAt, {
      task: this.task, settings: this.settings, inputFormat: this.inputFormat, continued: this.continued, warn: this.warn,
      extendsEarlier: this.reader.adapter?.extendsEarlier?.() !== false,
      notice: (message) => {
        const quiet = this.quiet;
        this.quiet = false;
        this.warn(message);
        this.quiet = quiet;
      },
    });
    this.cwd = opened.cwd;
    if ('error' in opened) {
      this.stop = { status: 'failed', error: opened.error };
      return;
    }
    this.reopened = opened.reopened;
    this.targets = opened.targets;
    this.harnesses = opened.harnesses;
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
