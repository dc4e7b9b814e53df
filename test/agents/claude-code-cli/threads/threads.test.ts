// The filter on worker threads (lib/agents/claude-code-cli/threads/) writes what the one-thread filter writes: the same records
// in the same order (ids aside, which are random), the same diagnostics on the same lines, the same counts.
// Inputs are files (threads are used only for a regular file on stdin), hostile and spread over many jobs.
import { describe, expect, test } from 'vitest';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
// The built code: worker threads load dist/lib/agents/claude-code-cli/threads/worker.js, which exists only there.
import { runFilter, type FilterOptions, type FilterResult } from '../../../../dist/lib/filter/index.js';
import { fileInput } from '../../../../dist/lib/input/file-input.js';
import { JOB_BYTES } from '../../../../dist/lib/agents/claude-code-cli/threads/run.js';
import { collect } from '../../../support/collect.js';
import { dyingWorker } from '../../../support/dying-worker.js';
import { tempDir } from '../../../support/run.js';
import { generateInput } from '../../../reliability/generate.js';
import { ev, Rng, withSeed } from '../../../reliability/support.js';

const CWD = '/home/user/project';
const WORKER = new URL('../../../../dist/lib/agents/claude-code-cli/threads/worker.js', import.meta.url);

interface Outcome {
  result: FilterResult;
  stderr: string;
  stdout: string;
  records: any[];
}

/**
 * Run the filter on `file` as stdin (a regular file, as `asyncai-log < file` gives it), or, with
 * `extra.files`, on the files it names (stdin then is empty).
 */
async function filterFile(file: string, threads: number, extra: Partial<FilterOptions> = {}): Promise<Outcome> {
  const root = tempDir();
  const fd = openSync(file, 'r');
  const stdout = collect();
  const stderr = collect();
  try {
    const options: FilterOptions = {
      formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, agentName: 'test', noSession: false,
      echo: false, strict: false, from: 'auto', env: {}, homedir: root, processCwd: CWD, cwd: CWD,
      threads, threadsMinBytes: 0, ...extra,
    };
    const result = await runFilter(options, extra.files
      ? { stdin: Readable.from([]), stdout: stdout.stream, stderr: stderr.stream }
      : { stdin: fileInput(fd)!, stdinFd: fd, stdout: stdout.stream, stderr: stderr.stream });
    const dir = join(root, 'projects', '-home-user-project');
    // A run that wrote no record keeps no session file.
    const name = readdirSync(dir)[0];
    const records = name === undefined ? [] : readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    return { result, stderr: stderr.text(), stdout: stdout.text(), records };
  } finally {
    closeSync(fd);
  }
}

/** When this test file began: later timestamps are the time a line was read (events without one). */
const STARTED = new Date().toISOString();

/** Records with their random ids replaced by the order they first appear in, and read-time stamps alike. */
function normalise(records: any[]): string[] {
  const ids = new Map<string, string>();
  const id = (v: unknown) => {
    if (typeof v !== 'string') return v;
    if (!ids.has(v)) ids.set(v, `#${ids.size}`);
    return ids.get(v);
  };
  return records.map((record) => {
    const r = JSON.parse(JSON.stringify(record).replace(/<task-id>(b[a-z0-9]{8})<\/task-id>/g, (_m, t: string) => `<task-id>${id(t) as string}</task-id>`));
    for (const key of ['uuid', 'parentUuid', 'logicalParentUuid', 'sessionId', 'commandUuid', 'deliveryId']) if (key in r) r[key] = id(r[key]);
    if (r.message?.id) r.message.id = id(r.message.id);
    if (r.attachment) {
      r.attachment.source_uuid = id(r.attachment.source_uuid);
      r.attachment.delivery_id = id(r.attachment.delivery_id);
      if (r.attachment.timestamp >= STARTED) r.attachment.timestamp = 'read';
    }
    if (typeof r.timestamp === 'string' && r.timestamp >= STARTED) r.timestamp = 'read';
    return JSON.stringify(r);
  });
}

/** Every chain record continues from the one before it: one branch, as a resume loads it. */
function chainBreaks(records: any[]): number {
  let previous: string | null = null;
  let breaks = 0;
  for (const r of records) {
    if (typeof r.uuid !== 'string') continue;
    if (r.parentUuid !== previous && r.type !== 'system') breaks += 1;
    previous = r.uuid;
  }
  return breaks;
}

/** Every response's records (one message.id) are at strictly increasing times, in file order. */
function unorderedResponses(records: any[]): string[] {
  const last = new Map<string, number>();
  const bad: string[] = [];
  for (const r of records) {
    if (r.type !== 'assistant') continue;
    const time = Date.parse(r.timestamp);
    const before = last.get(r.message.id);
    if (before !== undefined && !(time > before)) bad.push(`${r.message.id} at ${r.timestamp as string}`);
    last.set(r.message.id, time);
  }
  return bad;
}

/** A time before any read time (events without one get the time they were read: see `normalise`). */
const GIVEN = '2026-01-02T03:04:05.000Z';
/** How many calls the long response makes, and the usage each reports: together over several jobs. */
const LONG_CALLS = 2500;
const CALL_USAGE = { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 };

/** Usage as the API reports it, now and then: the writer sums what one response reports more than once. */
function someUsage(rng: Rng): object {
  if (rng.chance(0.5)) return {};
  return { usage: { input_tokens: rng.int(500), output_tokens: rng.int(200), cache_creation_input_tokens: rng.int(50), cache_read_input_tokens: rng.int(900) } };
}

/** A given time now and then, the same for many events: the records of one response must still get their own. */
function someTime(rng: Rng): object {
  return rng.chance(0.3) ? { timestamp: GIVEN } : {};
}

/**
 * A conversation spread over many jobs: turns with tool calls whose results come jobs later (or never),
 * responses reporting usage more than once, one of them longer than several jobs, events at the same given time,
 * monitors that end far from their events, compaction, subagent and unsigned events (warned once), lines
 * longer than a job, bad lines of every kind, CRLF, a BOM at the start, no newline at the end.
 */
function conversation(rng: Rng): Buffer {
  // The first line decides the input format: an event. A bad line of each kind comes in every run.
  const lines: string[] = [ev({ type: 'user', text: 'first' }).trimEnd(), 'not json', '{"type":"nope"}'];
  const open: string[] = [];
  let call = 0;
  const big = (n: number) => 'x€'.repeat(n);
  while (lines.join('\n').length < 12 * JOB_BYTES) {
    const roll = rng.int(20);
    if (roll < 3) lines.push(ev({ type: 'user', text: `question ${lines.length} ü` }).trimEnd());
    else if (roll < 6) lines.push(ev({ type: 'assistant', text: `answer ${lines.length}`, ...(rng.chance(0.5) ? { model: 'claude-opus-4-1-20250805' } : {}), ...someUsage(rng), ...someTime(rng) }).trimEnd());
    else if (roll < 9) {
      const id = `toolu_${(call += 1)}`;
      open.push(id);
      lines.push(ev({ type: 'tool_call', id, name: 'Bash', arguments: { command: `echo ${id}` }, ...someUsage(rng), ...someTime(rng) }).trimEnd());
    } else if (roll < 12 && open.length > 0) {
      const id = open.splice(rng.int(open.length), 1)[0]!;
      lines.push(ev({ type: 'tool_result', id, content: rng.chance(0.05) ? big(150_000) : `out ${id}`, is_error: rng.chance(0.2) }).trimEnd());
    } else if (roll === 12) lines.push(ev({ type: 'tool_result', id: `toolu_nowhere_${lines.length}`, content: 'orphan' }).trimEnd());
    else if (roll === 13) lines.push(ev({ type: 'monitor_event', event: `line ${lines.length}`, description: rng.pick(['build', 'tests']) }).trimEnd());
    else if (roll === 14 && rng.chance(0.3)) lines.push(ev({ type: 'monitor_end', description: rng.pick(['build', 'tests', 'never-seen']), exit_code: rng.pick([0, 1]) }).trimEnd());
    else if (roll === 15) lines.push(ev({ type: 'thinking', text: 'hmm', ...(rng.chance(0.5) ? { signature: 'c2ln' } : {}) }).trimEnd());
    else if (roll === 16) lines.push(rng.pick(['{"type":"user"', 'not json', '{"type":"nope"}', '{"type":"user","text":5}', '', '   ']));
    else if (roll === 17) lines.push(ev({ type: 'user', text: 'from a subagent', agent_id: 'a1' }).trimEnd());
    else if (roll === 18 && rng.chance(0.1)) lines.push(ev({ type: 'compaction', summary: 'what happened so far' }).trimEnd());
    else lines.push(ev({ type: 'assistant', text: big(rng.int(3) * 40_000 + 10) }).trimEnd());
  }
  // Lines over a megabyte are read on the main thread, between the jobs around them (never first: the first
  // line must fit the head the filter reads to decide on threads).
  lines.splice(1 + rng.int(lines.length), 0, ev({ type: 'assistant', text: big(350_000) }).trimEnd());
  lines.splice(1 + rng.int(lines.length), 0, ev({ type: 'user', text: `huge ${big(300_000)}`, timestamp: '2026-01-02T03:04:05.000Z' }).trimEnd());
  // One response of many calls at one given time, each reporting usage: it spans several jobs (no
  // user-side line comes between its calls).
  const long = [ev({ type: 'user', text: 'many calls' }).trimEnd()];
  for (let i = 0; i < LONG_CALLS; i += 1) {
    long.push(ev({ type: 'tool_call', id: `toolu_long_${i}`, name: 'Bash', arguments: { command: 'true' }, usage: CALL_USAGE, timestamp: GIVEN }).trimEnd());
  }
  lines.splice(1 + rng.int(lines.length), 0, ...long);
  const bytes: Buffer[] = [Buffer.from('\ufeff')];
  lines.forEach((line, i) => {
    bytes.push(Buffer.from(line));
    if (i === lines.length - 1) return;
    bytes.push(Buffer.from(rng.chance(0.1) ? '\r\n' : '\n'));
    // Invalid UTF-8 now and then, inside a string of a valid event.
    if (rng.chance(0.01) && !line.includes('"toolu_long_')) bytes.push(Buffer.concat([Buffer.from('{"type":"user","text":"bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
  });
  return Buffer.concat(bytes);
}

describe('the filter on worker threads', () => {
  test('writes the same records, diagnostics and counts as one thread on a conversation spread over many jobs', async () => {
    await withSeed('threads-conversation', async (rng) => {
      const file = join(tempDir(), 'events.ndjson');
      writeFileSync(file, conversation(rng));
      const one = await filterFile(file, 0);
      const two = await filterFile(file, 2);
      expect(one.result.threads).toBe(0);
      expect(two.result.threads).toBe(2);
      expect(normalise(two.records)).toEqual(normalise(one.records));
      expect(chainBreaks(two.records)).toBe(0);
      expect(unorderedResponses(two.records)).toEqual([]);
      const long = two.records.filter((r) => r.message?.content?.[0]?.id?.startsWith('toolu_long_'));
      expect(long).toHaveLength(LONG_CALLS);
      expect(new Set(long.map((r) => r.message.id)).size).toBe(1);
      expect(long.at(-1).message.usage).toEqual({ input_tokens: LONG_CALLS, output_tokens: 2 * LONG_CALLS, cache_creation_input_tokens: 3 * LONG_CALLS, cache_read_input_tokens: 4 * LONG_CALLS });
      expect(long.at(-1).timestamp).toBe(new Date(Date.parse(GIVEN) + LONG_CALLS - 1).toISOString());
      expect(two.stderr).toBe(one.stderr);
      expect(two.stderr).toMatch(/stdin:\d+: invalid JSON/);
      expect(two.records.some((r) => typeof r.message?.content === 'string' && r.message.content.startsWith('huge '))).toBe(true);
      expect(two.stderr.match(/unsigned thinking/g)?.length ?? 0).toBe(one.stderr.match(/unsigned thinking/g)?.length ?? 0);
      expect(two.stdout.split('\n')[0]).toMatch(/"work_name":"session"/);
      expect({ ...two.result, harnesses: [], threads: 0 }).toEqual({ ...one.result, harnesses: [], threads: 0 });
    });
  });

  test('a file named as an argument is read on threads as stdin is, and writes the same, its diagnostics naming the file', async () => {
    await withSeed('threads-argument', async (rng) => {
      const file = join(tempDir(), 'events.ndjson');
      writeFileSync(file, conversation(rng));
      const stdin = await filterFile(file, 0);
      const argument = await filterFile(file, 2, { files: [file] });
      expect(argument.result.threads).toBe(2);
      expect(normalise(argument.records)).toEqual(normalise(stdin.records));
      expect(chainBreaks(argument.records)).toBe(0);
      expect(argument.stderr).toBe(stdin.stderr.replaceAll('asyncai-log: stdin:', `asyncai-log: ${file}:`));
      expect(argument.stderr).toMatch(/events\.ndjson:\d+: invalid JSON/);
      expect({ ...argument.result, harnesses: [], threads: 0 }).toEqual({ ...stdin.result, harnesses: [], threads: 0 });
      // Named twice, the file is read twice, on one thread: twice the records.
      const twice = await filterFile(file, 2, { files: [file, file] });
      expect(twice.result.threads).toBe(0);
      expect(twice.records).toHaveLength(stdin.records.length * 2);
    });
  });

  test('writes the same as one thread on hostile input (random bytes, invalid UTF-8, lone surrogates, huge numbers)', async () => {
    await withSeed('threads-hostile', async (rng) => {
      const parts: Buffer[] = [];
      // Several generated streams back to back: many jobs, tool call ids unique within each.
      for (let i = 0; i < 8; i += 1) parts.push(generateInput(rng, 2500).data, Buffer.from('\n'));
      const file = join(tempDir(), 'hostile.ndjson');
      writeFileSync(file, Buffer.concat(parts));
      const one = await filterFile(file, 0);
      const two = await filterFile(file, 2);
      expect(two.result.threads).toBe(2);
      expect(normalise(two.records)).toEqual(normalise(one.records));
      expect(two.stderr).toBe(one.stderr);
      expect(two.result.badLines).toBe(one.result.badLines);
      expect(two.result.badLines).toBeGreaterThan(0);
    });
  });

  // A heap limit too small to start a worker is no way to make one fail: on Node 22 and later it is a fatal
  // V8 error of the whole process (out of memory while the worker's heap is set up), not a worker error.
  test('when a worker runs out of memory, what it had not written and the rest are read on one thread', async () => {
    await withSeed('threads-worker-fails', async (rng) => {
      const file = join(tempDir(), 'events.ndjson');
      writeFileSync(file, conversation(rng));
      const one = await filterFile(file, 0);
      const failing = await filterFile(file, 2, { threadWorkerUrl: dyingWorker(WORKER, 'runs out of memory', 3) });
      expect(failing.result.code).toBe(0);
      expect(normalise(failing.records)).toEqual(normalise(one.records));
      const notice = failing.stderr.split('\n').filter((l) => l.includes('worker thread'));
      expect(notice).toHaveLength(1);
      expect(notice[0]).toMatch(/^asyncai-log: a worker thread failed: .*memory limit.*; the rest of the input is read on one thread$/);
      expect(failing.stderr.split('\n').filter((l) => !l.includes('worker thread'))).toEqual(one.stderr.split('\n'));
    });
  });

  test('a worker that fails while a line over a megabyte waits loses nothing of that line or what follows', async () => {
    const file = join(tempDir(), 'events.ndjson');
    const lines = [ev({ type: 'user', text: 'first' }), ev({ type: 'assistant', text: `huge ${'é'.repeat(800_000)}` })];
    for (let i = 0; i < 2000; i += 1) lines.push(ev({ type: 'assistant', text: `after ${i}` }));
    writeFileSync(file, lines.join(''));
    const one = await filterFile(file, 0);
    const failing = await filterFile(file, 2, { threadWorkerUrl: dyingWorker(WORKER, 'throws', 1) });
    expect(failing.result.code).toBe(0);
    expect(failing.stderr).toMatch(/^asyncai-log: a worker thread failed: injected failure; the rest of the input is read on one thread$/m);
    expect(normalise(failing.records)).toEqual(normalise(one.records));
  });

  test('one thread is used for input that is not generic events, and for --strict, --echo and other formats', async () => {
    const dir = tempDir();
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, `${ev({ type: 'user', text: 'hi' })}${ev({ type: 'assistant', text: 'hello' })}`);
    expect((await filterFile(file, 2)).result.threads).toBe(2);
    expect((await filterFile(file, 2, { strict: true })).result.threads).toBe(0);
    expect((await filterFile(file, 2, { echo: true })).result.threads).toBe(0);
    expect((await filterFile(file, 2, { threadsMinBytes: 1024 })).result.threads).toBe(0);
    const stream = join(dir, 'stream.ndjson');
    writeFileSync(stream, `${ev({ type: 'system', subtype: 'init', cwd: CWD, session_id: 's' })}${ev({ type: 'assistant', message: { id: 'm', role: 'assistant', content: [{ type: 'text', text: 'hi' }] } })}`);
    const foreign = await filterFile(stream, 2);
    expect(foreign.result.threads).toBe(0);
    expect(foreign.records.some((r) => r.type === 'assistant')).toBe(true);
  });

  test('a file of one line without a newline, and an empty file, are written as one thread writes them', async () => {
    const dir = tempDir();
    const single = join(dir, 'single.ndjson');
    writeFileSync(single, JSON.stringify({ type: 'user', text: 'only line' }));
    const two = await filterFile(single, 2);
    expect(two.result.threads).toBe(2);
    expect(two.records.map((r) => r.message?.content)).toEqual(['only line']);
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    const none = await filterFile(empty, 2);
    expect(none.records).toEqual([]);
    expect(none.result.code).toBe(0);
    expect(none.result.harnesses).toEqual([]);
    expect(none.stderr).toMatch(/^asyncai-log: no events to write, so session [0-9a-f-]{36} was not kept \(removed .*\.jsonl\)\n$/);
  });
});
