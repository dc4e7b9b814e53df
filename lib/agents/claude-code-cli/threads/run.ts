// The filter on several threads, for a regular file of generic events on stdin: the main thread reads the
// file in jobs of whole lines and hands them round to worker threads, which parse, check and serialise; it
// takes their replies back in input order, puts its own state where the workers left marks, and writes each
// reply in one write. A file never makes the process wait for input, so no record waits for more of it.
import { readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { normalizeEvent, type GenericEvent } from '../../../events.js';
import type { SegmentTarget } from '../segments.js';
import type { ThreadedSink } from '../../types.js';
import type { ChunkMessage, JobReply, WorkerSetup } from './protocol.js';
import { WORKER_YOUNG_MB } from '../../../util/worker-heap.js';

/** Bytes per job: small enough that what one job makes dies young, big enough to pay for the hand-off. */
export const JOB_BYTES = 128 * 1024;

/**
 * Lines longer than this are read on the main thread (after every job before them is written): the main
 * thread's splitter and parser keep a huge line's memory bounded (lib/json/raw-json.ts), and the workers'
 * heaps stay small.
 */
export const WORKER_LINE_MAX_BYTES = 1024 * 1024;

/** Where the results go, in input order (the generic contract: lib/agents/types.ts). */
export type ParallelSink = ThreadedSink;

export interface ParallelOptions {
  /** A regular file, read from its current position. */
  fd: number;
  /** Bytes already read from `fd`: the start of the input. */
  head: Buffer;
  threads: number;
  setup: WorkerSetup;
  target: SegmentTarget;
  sink: ParallelSink;
  /** Aborting stops reading; the jobs under way are still written. */
  signal?: AbortSignal;
  /** The worker module (default: worker.js beside this file). */
  workerUrl?: URL;
}

/**
 * Old generation of each worker (MB). A worker holds one job (lines of at most WORKER_LINE_MAX_BYTES) and the
 * tool call ids it has seen: what one job makes dies young, and a small heap is collected before it grows.
 */
const WORKER_OLD_MB = 64;

interface Pending {
  job: number;
  worker: number;
  /** When the job was read (the timestamp of its events without one). */
  now: string;
  /** A copy of the job's bytes: if its worker fails, this thread reads them itself. */
  copy: Buffer;
  reply?: JobReply;
}

/**
 * Run the jobs of the rest of the file. When a worker fails, the jobs not yet written and the rest of the
 * input are read on this thread (said once on stderr): nothing is lost. Rejects on a read error.
 */
export async function runParallel(options: ParallelOptions): Promise<void> {
  const { fd, threads, target, sink } = options;
  const workers: Worker[] = [];
  const inflight: Pending[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const rouse = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  for (let i = 0; i < threads; i += 1) {
    const worker = new Worker(options.workerUrl ?? new URL('./worker.js', import.meta.url), {
      workerData: options.setup,
      // What one job makes dies young: a small young generation is enough (lib/util/worker-heap.ts).
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB, maxOldGenerationSizeMb: WORKER_OLD_MB },
    });
    worker.on('message', (reply: JobReply) => {
      const pending = inflight.find((p) => p.job === reply.job);
      if (pending) pending.reply = reply;
      rouse();
    });
    worker.on('error', (error) => {
      failure ??= new Error(`a worker thread failed: ${error.message}`);
      rouse();
    });
    worker.on('exit', (code) => {
      failure ??= new Error(`a worker thread exited (code ${code})`);
      rouse();
    });
    workers.push(worker);
  }

  let lineBase = 0;
  /** Input buffers the workers gave back, to read into again. */
  const inputPool: ArrayBuffer[] = [];
  /** Per worker: its output buffers, written, to give back with its next chunk. */
  const giveBack: ArrayBuffer[][] = workers.map(() => []);
  /** Set once a worker failed: everything left is read on this thread. */
  let alone: { push(chunk: Buffer): void; end(): number } | undefined;
  const stopWorkers = () => Promise.all(workers.map(async (worker) => {
    worker.removeAllListeners('exit');
    worker.removeAllListeners('error');
    worker.on('error', () => {});
    await worker.terminate();
  }));
  /** A worker failed: the jobs not yet written are read here, in order, and so is the rest of the input. */
  const goAlone = async (error: Error) => {
    sink.warn(`${error.message}; the rest of the input is read on one thread`);
    await stopWorkers();
    for (const pending of inflight.splice(0)) {
      const lines = sink.mainLines(lineBase, pending.job === 0);
      lines.push(pending.copy);
      lineBase += lines.end();
    }
    alone = sink.mainLines(lineBase, false);
  };
  /** Wait for the oldest job's reply and write it. */
  const settleOldest = async () => {
    const oldest = inflight[0]!;
    while (!oldest.reply) {
      if (failure) {
        await goAlone(failure);
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    inflight.shift();
    const reply = oldest.reply;
    for (const item of reply.items) {
      if (item.kind === 'segment') {
        if (sink.active()) target.addSegment(reply.bytes, item.segment, reply.markLengths);
      } else if (item.kind === 'event') {
        sink.event(item.event, lineBase + item.line);
      } else if (item.kind === 'result') {
        // Its call was in another thread's input, or nowhere: the main thread knows which.
        if (item.segment && target.knowsToolCall(item.id)) {
          sink.mapped(1);
          if (sink.active()) target.addSegment(reply.bytes, item.segment, reply.markLengths);
        } else {
          sink.event(resultFromLine(Buffer.from(reply.spare[0]!, item.start, item.end - item.start), oldest.now), lineBase + item.line);
        }
      } else {
        sink.diagnostic(lineBase + item.line, item.message, item.bad, item.once);
      }
    }
    lineBase += reply.lines;
    sink.mapped(reply.events);
    sink.flush();
    // Written (or dropped): the buffers can be filled again.
    giveBack[oldest.worker]!.push(reply.bytes.buffer as ArrayBuffer);
    inputPool.push(...reply.spare);
  };

  let job = 0;
  let turn = 0;
  const send = (chunk: Uint8Array) => {
    const spare = giveBack[turn]!.splice(0);
    const now = new Date().toISOString();
    const message: ChunkMessage = { job, chunk, atStart: job === 0, now, spare };
    const copy = Buffer.from(chunk);
    workers[turn]!.postMessage(message, [chunk.buffer as ArrayBuffer, ...spare]);
    inflight.push({ job, worker: turn, now, copy });
    job += 1;
    turn = (turn + 1) % workers.length;
  };
  /** The start of a line longer than one read, held until it ends or is too long for a worker. */
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Set while a line too long for a worker is read on this thread. */
  let onMain: { push(chunk: Buffer): void; end(): number } | undefined;
  const endOnMain = () => {
    lineBase += onMain!.end();
    onMain = undefined;
  };
  /** A job of the held bytes and `tail` (which ends with a newline, or the input). */
  const sendWithHeld = (tail: Buffer) => {
    if (held.length === 0) {
      send(tail);
      return;
    }
    const whole = Buffer.allocUnsafeSlow(heldBytes + tail.length);
    let at = 0;
    for (const piece of held) {
      at += piece.copy(whole, at);
      inputPool.push(piece.buffer as ArrayBuffer);
    }
    tail.copy(whole, at);
    held = [];
    heldBytes = 0;
    send(whole);
  };

  try {
    let carry = options.head;
    for (;;) {
      if (options.signal?.aborted) break;
      const size = Math.max(JOB_BYTES, carry.length * 2);
      const pooled = inputPool.pop();
      const buf = pooled && pooled.byteLength >= size ? Buffer.from(pooled) : Buffer.allocUnsafeSlow(size);
      carry.copy(buf, 0);
      const read = readSync(fd, buf, carry.length, size - carry.length, null);
      const data = buf.subarray(0, carry.length + read);
      carry = EMPTY;
      if (alone) {
        for (const piece of held) alone.push(piece);
        held = [];
        if (data.length > 0) alone.push(data);
        if (read === 0) break;
        continue;
      }
      if (read === 0) {
        // The end: what is left is the last line, without a newline.
        if (onMain) {
          if (data.length > 0) onMain.push(data);
          endOnMain();
        } else if (data.length > 0 || held.length > 0) {
          sendWithHeld(data);
        }
        break;
      }
      const nl = data.lastIndexOf(10);
      if (nl === -1) {
        // Inside a line longer than one read.
        if (onMain) {
          onMain.push(data);
        } else {
          held.push(data);
          heldBytes += data.length;
          if (heldBytes > WORKER_LINE_MAX_BYTES) {
            while (inflight.length > 0) await settleOldest();
            // A worker failed meanwhile: this thread reads everything from here, the held bytes first.
            if (alone) continue;
            onMain = sink.mainLines(lineBase);
            for (const piece of held) onMain.push(piece);
            held = [];
            heldBytes = 0;
          }
        }
        continue;
      }
      carry = Buffer.from(data.subarray(nl + 1));
      if (onMain) {
        onMain.push(data.subarray(0, nl + 1));
        endOnMain();
      } else {
        sendWithHeld(data.subarray(0, nl + 1));
      }
      // One job per worker and one more: each worker has its next job while the oldest reply is written, and
      // no more is held (twice as many in flight held about 10 MB more at the peak on Node 24).
      while (inflight.length > workers.length) await settleOldest();
    }
    while (inflight.length > 0) await settleOldest();
    if (alone) lineBase += alone.end();
  } finally {
    await stopWorkers();
  }
}

const EMPTY = Buffer.alloc(0);

/** The tool_result event of a line a worker read (and checked) already, read again from its bytes. */
function resultFromLine(bytes: Buffer, now: string): GenericEvent {
  const result = normalizeEvent(JSON.parse(bytes.toString('utf8')), now);
  if (!result.ok || !result.event) throw new Error('a line a worker read as a tool_result reads otherwise here');
  return result.event;
}
