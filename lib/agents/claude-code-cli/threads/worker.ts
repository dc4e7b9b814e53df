// A worker thread of the filter: splits the lines of each job it is sent, parses and checks them as generic
// events, and serialises their Claude Code records (lib/agents/claude-code-cli/segments.ts). Events whose
// records depend on what other jobs held (a monitor's end, a result of a call this thread never saw) go back
// to the main thread as they are, in their place among the records.
import { parentPort, workerData } from 'node:worker_threads';
import { SegmentWriter } from '../segments.js';
import { EventRejected } from '../../types.js';
import { genericEvents } from '../../../input/generic-events.js';
import { EventReader, type LineSink } from '../../../input/event-reader.js';
import { bytesOf, LineSplitter, type Line } from '../../../input/lines.js';
import type { ChunkMessage, JobItem, JobReply, WorkerSetup } from './protocol.js';

const setup = workerData as WorkerSetup;
/** Tool call ids a worker remembers: results of older calls are decided on the main thread, which knows more. */
const WORKER_TOOL_IDS = 10_000;
const writer = new SegmentWriter({ ...setup.mapper, toolIdsRemembered: WORKER_TOOL_IDS });
const reader = new EventReader({
  adapter: genericEvents.create(),
  ...(setup.maxLineBytes !== undefined ? { maxLineBytes: setup.maxLineBytes } : {}),
});

let items: JobItem[] = [];
let events = 0;

/** End the open segment: what follows may depend on state only the main thread has. */
function closeSegment(): void {
  const segment = writer.close();
  if (segment) items.push({ kind: 'segment', segment });
}

/** What the worker does with each line's diagnostics and events: items of the reply, in input order. */
const sink: LineSink<Line> = {
  diagnostic(line, message, bad) {
    items.push({ kind: 'diagnostic', line: line.no, message, bad });
  },
  write(event, line, source) {
    if (event.agent_id === undefined && event.type === 'monitor_end') {
      // Its outcome depends on whether the monitor had events, maybe in another thread's input.
      closeSegment();
      items.push({ kind: 'event', event, line: line.no });
      return undefined;
    }
    if (event.agent_id === undefined && event.type === 'tool_result' && !writer.knowsToolCall(event.id)) {
      // Its call may be in another thread's input: written as if it is, and the main thread decides (and counts).
      closeSegment();
      try {
        const segment = writer.addAssumingCall(event, source);
        // The main thread may need the event itself: it reads it again from the line's bytes (cheaper to send).
        // A job is one chunk: every line's bytes are in its buffer, which goes back with the reply.
        const at = bytesOf(line)!;
        const start = at.source.byteOffset + at.start;
        items.push({ kind: 'result', id: event.id, segment, line: line.no, start, end: start + line.bytes });
      } catch (error) {
        if (!(error instanceof EventRejected)) throw error;
        events += 1;
        return error.message;
      }
      return undefined;
    }
    events += 1;
    try {
      const { warnings, once } = writer.add(event, source);
      for (const message of warnings) items.push({ kind: 'diagnostic', line: line.no, message, bad: false, ...(once !== undefined ? { once } : {}) });
    } catch (error) {
      if (!(error instanceof EventRejected)) throw error;
      return error.message;
    }
    return undefined;
  },
};

parentPort!.on('message', (message: ChunkMessage) => {
  for (const buffer of message.spare ?? []) writer.giveBack(buffer);
  const splitter = new LineSplitter({
    atStart: message.atStart,
    ...(setup.maxLineBytes !== undefined ? { maxLineBytes: setup.maxLineBytes } : {}),
  });
  const chunk = Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength);
  // A line locates itself (its number, and its bytes for a tool_result sent back).
  for (const line of splitter.push(chunk)) reader.read(line, line, message.now, sink);
  for (const line of splitter.end()) reader.read(line, line, message.now, sink);
  closeSegment();
  const bytes = writer.take();
  // The input is done with: what a record still needs of it was copied into the output.
  const spare = message.chunk.buffer as ArrayBuffer;
  const reply: JobReply = {
    job: message.job, bytes, markLengths: writer.markLengths, items, lines: splitter.lineCount, events, spare: [spare],
  };
  items = [];
  events = 0;
  parentPort!.postMessage(reply, [bytes.buffer as ArrayBuffer, spare]);
});
