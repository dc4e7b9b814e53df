// The second pass over a transcript, the one loop every reading runs: the records on the chosen branch mapped
// to generic events a chunk of the file at a time, and each chunk's events handed to an output (the library's
// iterator takes them as they are, `read` as NDJSON bytes). With worker threads (only for bytes) the chunks
// are mapped on them (read-worker.ts) and settled here in file order: the holes filled with the model and usage
// their response has not given yet, the once-only warnings given, the mapper's state carried on.
import type { GenericEvent } from '../../../events.js';
import { ByteSink } from '../../../util/byte-sink.js';
import { eventSource, mapRecord, mapTaskRecords } from './chunks.js';
import { stringifySpliced, type JsonPieces } from '../../../json/spliced-json.js';
import type { TranscriptEventMapper } from './map-record.js';
import type { TranscriptLine, TranscriptScan } from './scan.js';
import type { TranscriptFile } from './transcript-file.js';
import { passChunks, type MapResult, type WorkerPool } from './worker-pool.js';

/** Where the second pass's events go: each chunk's become one T (undefined: nothing to give for it). */
export interface EventOutput<T> {
  /** The events of one chunk mapped on this thread (the last with the events the mapper held to the end). */
  events(events: GenericEvent[]): T | undefined;
  /** One chunk a worker thread mapped, as NDJSON bytes: an output without this gets no workers. */
  bytes?(text: Buffer): T;
}

/** What the second pass maps, known from the first. */
export interface SecondPassPlan {
  mapper: TranscriptEventMapper;
  /** Bytes the first pass read (the second reads exactly these). */
  bytes: number;
  /** In a file without damage, the branch by line number: lines off it are not even parsed. */
  selected?: Uint8Array;
  /** Otherwise the branch by record (this keeps the first pass's index). */
  onBranch?: (record: Record<string, unknown>, line: number) => boolean;
}

/** Worker threads for the second pass, and the count of chunks they mapped and chunks mapped again here. */
export interface PassWorkers {
  pool: WorkerPool;
  threading: { chunks: number; remapped: number };
}

/** The second pass: the branch's events, a chunk of the file at a time, to `out`. */
export async function* secondPass<T>(
  file: TranscriptFile, plan: SecondPassPlan, out: EventOutput<T>, workers?: PassWorkers,
): AsyncGenerator<T> {
  const { mapper, selected } = plan;
  const scan = file.open(plan.bytes);
  let rest: GenericEvent[] = [];
  try {
    if (workers !== undefined && selected !== undefined && out.bytes !== undefined) {
      for await (const result of passChunks(file, scan, workers.pool, 'map', (line) => selected[line.no] === 1)) {
        const settled = settle(file, result as MapResult, mapper, workers);
        const given = Buffer.isBuffer(settled) ? out.bytes(settled) : out.events(settled);
        if (given !== undefined) yield given;
      }
    } else {
      rest = yield* mapHere(file, scan, plan, out);
    }
  } finally {
    scan.close();
  }
  rest.push(...mapper.end());
  const last = out.events(rest);
  if (last !== undefined) yield last;
}

/** The second pass on this thread; returns the last chunk's events (they go out with the end's). */
function* mapHere<T>(file: TranscriptFile, scan: TranscriptScan, plan: SecondPassPlan, out: EventOutput<T>): Generator<T, GenericEvent[]> {
  const { mapper, selected, onBranch } = plan;
  let batch: GenericEvent[] = [];
  const map = (record: Record<string, unknown>, no: number) => {
    for (const event of mapRecord(mapper, record, (message) => file.warn(no, message))) batch.push(event);
  };
  const onLine = (line: TranscriptLine) => {
    if (selected !== undefined) {
      if (selected[line.no] === 1) for (const record of scan.records(line)) map(record, line.no);
      return;
    }
    for (const record of scan.records(line)) {
      if (file.accept(record, line.no) && onBranch!(record, line.no)) map(record, line.no);
    }
  };
  while (file.readChunk(scan, onLine)) {
    if (batch.length === 0) continue;
    const given = out.events(batch);
    batch = [];
    if (given !== undefined) yield given;
  }
  return batch;
}

/**
 * A worker's chunk made final, in file order: its warnings given, its holes filled, the mapper's state carried
 * on. A chunk the worker could not map as this thread would have (it starts inside a compaction, a record in it
 * without a usable time took the time from before it, a value was too deep for the worker, the worker failed)
 * is mapped here instead: its events are returned.
 */
function settle(file: TranscriptFile, result: MapResult, mapper: TranscriptEventMapper, workers: PassWorkers): Buffer | GenericEvent[] {
  const { threading } = workers;
  threading.chunks += 1;
  if (!result.ok || mapper.boundaryPending || result.leaned) {
    threading.remapped += 1;
    const events: GenericEvent[] = [];
    mapTaskRecords(result.task, mapper, file.warn, (event) => events.push(event));
    return events;
  }
  for (const { line, message, key } of result.logs) {
    if (key !== undefined) mapper.warnOnce(key, message, (text) => file.warn(line, text));
    else file.warn(line, message);
  }
  const { ids, fills, fillLengths } = result;
  let at = 0;
  const given: string[] = [];
  for (let i = 0; i < ids.length; i += 1) {
    const modelLength = fillLengths[2 * i]!;
    const usageLength = fillLengths[2 * i + 1]!;
    const model = modelLength >= 0 ? fills.slice(at, (at += modelLength)) : '';
    const usage = usageLength >= 0 ? fills.slice(at, (at += usageLength)) : '';
    const give = mapper.resolveResponse(ids[i]!, modelLength >= 0, usage);
    given.push((give.model ? model : '') + give.usage);
  }
  mapper.adopt(result.carry);
  const reply = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
  return fillHoles(reply, result.holes, given);
}

/** `source` with `given[i]` written at byte offset `holes[i]` (the source itself when nothing is given). */
function fillHoles(source: Buffer, holes: Int32Array, given: readonly string[]): Buffer {
  let extra = 0;
  for (const fill of given) extra += Buffer.byteLength(fill);
  if (extra === 0) return source;
  const out = Buffer.allocUnsafe(source.length + extra);
  let written = 0;
  let from = 0;
  for (let i = 0; i < holes.length; i += 1) {
    const hole = holes[i]!;
    written += source.copy(out, written, from, hole);
    written += out.write(given[i]!, written);
    from = hole;
  }
  written += source.copy(out, written, from);
  return out.subarray(0, written);
}

/** Raw pieces shorter than this are copied into the text around them; longer ones are passed on as they are. */
const COPY_PIECE_BYTES = 64 * 1024;

/**
 * Events as NDJSON lines, the bytes of JSON.stringify of each; one JSON.stringify cannot write (nested too
 * deeply) goes to `onUnwritable`. An event of a huge record gets its long strings' raw bytes from the record's
 * line where they are what JSON.stringify would write (see eventSource): long ones are handed on as they lie
 * there, between the buffers of the text around them, so a huge string is never serialised again.
 */
export function eventText(events: readonly GenericEvent[], onUnwritable: (event: GenericEvent, error: Error) => void): Buffer[] {
  const out: Buffer[] = [];
  let sink = new ByteSink();
  for (const event of events) {
    const source = eventSource(event);
    let json: string | JsonPieces;
    try {
      json = source !== undefined ? stringifySpliced(event, source, true) : JSON.stringify(event);
    } catch (error) {
      onUnwritable(event, error as Error);
      continue;
    }
    if (typeof json === 'string') {
      sink.put(json);
    } else {
      for (const piece of json) {
        if (typeof piece === 'string') {
          sink.put(piece);
        } else if (piece.length < COPY_PIECE_BYTES) {
          sink.putBytes(piece);
        } else {
          if (sink.length > 0) out.push(sink.bytes());
          sink = new ByteSink();
          out.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
        }
      }
    }
    sink.put('\n');
  }
  if (sink.length > 0) out.push(sink.bytes());
  return out;
}
