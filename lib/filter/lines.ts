// What the filter does with each input line: read as an event through the event reader (a pretty-printed
// JSON document as the input's first value is gathered first), or, when stdin is a monitored stream, made a
// monitor event as plain text.
import { EventReader, type LineSink } from '../input/event-reader.js';
import { detectInputFormat, inputFormatNames } from '../agents/input-formats.js';
import { INVALID_UTF8_NOTE, overLongMessage, preview } from '../lines/line-messages.js';
import { DEFAULT_MAX_LINE_BYTES, type Line } from '../lines/lines.js';
import type { InputAdapter } from '../input/types.js';
import type { MonitorSink, MonitorSource } from '../monitor/index.js';
import type { FilterSession } from './session.js';
import { InputSurvey } from './survey.js';

/** Stdin as a monitored stream (`--monitor` without a command): its source, and where its events go. */
export interface StdinMonitor {
  source: MonitorSource;
  sink: MonitorSink;
}

export class FilterLines {
  readonly reader: EventReader;
  /** What the lines looked like (said when they held no event). */
  readonly survey = new InputSurvey();
  /** Where the pretty-printed document being gathered began (it is located there). */
  private documentAt: string | undefined;
  /** The value being read is a document gathered over several lines, not the line at hand's. */
  private gathered = false;
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
      documents: true,
    });
    this.sink = {
      diagnostic: (where, message, bad) => {
        if (bad) session.bad(where, message);
        else session.report(`${where}: ${message}`);
      },
      adapter: (value, line, where) => {
        const format = detectInputFormat(value);
        if (format) return format.create();
        const text = this.gathered ? JSON.stringify(value) : line.text ?? '';
        session.fail(`${where}: input matches no known format (expected one of: ${inputFormatNames().join(', ')}): ${preview(text)}`);
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

  /** One line of input `name`. */
  handle(line: Line, now: string, name: string): void {
    const where = `${name}:${line.no}`;
    if (this.stdinMonitor) {
      this.monitorLine(line, now, where);
      return;
    }
    this.survey.line(line.bytes > (this.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES));
    // A pretty-printed document opening the input is gathered, then read as one value located at its first line.
    const read = this.reader.value(line);
    if (read && 'value' in read) this.survey.value(read.value);
    if (!read) {
      this.documentAt ??= where;
      return;
    }
    this.documentAt = undefined;
    if (read.before) {
      this.session.bad(`${name}:${read.before.no}`, read.before.bad);
      if (this.session.stop) return;
    }
    this.gathered = read.no !== undefined && read.no !== line.no;
    this.reader.events(line, this.gathered ? `${name}:${read.no!}` : where, read, now, this.sink);
  }

  /** The input ended: the events the adapter held back, located at input `name`. */
  end(name: string, now: string): void {
    const unended = this.reader.end();
    if (unended) this.session.bad(this.documentAt ?? name, unended.bad);
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
