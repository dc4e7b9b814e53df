// The records of a second-pass chunk (lib/session/chunk-pool.ts), mapped on a worker or here when this thread
// maps the chunk itself, and the source of a huge record's events (its long strings' raw bytes).
import type { GenericEvent } from '../../../events.js';
import { lineText } from '../../../lines/file-lines.js';
import type { TranscriptEventMapper } from './map-record.js';
import { parseHugeRecord, recordSource } from './scan.js';
import type { JsonSource } from '../../../json/raw-json.js';
import { forEachTaskLine } from '../../../session/chunk-pool.js';
import type { ChunkTask } from './worker-pool.js';

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
