// Records serialised on a worker thread, in segments: a run of events mapped from a state the worker does not
// know (the chain's parent, the turn's message id, usage and time, the last model), with marks in its place.
// The main thread replaces the marks with its own state and takes over the state each segment leaves
// (lib/agents/claude-code-cli/threads/).
import { randomBytes } from 'node:crypto';
import type { GenericEvent, ToolResultEvent } from '../../events.js';
import type { JsonSource } from '../../json/raw-json.js';
import type { JsonPieces } from '../../json/spliced-json.js';
import type { SessionHarness } from '../types.js';
import { RECENT_RECORDS } from './fork.js';
import {
  ClaudeRecordMapper, type Mapped, type MapperOptions, type SegmentEnd, type SegmentMarks, type SegmentValues,
} from './records.js';
import { serializeRecord } from './serialize.js';

/** Which state a mark stands for: an index into `MARK_KINDS`. */
export const MARK_KINDS = ['parent', 'message', 'model', 'usage', 'time'] as const;

/** One segment of a worker's output: the bytes `[start, end)` of the job's buffer. */
export interface Segment {
  start: number;
  end: number;
  /** Marks, quotes included, as flat `[offset, kind]` pairs in ascending offset. */
  patches: number[];
  /** What the segment left (see ClaudeRecordMapper.endSegment). */
  state: SegmentEnd;
  /**
   * Its chain records' uuids, the last ones only (what a fork repair may need), back to back: one string
   * crosses between threads for much less than hundreds do.
   */
  uuids: string;
}

/** What mapping one event said: its warnings, and the id when they are a once-only warning (see `Mapped`). */
export type Warnings = Pick<Mapped, 'warnings' | 'once'>;

/** The length of every uuid a mapper draws (randomUuid, lib/util/random-id.ts). */
export const UUID_LENGTH = 36;

/** A harness that takes segments serialised elsewhere (the Claude harness). */
export interface SegmentTarget extends SessionHarness {
  /** The mapper options a worker needs to write records exactly as this harness would. */
  segmentOptions(): MapperOptions;
  /** Whether the result of tool call `id` is written as a tool_result (its call is known). */
  knowsToolCall(id: string): boolean;
  /** Queue a segment of `bytes`, its marks (of `markLengths` bytes each kind) replaced by this harness's state. */
  addSegment(bytes: Uint8Array, segment: Segment, markLengths: readonly number[]): void;
}

export function isSegmentTarget(harness: SessionHarness): harness is SegmentTarget {
  return typeof (harness as Partial<SegmentTarget>).addSegment === 'function';
}

/**
 * The pieces of `segment` with its marks replaced: the parent (a JSON string or null), the message id (drawn
 * only when a mark asks for it), the model, and each record's usage and time (in the order written, which
 * advances the turn's). Appended to `out`; the bytes are not copied.
 */
export function patchSegment(
  bytes: Uint8Array, segment: Segment, markLengths: readonly number[], values: SegmentValues, out: JsonPieces,
): void {
  let at = segment.start;
  const { patches, state } = segment;
  let usages = 0;
  let times = 0;
  for (let i = 0; i < patches.length; i += 2) {
    const offset = patches[i]!;
    const kind = patches[i + 1]!;
    if (offset > at) out.push(bytes.subarray(at, offset));
    const value = kind === 0 ? values.parent
      : kind === 1 ? values.message()
        : kind === 2 ? values.model
          : kind === 3 ? values.usage(state.usages[usages++])
            : values.time(state.times[times++]!);
    out.push(JSON.stringify(value));
    at = offset + markLengths[kind]!;
  }
  if (segment.end > at) out.push(bytes.subarray(at, segment.end));
}

/** Output bytes start at this size and double as needed. */
const OUT_BYTES = 512 * 1024;

/**
 * The worker's side: maps events with a ClaudeRecordMapper and serialises the records into one buffer (to be
 * transferred to the main thread), cut into segments. Each segment begins from marks, not from a state.
 */
export class SegmentWriter {
  private readonly mapper: ClaudeRecordMapper;
  private readonly marks: SegmentMarks;
  /** Each kind's mark as it stands in a record: a JSON string, quotes included. */
  private readonly quoted: Buffer[];
  private out = Buffer.allocUnsafeSlow(OUT_BYTES);
  private used = 0;
  private open: { start: number; patches: [number, number][]; uuids: string[] } | undefined;

  constructor(options: MapperOptions) {
    this.mapper = new ClaudeRecordMapper(options);
    const mark = (kind: string) => `asyncai-log-${kind}-${randomBytes(16).toString('hex')}`;
    this.marks = { parent: mark('parent'), message: mark('message'), model: mark('model'), usage: mark('usage'), time: mark('time') };
    this.quoted = MARK_KINDS.map((kind) => Buffer.from(JSON.stringify(this.marks[kind])));
  }

  /** The length in bytes of each kind's mark, quotes included. */
  get markLengths(): number[] {
    return this.quoted.map((q) => q.length);
  }

  /** Whether the result of tool call `id` can be mapped here (else its tool_result needs the main thread). */
  knowsToolCall(id: string): boolean {
    return this.mapper.knowsToolCall(id);
  }

  /** Map `event` into the open segment (one begins if none is). Returns its warnings; throws EventRejected. */
  add(event: GenericEvent, source?: JsonSource): Warnings {
    return this.addMapped(event, source, (e) => this.mapper.map(e));
  }

  /**
   * A tool_result of a call this thread has not seen, in a segment of its own, mapped as if the call were known
   * (the main thread knows whether it is; see `ClaudeRecordMapper.mapAssumingCall`). Throws EventRejected.
   */
  addAssumingCall(event: ToolResultEvent, source?: JsonSource): Segment | undefined {
    if (this.open) throw new Error('the open segment must be closed first');
    this.addMapped(event, source, (e) => this.mapper.mapAssumingCall(e as ToolResultEvent));
    return this.close();
  }

  private addMapped(event: GenericEvent, source: JsonSource | undefined, map: (event: GenericEvent) => Mapped): Warnings {
    if (!this.open) {
      this.mapper.startSegment(this.marks);
      this.open = { start: this.used, patches: [], uuids: [] };
    }
    const marked = this.mapper.writesMarks;
    const parent = this.mapper.parentUuid;
    const { records, warnings, once } = map(event);
    const pieces: JsonPieces = [];
    try {
      for (const record of records) serializeRecord(record, pieces, source);
    } catch (error) {
      this.mapper.undo(parent);
      throw error;
    }
    const from = this.used;
    for (const piece of pieces) this.append(piece);
    if (marked) this.findMarks(from, this.used);
    const { uuids } = this.open;
    for (const record of records) {
      if (typeof record.uuid !== 'string') continue;
      if (record.uuid.length !== UUID_LENGTH) throw new Error('a uuid of another length cannot be packed');
      uuids.push(record.uuid);
    }
    if (uuids.length > 2 * RECENT_RECORDS) uuids.splice(0, uuids.length - RECENT_RECORDS);
    return once !== undefined ? { warnings, once } : { warnings };
  }

  /** End the open segment; undefined when there is none, or it changed nothing. */
  close(): Segment | undefined {
    const open = this.open;
    if (!open) return undefined;
    this.open = undefined;
    const state = this.mapper.segmentEnd();
    if (this.used === open.start && state.parent === undefined && state.message === undefined
      && state.model === undefined && state.toolIds.length === 0 && state.tasksWithOutput.length === 0) return undefined;
    open.patches.sort((a, b) => a[0] - b[0]);
    return {
      start: open.start,
      end: this.used,
      patches: open.patches.flat(),
      state,
      uuids: (open.uuids.length > RECENT_RECORDS ? open.uuids.slice(-RECENT_RECORDS) : open.uuids).join(''),
    };
  }

  /** Buffers given back (see `take`), filled again before any new one is made. */
  private readonly spare: ArrayBuffer[] = [];

  /**
   * The bytes written since the last `take` (a buffer of its own, to transfer); offsets start again at 0.
   * Once the taker is done with the buffer, `giveBack` lets it be filled again.
   */
  take(): Buffer {
    const bytes = this.out.subarray(0, this.used);
    const reuse = this.spare.pop();
    this.out = reuse ? Buffer.from(reuse) : Buffer.allocUnsafeSlow(OUT_BYTES);
    this.used = 0;
    return bytes;
  }

  /** A buffer `take` gave, to fill again (making new ones page by page costs more than the records). */
  giveBack(buffer: ArrayBuffer): void {
    this.spare.push(buffer);
  }

  private append(piece: string | Uint8Array): void {
    const room = this.out.length - this.used;
    if (typeof piece === 'string') {
      // At most 3 UTF-8 bytes per UTF-16 unit: measure exactly only when that bound does not fit.
      if (piece.length * 3 > room) this.reserve(Buffer.byteLength(piece));
      this.used += this.out.write(piece, this.used);
    } else {
      if (piece.length > room) this.reserve(piece.length);
      this.out.set(piece, this.used);
      this.used += piece.length;
    }
  }

  private reserve(bytes: number): void {
    if (bytes <= this.out.length - this.used) return;
    let size = this.out.length * 2;
    while (size - this.used < bytes) size *= 2;
    const bigger = Buffer.allocUnsafeSlow(size);
    this.out.copy(bigger, 0, 0, this.used);
    this.out = bigger;
  }

  private findMarks(from: number, to: number): void {
    const written = this.out.subarray(0, to);
    for (let kind = 0; kind < this.quoted.length; kind += 1) {
      const mark = this.quoted[kind]!;
      for (let at = written.indexOf(mark, from); at !== -1; at = written.indexOf(mark, at + mark.length)) {
        this.open!.patches.push([at, kind]);
      }
    }
  }
}

/** A fresh key for a session's monitor task ids (see taskIdFor). */
export function newTaskKey(): Uint8Array {
  return randomBytes(32);
}
