// The one event reader: an input line -> its value (a huge line parsed from its bytes, never decoded whole:
// lib/json/raw-json.ts) -> generic events through the input format's adapter, with the diagnostics each
// line gets (lib/input/line-messages.ts). The filter, convert and the filter's worker threads all read
// lines through it; what each does with a bad line or an event is theirs (`LineSink`).
import type { GenericEvent } from '../events.js';
import { jsonSourceOf, readLineValue, type JsonSource } from '../json/raw-json.js';
import { ALSO_INVALID_UTF8, INVALID_UTF8_NOTE } from './line-messages.js';
import type { Line } from './lines.js';
import { InputError, type InputAdapter } from './types.js';

/** A line's value, or the one diagnostic the line gets instead (over the line limit, or invalid JSON). */
export type LineValue = { value: unknown } | { bad: string };

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
}

/** Reads lines as generic events. One per input: its adapter keeps the input's state. */
export class EventReader {
  /** The input's adapter, once known. */
  adapter: InputAdapter | undefined;
  private readonly maxLineBytes: number | undefined;

  constructor(options: EventReaderOptions = {}) {
    this.maxLineBytes = options.maxLineBytes;
    this.adapter = options.adapter;
  }

  /** The value of `line`, or its one diagnostic: a huge line is parsed from its bytes (bounded memory). */
  value(line: Line): LineValue {
    return readLineValue(line, this.maxLineBytes);
  }

  /** Read `line` (located at `where`) through to events handed to `sink`. True when the line was mapped. */
  read<W>(line: Line, where: W, now: string, sink: LineSink<W>): boolean {
    return this.events(line, where, this.value(line), now, sink);
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
    let events: GenericEvent[];
    try {
      events = adapter.map(value, now, (message) => sink.diagnostic(where, message, false));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      bad(error.message);
      return false;
    }
    if (sink.mapped && !sink.mapped(events, adapter)) return true;
    // Long lines: the writers may copy the line's long strings as they are instead of serialising them again.
    const source = events.length > 0 ? jsonSourceOf(line, value) : undefined;
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
