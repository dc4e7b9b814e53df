// `read` on worker threads (lib/agents/claude-code-cli/reader/worker-pool.ts, read-worker.ts) writes the same
// bytes and the same diagnostics as on one thread: chunks are made tiny so a response, a compaction and a
// record without a time fall across chunk boundaries. The workers run the build (global setup makes it).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ByteSink } from '../../../../lib/util/byte-sink.js';
import { readClaudeTranscript, type ReaderOptions } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import {
  assistant, attachment, lastPrompt, system, text, toolResult, toolUse, ts, user, writeTranscript,
} from './support.js';
import { dyingWorker } from '../../../support/dying-worker.js';
import { tempDir } from '../../../support/run.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const WORKER = new URL('dist/lib/agents/claude-code-cli/reader/read-worker.js', `file://${ROOT}/`);
const FIXTURES = join(ROOT, 'fixtures', 'claude-code-cli');

interface Output {
  ndjson: string;
  warnings: string[];
  unwritable: string[];
}

/** Chunks mapped on worker threads in the last threaded read, and of them mapped again on the main thread. */
let threading = { chunks: 0, remapped: 0 };

async function readNdjson(path: string, options: ReaderOptions): Promise<Output> {
  const warnings: string[] = [];
  const unwritable: string[] = [];
  const reader = readClaudeTranscript(path, { ...options, onWarning: (w) => warnings.push(`${w.line ?? ''}: ${w.message}`) });
  let ndjson = '';
  for await (const chunk of reader.ndjson((event, error) => unwritable.push(`${event.type}: ${error.message}`))) ndjson += chunk.toString();
  if ((options.threads ?? 0) > 0) threading = { ...reader.threading };
  return { ndjson, warnings, unwritable };
}

/** The output on two worker threads and on this thread, with chunks of `chunkBytes`. */
async function both(path: string, options: ReaderOptions = {}, chunkBytes = 1024): Promise<[Output, Output]> {
  const common = { chunkBytes, parallelMinBytes: 0, workerUrl: WORKER, ...options };
  threading = { chunks: 0, remapped: 0 };
  return [await readNdjson(path, { ...common, threads: 2 }), await readNdjson(path, { ...common, threads: 0 })];
}

/**
 * A long conversation with everything that spans records: responses over several records, a compaction,
 * records without a time, anonymous responses, once-only warnings and an abandoned branch.
 */
function conversation(): (Record<string, unknown> | string)[] {
  const lines: (Record<string, unknown> | string)[] = [];
  let parent: string | null = null;
  const push = (record: Record<string, unknown>) => {
    lines.push(record);
    parent = record.uuid as string;
  };
  for (let turn = 0; turn < 60; turn += 1) {
    push(user(`u${turn}`, parent, `question ${turn} ${'é'.repeat(turn * 7)}`));
    const id = turn % 7 === 3 ? '' : `msg_${turn}`;
    // Usage repeated (Claude Code), grown from record to record (this project's writer), or shrunk.
    const usage = (output: number) => ({ input_tokens: 100 + turn, output_tokens: output, cache_read_input_tokens: turn });
    const grown = turn % 3 === 0 ? 7 : turn % 3 === 1 ? 7 + turn : 2;
    push(assistant(`t${turn}`, parent, [{ type: 'thinking', thinking: `thought ${turn}`, signature: 'sig' }], { id, usage: usage(7) }));
    push(assistant(`a${turn}`, parent, [text(`answer ${turn} ${'x'.repeat(turn * 13)}`)], { id, usage: usage(7) }));
    push(assistant(`c${turn}`, parent, [toolUse(`toolu_${turn}`, 'Bash', { command: `ls ${turn}`, nested: { timestamp: 'not this one' } })], { id, usage: usage(grown) }));
    push(user(`r${turn}`, parent, [toolResult(`toolu_${turn}`, `out ${turn}`)]));
    if (turn % 11 === 5) push(assistant(`w${turn}`, parent, [{ type: 'server_tool_use', id: 'x' }], { id: `msg_w${turn}` }));
    if (turn % 13 === 6) {
      const stale = user(`s${turn}`, parent, 'no time');
      delete stale.timestamp;
      push(stale);
    }
    if (turn % 17 === 8) {
      push(system(`b${turn}`, null, 'compact_boundary', { logicalParentUuid: parent, compactMetadata: { trigger: 'auto', preTokens: 1000 + turn } }));
      push(user(`sum${turn}`, parent, `summary ${turn}`, { isCompactSummary: true }));
    }
    if (turn % 19 === 9) lines.push(user(`edit${turn}`, `u${turn}`, 'an abandoned edit'));
    if (turn % 23 === 10) push(attachment(`att${turn}`, parent, { type: 'todo', content: 'context' }));
  }
  lines.push(lastPrompt(parent!));
  return lines;
}

describe('read on worker threads', () => {
  test('a worker hands back NDJSON in a buffer of its own, never a slice of Node\'s shared pool, so it can be transferred', () => {
    // Node pools buffers under half of Buffer.poolSize (8 KiB on Node 20 and 22, 64 KiB on 24), and a pooled
    // buffer cannot be transferred on Node 22 and later: a read whose chunk made a small output failed.
    for (const [size, text] of [[1, 'x'], [100, 'é'.repeat(20)], [4096, 'y'.repeat(3000)], [20_000, 'z'.repeat(50_000)]] as const) {
      const sink = new ByteSink(size);
      sink.put(text);
      sink.put('\n');
      expect(sink.buf.byteOffset).toBe(0);
      expect(sink.buf.buffer.byteLength).toBe(sink.buf.length);
      const { buffer } = sink.buf;
      const moved = structuredClone(buffer, { transfer: [buffer] });
      expect(buffer.byteLength).toBe(0);
      expect(Buffer.from(moved, 0, sink.length).toString()).toBe(`${text}\n`);
    }
  });

  test('writes the same NDJSON and diagnostics as one thread, chunk boundaries anywhere', async () => {
    const path = writeTranscript(conversation());
    for (const chunkBytes of [512, 1500, 4096]) {
      const [threaded, here] = await both(path, {}, chunkBytes);
      expect(threaded.ndjson.split('\n').length).toBeGreaterThan(300);
      expect(threaded).toEqual(here);
      // Turn 4's call record grew by 4 output tokens over its text record: its event carries just that.
      expect(here.ndjson).toContain('"usage":{"output_tokens":4}');
      // Most chunks were the workers' own (one starting inside a compaction or with a timeless record is redone).
      expect(threading.chunks).toBeGreaterThan(10);
      expect(threading.remapped).toBeLessThan(threading.chunks / 2);
    }
  });

  test('a line over the record limit in a worker\'s chunk gets its one diagnostic, as on one thread', async () => {
    const path = writeTranscript(conversation());
    for (const chunkBytes of [1500, 4096]) {
      const [threaded, here] = await both(path, { maxRecordBytes: 600 }, chunkBytes);
      expect(threaded).toEqual(here);
      expect(here.warnings.filter((w) => /over the limit of 600 bytes; skipped/.test(w)).length).toBeGreaterThan(3);
    }
  });

  test('writes the same context events as one thread (--events)', async () => {
    const path = writeTranscript(conversation());
    const [threaded, here] = await both(path, { includeEvents: true });
    expect(threaded.ndjson).toContain('"type":"context"');
    expect(threading.chunks).toBeGreaterThan(10);
    expect(threaded).toEqual(here);
  });

  test('gives a damaged line its one diagnostic, as one thread does', async () => {
    const lines = conversation();
    lines.splice(40, 0, '{"type":"user","message":{"ro\u0000\u0000\n', 'not json at all\n', '[1,2]\n');
    lines.push(`${JSON.stringify(user('cut', null, 'cut off')).slice(0, 30)}`);
    const path = writeTranscript(lines);
    const [threaded, here] = await both(path);
    expect(threaded.warnings.filter((w) => /damaged line|not a JSON object|cut off/.test(w))).toHaveLength(4);
    // Damage leaves the second pass to this thread (the first pass scanned on the workers all the same).
    expect(threading.chunks).toBe(0);
    expect(threaded).toEqual(here);
  });

  test('reads a chosen branch the same as one thread (--branch)', async () => {
    const path = writeTranscript(conversation());
    const [threaded, here] = await both(path, { branch: 'edit28' });
    expect(threaded.ndjson).toContain('an abandoned edit');
    expect(threading.chunks).toBeGreaterThan(10);
    expect(threaded).toEqual(here);
  });

  test('reads every fixture transcript the same as one thread', async () => {
    const files: string[] = [];
    for (const name of readdirSync(FIXTURES)) {
      for (const file of readdirSync(join(FIXTURES, name), { recursive: true }) as string[]) {
        if (file.endsWith('.jsonl')) files.push(join(FIXTURES, name, file));
      }
    }
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      for (const includeEvents of [false, true]) {
        const [threaded, here] = await both(file, { includeEvents, resolveSpills: false }, 700);
        expect(threaded, file).toEqual(here);
      }
    }
  });

  test('a record without a time right after a chunk boundary takes the time before it, as on one thread', async () => {
    const first = user('u1', null, 'x'.repeat(300));
    const timeless = user('u2', 'u1', 'no time of its own');
    delete timeless.timestamp;
    const path = writeTranscript([first, timeless, assistant('a1', 'u2', [text('done')]), { ...user('u3', 'a1', 'later'), timestamp: ts() }]);
    const [threaded, here] = await both(path, {}, 700);
    expect(threaded.ndjson).toContain(`"text":"no time of its own","timestamp":"${first.timestamp as string}"`);
    expect(threading.remapped).toBe(1);
    expect(threaded).toEqual(here);
  });

  test('a record over a megabyte is mapped on the main thread, in its place', async () => {
    const lines = conversation();
    lines.splice(30, 0, user('big', 'u4', `${'y'.repeat(1_200_000)} end`));
    const path = writeTranscript(lines);
    const [threaded, here] = await both(path, { branch: 'big' }, 4096);
    expect(threaded.ndjson).toContain(' end"');
    expect(threading.remapped).toBeGreaterThan(0);
    expect(threaded).toEqual(here);
  });

  test('a transcript holding a record over 16 MiB has its second pass read on the main thread alone, the same bytes out', async () => {
    // The workers' heaps would stand beside the huge record's bytes and strings for nothing: it is mapped here.
    const lines = conversation();
    lines.splice(30, 0, user('huge', 'u4', `${'z'.repeat(17 * 1024 * 1024)} end`));
    const path = writeTranscript(lines);
    const [threaded, here] = await both(path, { branch: 'huge' }, 4096);
    expect(threaded.ndjson).toContain(' end"');
    expect(threading.chunks).toBe(0);
    expect(threaded).toEqual(here);
  });

  test('a worker module that cannot start leaves the whole read to the main thread, the same bytes out', async () => {
    const broken = join(tempDir(), 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker cannot start');\n");
    const path = writeTranscript(conversation());
    const options = { chunkBytes: 1024, parallelMinBytes: 0, threads: 2 };
    const failed = await readNdjson(path, { ...options, workerUrl: pathToFileURL(broken) });
    const here = await readNdjson(path, { ...options, threads: 0 });
    expect(failed.ndjson).toEqual(here.ndjson);
    expect(failed.unwritable).toEqual(here.unwritable);
    expectOneFailureNotice(failed, here, /this worker cannot start/);
  });

  // A worker that fails in the middle of a read: the chunks it and the other worker held, and all after them,
  // are read on the main thread; the output is the bytes one thread writes, with one notice more.
  for (const [how, kind, notice] of [
    ['throws', 'map', /^: a worker thread failed: injected failure; the rest is read on one thread$/],
    ['runs out of memory', 'map', /^: a worker thread failed: .*memory limit.*; the rest is read on one thread$/],
    ['exits', 'heads', /^: a worker thread exited \(code 3\); the rest is read on one thread$/],
  ] as const) {
    test(`a worker that ${how} in the ${kind === 'map' ? 'second' : 'first'} pass leaves the rest to the main thread, the same bytes out`, async () => {
      const path = writeTranscript(conversation());
      for (const includeEvents of [false, true]) {
        const [failed, here] = await both(path, { includeEvents, workerUrl: dyingWorker(WORKER, how, 4, kind) });
        expect(failed.ndjson.split('\n').length).toBeGreaterThan(300);
        expect(failed.ndjson).toEqual(here.ndjson);
        expect(failed.unwritable).toEqual(here.unwritable);
        expectOneFailureNotice(failed, here, notice);
        if (kind === 'map') {
          // The workers had mapped chunks before one failed; those in flight then and all after were redone here.
          expect(threading.remapped).toBeGreaterThan(0);
          expect(threading.remapped).toBeLessThan(threading.chunks);
        } else {
          expect(threading.remapped).toBe(threading.chunks);
        }
      }
    });
  }
});

/** The warnings of one thread, and one more saying a worker failed (where it happened among them). */
function expectOneFailureNotice(failed: Output, here: Output, notice: RegExp): void {
  const notices = failed.warnings.filter((w) => w.includes('worker thread'));
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatch(notice);
  expect(failed.warnings.filter((w) => !w.includes('worker thread'))).toEqual(here.warnings);
}
