// What the filter does with each input line: read as an event through the event reader (a pretty-printed
// JSON document as the input's first value is gathered first), or, when stdin is a monitored stream, made a
// monitor event as plain text.
import { EventReader, type LineSink } from '../input/event-reader.js';
import { detectInputFormat, inputFormatNames } from '../input/index.js';
import { INVALID_UTF8_NOTE, overLongMessage, preview } from '../input/line-messages.js';
import type { Line } from '../input/lines.js';
import { PrettyDocument } from '../input/pretty-document.js';
import type { InputAdapter } from '../input/types.js';
import type { MonitorSink, MonitorSource } from '../monitor/index.js';
import type { FilterSession } from './session.js';

/** Stdin as a monitored stream (`--monitor` without a command): its source, and where its events go. */
export interface StdinMonitor {
  source: MonitorSource;
  sink: MonitorSink;
}

export class FilterLines {
  readonly reader: EventReader;
  /** A pretty-printed JSON document being gathered (only as the input's first value). */
  private document: PrettyDocument | undefined;
  private firstLine = true;
  private readonly sink: LineSink<string>;

  constructor(
    private readonly session: FilterSession,
    adapter: InputAdapter | undefined,
    private readonly maxLineBytes: number | undefined,
    private readonly stdinMonitor: StdinMonitor | undefined,
  ) {
    this.reader = new EventReader({
      ...(adapter !== undefined ? { adapter } : {}),
      ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
    });
    this.sink = {
      diagnostic: (where, message, bad) => {
        if (bad) session.bad(where, message);
        else session.report(`${where}: ${message}`);
      },
      adapter: (value, line, where) => {
        const format = detectInputFormat(value);
        if (format) return format.create();
        session.fail(`${where}: input matches no known format (expected one of: ${inputFormatNames().join(', ')}): ${preview(line.text ?? '')}`);
        return undefined;
      },
      mapped: (events, mapper) => {
        // The session opens with the first event, or once the input has said where it goes.
        if (session.logger || (events.length === 0 && mapper.waitsForFacts?.())) return true;
        return session.open(mapper.facts());
      },
      write: (event, where, source) => session.write(event, where, source),
      stopped: () => session.stop !== undefined,
    };
  }

  /** The input's adapter, once known. */
  get adapter(): InputAdapter | undefined {
    return this.reader.adapter;
  }

  /** One line of input `name`; `lineBase` lines came before the splitter that made it. */
  handle(line: Line, now: string, lineBase: number, name: string): void {
    const where = `${name}:${lineBase + line.no}`;
    if (this.stdinMonitor) {
      this.monitorLine(line, now, where);
      return;
    }
    if (this.firstLine) {
      this.firstLine = line.text === undefined || line.text.trim() === '';
      this.document = PrettyDocument.start(line);
      if (this.document) return;
    }
    const document = this.document;
    if (!document) {
      this.reader.read(line, where, now, this.sink);
      return;
    }
    // A pretty-printed document: its lines are gathered, then read as one value located at its first line.
    let read;
    try {
      read = document.push(line);
      if (!read) return;
    } catch (error) {
      read = { bad: `not a JSON document: ${(error as Error).message}` };
    }
    this.document = undefined;
    this.reader.events(line, `${name}:${lineBase + document.first}`, read, now, this.sink);
  }

  /** The input ended: the events the adapter held back, located at input `name`. */
  end(name: string, now: string): void {
    const adapter = this.reader.adapter;
    if (!adapter) return;
    const events = adapter.end(now, (message) => this.session.report(`${name}: ${message}`));
    if (events.length > 0 && !this.session.open(adapter.facts())) return;
    for (const event of events) {
      this.session.writeOrReport(event, name);
      if (this.session.stop) return;
    }
  }

  /** Monitor mode: stdin is plain text, each line one monitor event (never a user turn). */
  private monitorLine(line: Line, now: string, where: string): void {
    if (line.text === undefined) {
      this.session.report(`${where}: ${overLongMessage(line.bytes, this.maxLineBytes)}`);
      return;
    }
    if (line.invalidUtf8) this.session.report(`${where}: ${INVALID_UTF8_NOTE}`);
    const event = this.stdinMonitor!.source.event(line.text, now);
    if (event) this.stdinMonitor!.sink.write(event, where);
  }
}
