// A worker thread of `read` (see worker-pool.ts). First pass: scans each line's record head (record-head.ts)
// for the main thread to decode and index. Second pass: maps a chunk's lines on the branch to NDJSON bytes
// without knowing what came before them; what depends on earlier records (a response's model and usage
// once, once-only warnings, the time a record without one inherits) is handed back to be settled in order.
import { workerData } from 'node:worker_threads';
import { ByteSink } from '../../../util/byte-sink.js';
import { TranscriptEventMapper } from './map-record.js';
import { deferredResponse, USAGE_MEMBER } from './responses.js';
import { mapTaskRecords } from './chunks.js';
import { HEAD_INTS, scanRecordHead } from './record-head.js';
import type { ChunkReply, ChunkTask, HeadsReply, MapLog, MapReply, WorkerSettings } from './worker-pool.js';
import { LINE_INTS, LINE_INVALID_UTF8, LINE_OVER_LONG } from '../../../session/chunk-pool.js';
import { spillResolver } from './spill.js';
import { serveTasks } from '../../../util/thread-pool.js';

const settings = workerData as WorkerSettings;
const resolveSpill = settings.spillDir !== undefined ? spillResolver(settings.spillDir) : undefined;

const TIMESTAMP_KEY = ',"timestamp":';

/** First pass: the head of each line's record, where the scan is sure of it. */
function scanHeads(task: ChunkTask): HeadsReply {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const { lines } = task;
  const count = lines.length / LINE_INTS;
  const heads = new Int32Array(count * HEAD_INTS);
  for (let i = 0; i < count; i += 1) {
    const at = i * HEAD_INTS;
    const flags = lines[i * LINE_INTS + 3]!;
    const scanned = (flags & (LINE_OVER_LONG | LINE_INVALID_UTF8)) === 0
      && scanRecordHead(bytes, lines[i * LINE_INTS + 1]!, lines[i * LINE_INTS + 2]!, heads, at);
    if (!scanned) heads[at] = -1;
  }
  return { kind: 'heads', seq: task.seq, heads };
}

/** Second pass: a chunk's lines on the branch, mapped and written as NDJSON with holes. */
function mapChunk(task: ChunkTask): MapReply {
  const mapper = new TranscriptEventMapper({
    ...(settings.includeEvents ? { includeEvents: true } : {}),
    ...(settings.agentId !== undefined ? { agentId: settings.agentId } : {}),
    ...(resolveSpill !== undefined ? { resolveSpill } : {}),
    deferred: { anonymousPrefix: `${task.seq}:` },
  });
  const sink = new ByteSink(Math.ceil(task.bytes.byteLength * 0.6));
  const holes: number[] = [];
  const ids: string[] = [];
  let fills = '';
  const fillLengths: number[] = [];
  const logs: MapLog[] = [];
  mapTaskRecords(task, mapper, (line, message, key) => {
    logs.push(key !== undefined ? { line, message, key } : { line, message });
  }, (event) => {
    // A value JSON.stringify cannot write (or writes only with a bigger stack) is the main thread's to report.
    const json = JSON.stringify(event);
    const response = deferredResponse(event);
    if (response === undefined) {
      sink.put(json);
      sink.put('\n');
      return;
    }
    // The top-level timestamp is the last key but agent_id (a string): its `,"timestamp":` is the last one.
    const cut = json.lastIndexOf(TIMESTAMP_KEY);
    if (cut < 0) throw new Error('an event without a timestamp');
    sink.put(json.slice(0, cut));
    holes.push(sink.length);
    ids.push(response.id);
    const model = response.model !== undefined ? `,"model":${JSON.stringify(response.model)}` : undefined;
    const usage = response.usage !== undefined ? USAGE_MEMBER + JSON.stringify(response.usage) : undefined;
    fillLengths.push(model?.length ?? -1, usage?.length ?? -1);
    fills += (model ?? '') + (usage ?? '');
    sink.put(json.slice(cut));
    sink.put('\n');
  });
  return {
    kind: 'map',
    seq: task.seq,
    ok: true,
    bytes: new Uint8Array(sink.buf.buffer, sink.buf.byteOffset, sink.length),
    holes: Int32Array.from(holes),
    ids,
    fills,
    fillLengths: Int32Array.from(fillLengths),
    logs,
    carry: mapper.carry(),
    leaned: mapper.leanedOnStart,
  };
}

serveTasks<ChunkTask, ChunkReply>((task) => {
  try {
    return task.kind === 'heads' ? scanHeads(task) : mapChunk(task);
  } catch {
    // Anything unusual (a value too deep for this thread's stack, say): the main thread handles the chunk.
    return task.kind === 'heads' ? { kind: 'heads', seq: task.seq, heads: new Int32Array(0) } : { kind: 'map', seq: task.seq, ok: false };
  }
  // Only buffers allocated for this reply are transferred (the task's bytes are shared and stay where they are).
}, (reply) => (reply.kind === 'heads' ? [reply.heads.buffer] : reply.ok ? [reply.bytes.buffer] : []) as ArrayBuffer[]);
