// Worker threads for `read`'s two passes over a big transcript (read-worker.ts), on the one ordered chunk
// pool (lib/session/chunk-pool.ts): what a worker is asked and answers. The results come back in file order
// and the main thread settles them there: in the first pass it decodes the heads the workers scanned and
// builds the branch index; in the second it decides which events carry their response's model and usage,
// gives the once-only warnings and carries the mapper's state on (see second-pass.ts).
import type { MapperCarry } from './map-record.js';
import type { TranscriptLine, TranscriptScan } from './scan.js';
import type { TranscriptFile } from './transcript-file.js';
import { ChunkPool, pipeline, type ChunkedLines, type ChunkTask as GenericChunkTask } from '../../../session/chunk-pool.js';

/** What every worker of one transcript's read is told once. */
export interface WorkerSettings {
  includeEvents: boolean;
  agentId?: string;
  /** The project directory spilled output is looked for in; unset: pointers are kept. */
  spillDir?: string;
}

/** A chunk of a pass for a worker: `heads` scans each record's head (first pass), `map` maps the records on
 * the branch to NDJSON (second pass). */
export type ChunkTask = GenericChunkTask<'heads' | 'map'>;

/** A worker's first-pass reply: HEAD_INTS per line (record-head.ts), the first of them -1 for a line to parse. */
export interface HeadsReply {
  kind: 'heads';
  seq: number;
  /** Transferred. */
  heads: Int32Array;
}

/** A warning a worker met, in order; `key` for a once-only one. */
export interface MapLog {
  line: number;
  message: string;
  key?: string;
}

/**
 * A worker's second-pass reply: NDJSON bytes with holes where an event's model and usage would go, in order;
 * or `ok: false` when the main thread must map the chunk.
 */
export type MapReply = {
  kind: 'map';
  seq: number;
  ok: true;
  /** In a buffer the worker allocated for this reply alone, transferred. */
  bytes: Uint8Array;
  /** Byte offsets of the holes. */
  holes: Int32Array;
  /** The response id of each hole. */
  ids: string[];
  /** What each hole may get, as JSON members with their leading comma: its model, then its usage. */
  fills: string;
  /** Two per hole: the lengths of its model and usage members in `fills`, -1 when it can have none. */
  fillLengths: Int32Array;
  logs: MapLog[];
  carry: MapperCarry;
  /** A record without a usable time took the time from before the chunk. */
  leaned: boolean;
} | { kind: 'map'; seq: number; ok: false };

export type ChunkReply = HeadsReply | MapReply;

/** A reply with the task it answers (this thread's own). Heads empty: the main thread scans the chunk. */
export type HeadsResult = HeadsReply & { task: ChunkTask };
export type MapResult = MapReply & { task: ChunkTask };
export type ChunkResult = HeadsResult | MapResult;

/** What a task no worker handled resolves to: the main thread handles it. Heads empty: it scans the chunk. */
function unhandled(task: ChunkTask): ChunkResult {
  return task.kind === 'heads'
    ? { kind: 'heads', seq: task.seq, task, heads: new Int32Array(0) }
    : { kind: 'map', seq: task.seq, task, ok: false };
}

/** The worker threads of one transcript's read (see lib/session/chunk-pool.ts). */
export type WorkerPool = ChunkPool<'heads' | 'map', ChunkReply>;

/** Up to `size` workers of module `url`; `onFailure` hears once when one fails (the rest is read here). */
export function workerPool(url: URL, size: number, settings: WorkerSettings, onFailure: (message: string) => void): WorkerPool {
  return new ChunkPool<'heads' | 'map', ChunkReply>(url, size, settings, unhandled as (task: ChunkTask) => ChunkResult, onFailure);
}

/** A pass's chunks through the pool, in file order (see lib/session/chunk-pool.ts's pipeline). */
export function passChunks(file: TranscriptFile, scan: TranscriptScan, pool: WorkerPool, kind: 'heads' | 'map', wanted: (line: TranscriptLine) => boolean): AsyncGenerator<ChunkResult> {
  const lines: ChunkedLines<TranscriptLine> = {
    chunkBytes: file.chunkBytes,
    readChunk: (onLine, onChunkEnd) => file.readChunk(scan, onLine, onChunkEnd),
    keepBuffer: () => scan.keepBuffer(),
  };
  return pipeline(lines, pool, kind, wanted, unhandled as (task: ChunkTask) => ChunkResult) as AsyncGenerator<ChunkResult>;
}
