// A pass's chunks on their way to the worker threads and back (worker-pool.ts): the wanted lines of each chunk
// and their line table copied into shared memory, handed out with one chunk per worker in flight and one more, and the results
// taken back in file order; and the lines and records of a chunk read back out of it (on a worker, or here
// when this thread maps a chunk itself).
import type { GenericEvent } from '../../../events.js';
import { lineText } from '../../../lines/file-lines.js';
import type { TranscriptEventMapper } from './map-record.js';
import type { TranscriptFile } from './transcript-file.js';
import { parseHugeRecord, recordSource, type TranscriptLine, type TranscriptScan } from './scan.js';
import type { JsonSource } from '../../../json/raw-json.js';
import {
  LINE_INTS, LINE_INVALID_UTF8, LINE_LAST, LINE_OVER_LONG, type ChunkResult, type ChunkTask, type WorkerPool,
} from './worker-pool.js';

/** Records longer than this are mapped on the main thread (a worker's heap is kept small: see WorkerPool). */
export const WORKER_MAX_LINE_BYTES = 1024 * 1024;

/**
 * Read the file a chunk at a time, hand each chunk's wanted lines to the pool, and yield the results in
 * file order (one chunk per worker in flight and one more, so memory stays flat whatever the consumer does).
 */
export async function* pipeline(
  file: TranscriptFile, scan: TranscriptScan, pool: WorkerPool, kind: 'heads' | 'map', wanted: (line: TranscriptLine) => boolean,
): AsyncGenerator<ChunkResult> {
  const chunk = new ChunkBuilder();
  const inFlight: Promise<ChunkResult>[] = [];
  let task: { bytes: Uint8Array; lines: Int32Array } | undefined;
  const onLine = (line: TranscriptLine) => {
    if (wanted(line)) chunk.add(line);
  };
  let local = false;
  const onChunkEnd = () => {
    // A record too big for a worker's small heap is handled on this thread, in order, with its chunk; its
    // bytes are not copied: the buffer they were read into is kept for it.
    local = chunk.longest > WORKER_MAX_LINE_BYTES;
    // Nor is a small chunk worth starting the workers for (before they are needed, they cost memory only).
    const small = !pool.started && chunk.bytes < file.chunkBytes / 4;
    task = chunk.take(!local && !small);
    local ||= small;
    if (local && task !== undefined) scan.keepBuffer();
  };
  let more = true;
  while (more) {
    more = file.readChunk(scan, onLine, onChunkEnd);
    if (task !== undefined) {
      if (local) {
        inFlight.push(Promise.resolve(kind === 'map'
          ? { kind, seq: -1, task: { kind, seq: -1, ...task }, ok: false }
          : { kind, seq: -1, task: { kind, seq: -1, ...task }, heads: new Int32Array(0) }));
      } else inFlight.push(kind === 'heads' ? pool.run('heads', task.bytes, task.lines) : pool.run('map', task.bytes, task.lines));
      task = undefined;
    }
    while (inFlight.length > (more ? pool.size + 1 : 0)) {
      const result = await inFlight.shift()!;
      yield result;
    }
  }
}

/**
 * The wanted lines of one chunk, copied in one piece when the chunk is done into shared memory: a worker
 * reads them there, and this thread still has them if it must handle the chunk itself.
 */
class ChunkBuilder {
  /** The longest line added since the last take. */
  longest = 0;
  /** Bytes of the lines added since the last take. */
  bytes = 0;
  private lines: number[] = [];
  private source: Buffer | undefined;
  private from = 0;
  private to = 0;

  add(line: TranscriptLine): void {
    const flags = (line.overLong ? LINE_OVER_LONG : 0) | (line.invalidUtf8 ? LINE_INVALID_UTF8 : 0) | (line.last ? LINE_LAST : 0);
    if (line.overLong) {
      this.lines.push(line.no, -1, line.bytes, flags);
      return;
    }
    if (this.source === undefined) {
      this.source = line.buf;
      this.from = line.start;
    }
    this.lines.push(line.no, line.start, line.end, flags);
    this.to = line.end;
    this.bytes += line.end - line.start;
    if (line.end - line.start > this.longest) this.longest = line.end - line.start;
  }

  /**
   * The chunk's bytes and line table (undefined when no line was wanted); the builder starts over. `share`:
   * copied into shared memory for a worker; else a view of the buffer they were read into (to be kept).
   */
  take(share: boolean): { bytes: Uint8Array; lines: Int32Array } | undefined {
    if (this.lines.length === 0) return undefined;
    const size = this.to - this.from;
    let bytes: Uint8Array;
    if (!share) {
      bytes = this.source !== undefined ? this.source.subarray(this.from, this.to) : new Uint8Array(0);
    } else {
      bytes = new Uint8Array(new SharedArrayBuffer(size));
      if (this.source !== undefined) bytes.set(this.source.subarray(this.from, this.to));
    }
    const table = this.lines;
    const lines = share ? new Int32Array(new SharedArrayBuffer(table.length * 4)) : new Int32Array(table.length);
    for (let i = 0; i < table.length; i += LINE_INTS) {
      const overLong = table[i + 1]! < 0;
      lines[i] = table[i]!;
      lines[i + 1] = overLong ? table[i + 1]! : table[i + 1]! - this.from;
      lines[i + 2] = overLong ? table[i + 2]! : table[i + 2]! - this.from;
      lines[i + 3] = table[i + 3]!;
    }
    this.lines = [];
    this.source = undefined;
    this.from = 0;
    this.to = 0;
    this.longest = 0;
    this.bytes = 0;
    return { bytes, lines };
  }
}

const EMPTY = Buffer.alloc(0);

/** The lines of a task, as the scan made them (one object, reused). */
export function forEachTaskLine(task: ChunkTask, onLine: (line: TranscriptLine, index: number) => void): void {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const { lines } = task;
  // An over-long line's skipped head does not travel with the chunk (see firstPass).
  const line: TranscriptLine = { no: 0, buf: bytes, start: 0, end: 0, bytes: 0, overLong: false, skippedHead: undefined, invalidUtf8: false, last: false };
  for (let i = 0; i * LINE_INTS < lines.length; i += 1) {
    const at = i * LINE_INTS;
    const flags = lines[at + 3]!;
    line.no = lines[at]!;
    line.overLong = (flags & LINE_OVER_LONG) !== 0;
    line.invalidUtf8 = (flags & LINE_INVALID_UTF8) !== 0;
    line.last = (flags & LINE_LAST) !== 0;
    if (line.overLong) {
      line.buf = EMPTY;
      line.start = 0;
      line.end = 0;
      line.bytes = lines[at + 2]!;
    } else {
      line.buf = bytes;
      line.start = lines[at + 1]!;
      line.end = lines[at + 2]!;
      line.bytes = line.end - line.start;
    }
    onLine(line, i);
  }
}

/**
 * The records of a second-pass task (lines on the branch, each one record: the first pass saw to that),
 * mapped in order; `warn` gets each warning with its line (and its key, from a deferred mapper).
 */
export function mapTaskRecords(
  task: ChunkTask, mapper: TranscriptEventMapper, warn: (line: number, message: string, key?: string) => void,
  onEvent: (event: GenericEvent) => void,
): void {
  forEachTaskLine(task, (line) => {
    const record = parseHugeRecord(line) ?? JSON.parse(lineText(line)) as Record<string, unknown>;
    const no = line.no;
    for (const event of mapRecord(mapper, record, (message, key) => warn(no, message, key))) onEvent(event);
  });
}

const eventSources = new WeakMap<GenericEvent, JsonSource>();

/** mapper.map, each event of a huge record (see parseHugeRecord) marked with the record's source. */
export function mapRecord(mapper: TranscriptEventMapper, record: Record<string, unknown>, warn: Parameters<TranscriptEventMapper['map']>[1]): GenericEvent[] {
  const source = recordSource(record);
  const events = mapper.map(record, warn, source);
  if (source !== undefined) for (const event of events) eventSources.set(event, source);
  return events;
}

/** The source of the huge record an event was mapped from: its long strings' raw bytes (see mapRecord). */
export function eventSource(event: GenericEvent): JsonSource | undefined {
  return eventSources.get(event);
}
