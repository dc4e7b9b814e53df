// The one event reader: an input line -> its value (a huge line parsed from its bytes, never decoded whole:
// lib/json/raw-json.ts) -> generic events through the input format's adapter, with the diagnostics each
// line gets (lib/lines/line-messages.ts). The filter and convert both read lines through it; what each does
// with a bad line or an event is theirs (`LineSink`).
import type { GenericEvent } from '../events.js';
import { jsonSourceOf, readLineValue, type JsonSource } from '../json/raw-json.js';
import { ALSO_INVALID_UTF8, INVALID_UTF8_NOTE } from '../lines/line-messages.js';
import type { Line } from '../lines/lines.js';
import { LineValues, type LineDiagnostic } from './pretty-document.js';
import { InputError, type InputAdapter } from './types.js';

/**
 * A line's value, or the one diagnostic the line gets instead (over the line limit, or invalid JSON). `no`: the
 * line the value starts on, when it is not the line at hand (a pretty-printed document gathered whole).
 */
export type LineValue = ({ value: unknown } | { bad: string }) & {
  no?: number;
  /** The diagnostic, located, of the lines before it that opened no document after all (lib/input/pretty-document.ts). */
  before?: LineDiagnostic;
};

/** What a reader's caller does with a line's diagnostics and events. `W` locates a line (`stdin:12`, or a number). */
export interface LineSink<W> {
  /**
   * A diagnostic of the line at `where`: `bad` when the line, or one of its events, is skipped. The first bad
   * diagnostic of a line that held invalid UTF-8 says so; a line kept with it gets INVALID_UTF8_NOTE instead.
   */
  diagnostic(where: W, message: string, bad: boolean): void;
  /**
   * The adapter for the input, asked with the first value read when the reader was given none (undefined:
   * the line is not mapped; the sink has decided what follows).
   */
  adapter?(value: unknown, line: Line, where: W): InputAdapter | undefined;
  /** The line's events, before the first is written (the filter opens its session here); false: write none. */
  mapped?(events: readonly GenericEvent[], adapter: InputAdapter): boolean;
  /** Write one event; returns why it was rejected, if it was (then reported as bad). */
  write(event: GenericEvent, where: W, source: JsonSource | undefined): string | undefined;
  /** True when the line is to be left where it stands, asked after each write (a bad line ended the run: `--strict`). */
  stopped?(): boolean;
}

export interface EventReaderOptions {
  /** The line limit the lines were split with (named in the over-long diagnostic). */
  maxLineBytes?: number;
  /** The input format's adapter; default: the sink's `adapter` decides from the first value. */
  adapter?: InputAdapter;
  /**
   * The lines are an input from its start, so a pretty-printed JSON document opening it (an OpenCode export, a
   * legacy Gemini chat) is gathered whole (lib/input/pretty-document.ts). Not for a chunk from mid-input.
   */
  documents?: boolean;
  /** The caller can read the input again: the adapter is told each value's line (see InputAdapter.map). */
  rereadable?: boolean;
}

/** Reads lines as generic events. One per input: its adapter keeps the input's state. */
export class EventReader {
  /** The input's adapter, once known. */
  adapter: InputAdapter | undefined;
  private readonly maxLineBytes: number | undefined;
  private readonly values: LineValues | undefined;
  private readonly rereadable: boolean;

  constructor(options: EventReaderOptions = {}) {
    this.maxLineBytes = options.maxLineBytes;
    this.adapter = options.adapter;
    this.rereadable = options.rereadable === true;
    if (options.documents) this.values = new LineValues(options.maxLineBytes);
  }

  /** A pretty-printed document is being gathered (its lines are not values of their own). */
  get gathering(): boolean {
    return this.values?.gathering === true;
  }

  /**
   * The value of `line`, or its one diagnostic: a huge line is parsed from its bytes (bounded memory). With
   * `documents`, undefined while `line` belongs to a pretty-printed document still open; the document's value
   * comes with the line that closes it, `no` naming the line it started on.
   */
  value(line: Line): LineValue | undefined {
    if (this.values) return this.values.next(line);
    return readLineValue(line, this.maxLineBytes);
  }

  /** The input ended: the diagnostic of a pretty-printed document left open, located at its first line. */
  end(): LineDiagnostic | undefined {
    return this.values?.end();
  }

  /** Read `line` (located at `where`) through to events handed to `sink`. True when the line was mapped. */
  read<W>(line: Line, where: W, now: string, sink: LineSink<W>): boolean {
    const read = this.value(line);
    return read !== undefined && this.events(line, where, read, now, sink);
  }

  /**
   * `read`, from a value the caller read itself (`value`, or a pretty-printed document gathered over several
   * lines, located at `where`; `line` is the one whose bytes may back the value's long strings).
   */
  events<W>(line: Line, where: W, read: LineValue, now: string, sink: LineSink<W>): boolean {
    let invalidUtf8 = line.invalidUtf8 === true;
    const bad = (message: string) => {
      sink.diagnostic(where, invalidUtf8 ? `${message}${ALSO_INVALID_UTF8}` : message, true);
      invalidUtf8 = false;
    };
    if ('bad' in read) {
      bad(read.bad);
      return false;
    }
    const { value } = read;
    const adapter = this.adapter ??= sink.adapter?.(value, line, where);
    if (!adapter) return false;
    // Long lines: the writers may copy the line's long strings as they are instead of serialising them again
    // (not a document's: its value is not the bytes of the line at hand).
    const own = read.no === undefined || read.no === line.no;
    let events: GenericEvent[];
    try {
      const warn = (message: string) => sink.diagnostic(where, message, false);
      events = this.rereadable && own ? adapter.map(value, now, warn, line.no) : adapter.map(value, now, warn);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      bad(error.message);
      return false;
    }
    if (sink.mapped && !sink.mapped(events, adapter)) return true;
    const source = events.length > 0 && own ? jsonSourceOf(line, value) : undefined;
    for (const event of events) {
      const rejected = sink.write(event, where, source);
      if (rejected !== undefined) bad(rejected);
      if (sink.stopped?.()) return true;
    }
    // Kept: the replacement is noted, once (a rejected event's diagnostic has said so already).
    if (invalidUtf8) sink.diagnostic(where, INVALID_UTF8_NOTE, false);
    return true;
  }
}
