// What the filter's main thread and its worker threads say to each other (lib/agents/claude-code-cli/threads/). A job is a run of
// whole input lines; its reply holds the job's records, serialised, in segments.
import type { GenericEvent } from '../../../events.js';
import type { MapperOptions } from '../records.js';
import type { Segment } from '../segments.js';

/** Given to each worker at start. */
export interface WorkerSetup {
  mapper: MapperOptions;
  maxLineBytes?: number;
}

/** A job: whole lines (the last one ends with a newline, or at the end of the input). */
export interface ChunkMessage {
  job: number;
  chunk: Uint8Array;
  /** The job begins the input (a BOM there is dropped). */
  atStart: boolean;
  /** When the chunk was read (the timestamp of events without one). */
  now: string;
  /** Buffers of earlier replies, written now, given back for the worker to fill again. */
  spare?: ArrayBuffer[];
}

/** In input order: records to queue, an event for the main thread to map, or a diagnostic. */
export type JobItem =
  | { kind: 'segment'; segment: Segment }
  | { kind: 'event'; event: GenericEvent; line: number }
  /**
   * A tool_result of a call the worker did not see: `segment` holds it as if the call is known. When the main
   * thread does not know the call either, it maps the event again from its line: bytes `[start, end)` of the
   * job's input buffer (given back in `spare`).
   */
  | { kind: 'result'; id: string; segment: Segment | undefined; line: number; start: number; end: number }
  /** `once`: the id of a warning the run says once in all (lib/util/warn-once.ts). */
  | { kind: 'diagnostic'; line: number; message: string; bad: boolean; once?: string };

export interface JobReply {
  job: number;
  /** The serialised records the segments point into. */
  bytes: Uint8Array;
  markLengths: number[];
  items: JobItem[];
  /** Lines the job held (blank ones too): line numbers in `items` count from the job's first line, as 1. */
  lines: number;
  /** Events mapped on the worker (rejected ones included; those sent back as items are not). */
  events: number;
  /** The job's input buffers, done with, given back for the main thread to read into again. */
  spare: ArrayBuffer[];
}
