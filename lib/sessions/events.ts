// A listed session's conversation as generic events, a chunk at a time, as `read` prints it: a file through
// its agent's transcript reader (Claude Code's, pi's) or the input adapter its first line names, a store
// session's lines through the store's adapter. Diagnostics are not the listing's: they are counted, not said.
import { createReadStream } from 'node:fs';
import type { GenericEvent } from '../events.js';
import { StringDecoder } from 'node:string_decoder';
import { TRANSCRIPT_READERS } from '../agents/index.js';
import { findInputFormat } from '../agents/input-formats.js';
import { readAdapted, sniffFile } from '../read/any-input.js';
import type { InputFormat } from '../input/types.js';

/**
 * Receives each chunk's events, undefined for one a line test passed over (fileEvents' `wanted`: counted, not
 * read); returns false to stop reading.
 */
export type EventSink = (events: readonly (GenericEvent | undefined)[]) => boolean;

/** What a read of a session file is for. */
export interface EventReading {
  /** Only its user events are wanted: a transcript reader may leave the others out. */
  usersOnly?: boolean;
  /** Only the events whose NDJSON line (a transcript reader's) this passes are parsed; undefined stands for the others. */
  wanted?: (line: Buffer) => boolean;
}

/** The longest record read (as `read` does by default). */
const MAX_RECORD_BYTES = 65 * 1024 * 1024;

async function adapted(chunks: AsyncIterable<Buffer>, format: InputFormat, name: string, sink: EventSink): Promise<void> {
  let stopped = false;
  await readAdapted(chunks, format, {
    name, events: false, maxLineBytes: MAX_RECORD_BYTES, report: () => {},
    write: async (events) => { if (!stopped && !sink(events)) stopped = true; },
    closed: () => stopped,
  });
}

/** Feed the events of the session file at `path` to `sink`; false when it is no format read knows. */
export async function fileEvents(path: string, sink: EventSink, { usersOnly = false, wanted }: EventReading = {}): Promise<boolean> {
  const sniffed = sniffFile(path, MAX_RECORD_BYTES);
  if (sniffed.kind === 'adapted') {
    await adapted(createReadStream(path, { highWaterMark: 1024 * 1024 }), sniffed.format, path, sink);
    return true;
  }
  if (sniffed.kind !== 'transcript' || sniffed.input === undefined) return false;
  const reader = TRANSCRIPT_READERS.find((agent) => agent.reader.input === sniffed.input)?.reader;
  if (reader === undefined) return false;
  const reading = reader.open(path, { includeEvents: false, resolveSpills: false, maxRecordBytes: MAX_RECORD_BYTES, threads: 0, onWarning: () => {},
    ...(usersOnly ? { userRecordsOnly: true } : {}) });
  if (wanted !== undefined) return wantedEvents(reading.ndjson(() => {}), wanted, sink);
  let rest = '';
  const decoder = new StringDecoder('utf8');
  for await (const chunk of reading.ndjson(() => {})) {
    const lines = (rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
    rest = lines.pop()!;
    const events = lines.filter((line) => line !== '').map((line) => JSON.parse(line) as GenericEvent);
    if (!sink(events)) return true;
  }
  if (rest !== '') sink([JSON.parse(rest) as GenericEvent]);
  return true;
}

/** The events of NDJSON `chunks` to `sink`, those of the lines `wanted` passes parsed, the others undefined. */
export async function wantedEvents(chunks: AsyncIterable<string | Buffer>, wanted: (line: Buffer) => boolean, sink: EventSink): Promise<boolean> {
  let rest: Buffer | undefined;
  const eventOf = (line: Buffer) => (wanted(line) ? JSON.parse(line.toString()) as GenericEvent : undefined);
  for await (const chunk of chunks) {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const bytes = rest === undefined ? piece : Buffer.concat([rest, piece]);
    const events: (GenericEvent | undefined)[] = [];
    let start = 0;
    for (let end; (end = bytes.indexOf(0x0a, start)) !== -1; start = end + 1) if (end > start) events.push(eventOf(bytes.subarray(start, end)));
    rest = start < bytes.length ? Buffer.from(bytes.subarray(start)) : undefined;
    if (!sink(events)) return true;
  }
  if (rest !== undefined) sink([eventOf(rest)]);
  return true;
}

/** Feed the events of a store session's `lines` (of input format `input`) to `sink`. */
export async function storeEvents(lines: readonly string[], input: string, name: string, sink: EventSink): Promise<boolean> {
  const format = findInputFormat(input);
  if (format === undefined) return false;
  await adapted((async function* () {
    for (const line of lines) yield Buffer.from(`${line}\n`);
  })(), format, name, sink);
  return true;
}

/** The conversation text of an event a search looks in (none for what is not conversation). */
export function conversationText(event: GenericEvent): string | undefined {
  switch (event.type) {
    case 'user': case 'assistant': case 'thinking': return event.text;
    case 'tool_call': return `${event.name} ${JSON.stringify(event.arguments)}`;
    case 'tool_result': return typeof event.content === 'string' ? event.content
      : event.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    case 'compaction': return event.summary;
    default: return undefined;
  }
}
