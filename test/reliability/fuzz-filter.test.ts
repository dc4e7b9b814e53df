// Property tests of the filter over hostile input: seeded streams mixing valid events with random bytes,
// truncated and mutated events, invalid UTF-8, lone surrogates, NUL bytes, huge numbers, prototype keys and
// mixed line endings, fed in awkward chunks. Every valid event is written in order, every bad line gets
// exactly one located diagnostic, nothing crashes. Then the extremes: 100,000 levels of nesting, 50 MB lines.
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runFilter, type FilterOptions } from '../../lib/filter/index.js';
import { collect } from '../support/collect.js';
import { tempDir } from '../support/run.js';
import { generateInput, MARKER, type GeneratedInput } from './generate.js';
import { ev, feed, finished, sessionFromStdout, spawnBin, transcriptState, withSeed, type Rng } from './support.js';

const CWD = '/home/user/project';

/** The markers of the chain records of a transcript, in file order. */
function writtenMarkers(records: any[]): string[] {
  const out: string[] = [];
  for (const r of records) {
    let source: unknown;
    if (r.type === 'attachment') source = r.attachment?.prompt;
    else if (r.type === 'user') {
      const c = r.message.content;
      source = typeof c === 'string' ? c : c[0]?.type === 'tool_result' ? c[0].tool_use_id : c[0]?.text;
    } else if (r.type === 'assistant') {
      const b = r.message.content[0];
      source = b.type === 'tool_use' ? b.id : b.type === 'thinking' ? b.thinking : b.text;
    } else continue;
    const match = String(source).match(MARKER);
    out.push(match ? match[0] : `<no marker in ${r.type}>`);
  }
  return out;
}

/** Run the filter in process over `input`, fed in its chunk sizes. */
async function runInProcess(input: GeneratedInput, from: string) {
  const root = tempDir();
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const size of input.chunks) {
    chunks.push(input.data.subarray(offset, offset + size));
    offset += size;
  }
  const stdout = collect();
  const stderr = collect();
  const options: FilterOptions = {
    formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, cwd: CWD, agentName: 'fuzz',
    noSession: false, echo: false, strict: false, from, env: {}, homedir: root, processCwd: root,
  };
  const result = await runFilter(options, { stdin: Readable.from(chunks), stdout: stdout.stream, stderr: stderr.stream });
  const dir = join(root, 'projects', '-home-user-project');
  const [name] = readdirSync(dir);
  return { result, stderr: stderr.text(), stdout: stdout.text(), state: transcriptState(join(dir, name!)) };
}

/** Check the whole property for one generated input and what a run made of it. */
function checkRun(input: GeneratedInput, stderr: string, records: any[], damaged: string[], partial: string | undefined): void {
  expect(damaged).toEqual([]);
  expect(partial).toBeUndefined();
  const expected = input.lines.flatMap((line) => (line.expect.startsWith('written') ? line.markers : []));
  const got = writtenMarkers(records);
  const missing = input.lines.map((line, index) => ({ line, no: index + 1 }))
    .filter(({ line }) => line.expect.startsWith('written') && line.markers.some((m) => !got.includes(m)))
    .map(({ line, no }) => `stdin:${no} (${line.kind}): ${JSON.stringify(line.bytes.toString('latin1').slice(0, 200))}`);
  expect(got, `missing: ${missing.join('; ')}\nstderr: ${stderr}`).toEqual(expected);
  const perLine = new Map<number, number>();
  for (const line of stderr.split('\n').filter((l) => l !== '')) {
    const match = /^asyncai-log: stdin:(\d+): ./.exec(line);
    expect(match, `unlocated diagnostic: ${line}`).not.toBeNull();
    const no = Number(match![1]);
    perLine.set(no, (perLine.get(no) ?? 0) + 1);
  }
  input.lines.forEach((line, index) => {
    const want = line.expect === 'bad' || line.expect === 'written-noted' ? 1 : 0;
    expect(perLine.get(index + 1) ?? 0, `stdin:${index + 1} (${line.kind}: ${JSON.stringify(line.bytes.toString('latin1').slice(0, 80))})`).toBe(want);
  });
}

describe('the filter over generated hostile input', () => {
  test('every valid event is written in order and every bad line gets exactly one diagnostic (in process, 60 streams, awkward chunks)', async () => {
    await withSeed('filter in process', async (rng: Rng) => {
      for (let trial = 0; trial < 60; trial += 1) {
        const input = generateInput(rng, rng.between(20, 150));
        const from = rng.chance(0.5) ? 'auto' : 'events';
        const { result, stderr, state } = await runInProcess(input, from);
        expect(result.code).toBe(0);
        checkRun(input, stderr, state.records, state.damaged, state.partial);
        expect(result.badLines).toBe(input.lines.filter((l) => l.expect === 'bad').length);
      }
    });
  });

  test('the bin survives the same streams through a real pipe: exit 0, nothing lost, one diagnostic per bad line', async () => {
    await withSeed('filter through the bin', async (rng: Rng) => {
      for (let trial = 0; trial < 4; trial += 1) {
        const input = generateInput(rng, 400, 0.4);
        const root = tempDir();
        const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
        await feed(run.child, input.data, input.chunks);
        const { code, stdout, stderr } = await finished(run);
        expect(code).toBe(0);
        const state = transcriptState(sessionFromStdout(stdout).session_file);
        checkRun(input, stderr, state.records, state.damaged, state.partial);
      }
    });
  });
});

describe('one diagnostic per bad line', () => {
  test('a line that is both invalid UTF-8 and invalid JSON gets one diagnostic saying both; a kept one gets one note', async () => {
    const root = tempDir();
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
    await feed(run.child, Buffer.concat([
      Buffer.from('{"type":"user","text":"cut '), Buffer.from([0xff]), Buffer.from('\n'),
      Buffer.from('{"type":"mystery","text":"'), Buffer.from([0xc3]), Buffer.from('"}\n'),
      Buffer.from('{"type":"user","text":"kept '), Buffer.from([0xfe]), Buffer.from('"}\n'),
    ]));
    const { code, stdout, stderr } = await finished(run);
    expect(code).toBe(0);
    expect(stderr.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^asyncai-log: stdin:1: invalid JSON: .* \(the line also held invalid UTF-8\)$/),
      expect.stringMatching(/^asyncai-log: stdin:2: unknown event type "mystery".* \(the line also held invalid UTF-8\)$/),
      'asyncai-log: stdin:3: invalid UTF-8 replaced with U+FFFD',
    ]);
    expect(transcriptState(sessionFromStdout(stdout).session_file).records.map((r) => r.message.content)).toEqual(['kept \ufffd']);
  });
});

describe('extreme lines', () => {
  test('100,000 levels of nesting, as a line and inside every field that takes JSON, is one diagnostic each and the lines around are written', async () => {
    const depth = 100_000;
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const lines = [
      ev({ type: 'user', text: 'before' }).trimEnd(),
      arrays,
      objects,
      `{"type":"tool_call","id":"deep_args","name":"Bash","arguments":${objects}}`,
      `{"type":"tool_call","id":"deep_string","name":"Bash","arguments":${JSON.stringify(objects)}}`,
      `{"type":"assistant","text":"deep usage","usage":{"input_tokens":1,"nested":${arrays}}}`,
      `{"type":"tool_result","id":"x","content":${arrays}}`,
      `{"type":"context","kind":"k","data":{"d":${arrays}}}`,
      ev({ type: 'user', text: 'after' }).trimEnd(),
    ];
    const root = tempDir();
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
    await feed(run.child, Buffer.from(`${lines.join('\n')}\n`));
    const { code, stdout, stderr } = await finished(run);
    expect(code).toBe(0);
    // The last line is the fidelity account's: what the writer refused for its nesting is counted as dropped.
    const diagnostics = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('asyncai-log: fidelity: '));
    expect(stderr).toMatch(/\nasyncai-log: fidelity: claude-code-cli: [^\n]*dropped \(cannot be written\)[^\n]*\n$/);
    // `context` events are not written to Claude Code transcripts, so their depth never matters.
    expect(diagnostics.map((l) => Number(/^asyncai-log: stdin:(\d+): /.exec(l)?.[1]))).toEqual([2, 3, 4, 5, 6, 7]);
    const state = transcriptState(sessionFromStdout(stdout).session_file);
    expect(state.damaged).toEqual([]);
    expect(state.records.map((r) => r.message.content)).toEqual(['before', 'after']);
  });

  test('a tool call rejected for its nesting leaves no trace: its result is kept as text, not as a result Claude Code would drop', async () => {
    const depth = 50_000;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const root = tempDir();
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
    await feed(run.child, Buffer.from([
      ev({ type: 'user', text: 'go' }),
      `{"type":"tool_call","id":"toolu_deep","name":"Bash","arguments":${objects}}\n`,
      ev({ type: 'tool_result', id: 'toolu_deep', content: 'the output' }),
    ].join('')));
    const { code, stdout, stderr } = await finished(run);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^asyncai-log: stdin:2: cannot be serialised/);
    const records = transcriptState(sessionFromStdout(stdout).session_file).records;
    const contents = records.map((r) => r.message.content);
    // No tool_result block pointing at a tool_use that was never written.
    expect(JSON.stringify(contents)).not.toContain('"tool_use_id":"toolu_deep"');
    expect(contents[1]).toMatch(/^\[Tool result for call toolu_deep; no matching tool call was recorded\]\nthe output$/);
  });

  test('huge and odd numbers, raw and escaped lone surrogates and escaped NULs are written as valid JSON', async () => {
    const root = tempDir();
    const lines = [
      '{"type":"tool_call","id":"toolu_n","name":"Calc","arguments":{"big":123456789012345678901234567890,"inf":1e400,"tiny":1e-400,"neg":-0,"safe":9007199254740993}}',
      '{"type":"tool_result","id":"toolu_n","content":"ok"}',
      '{"type":"user","text":"escaped lone \\ud800 and \\udfff and a NUL \\u0000 end"}',
    ];
    const raw = Buffer.concat([Buffer.from('{"type":"user","text":"raw lone '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' end"}\n')]);
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
    await feed(run.child, Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), raw]));
    const { code, stdout, stderr } = await finished(run);
    expect(code).toBe(0);
    expect(stderr.trim()).toBe('asyncai-log: stdin:4: invalid UTF-8 replaced with U+FFFD');
    const file = sessionFromStdout(stdout).session_file;
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(state.records[0].message.content[0].input).toEqual({ big: 1.2345678901234568e29, inf: null, tiny: 0, neg: 0, safe: 9007199254740992 });
    expect(state.records[2].message.content).toBe('escaped lone \ud800 and \udfff and a NUL \u0000 end');
    expect(state.records[3].message.content).toBe('raw lone \ufffd\ufffd\ufffd end');
    // The file itself is well-formed UTF-8: lone surrogates are written as escapes, never as raw bytes.
    expect(Buffer.from(readFileSync(file, 'utf8'), 'utf8').equals(readFileSync(file))).toBe(true);
  });

  test('keys named __proto__ and constructor are plain data: written as given, never merged into the event', async () => {
    const root = tempDir();
    const lines = [
      '{"type":"tool_call","id":"toolu_p","name":"X","arguments":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
      '{"type":"tool_result","id":"toolu_p","content":"ok"}',
      '{"type":"user","text":"hi","__proto__":{"images":[{"media_type":"image/png","data":"AAAA"}]}}',
      '{"__proto__":{"type":"user","text":"sneaky"}}',
    ];
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD]);
    await feed(run.child, Buffer.from(`${lines.join('\n')}\n`));
    const { code, stdout, stderr } = await finished(run);
    expect(code).toBe(0);
    expect(stderr.trim()).toBe('asyncai-log: stdin:4: missing "type"');
    const records = transcriptState(sessionFromStdout(stdout).session_file).records;
    const raw = readFileSync(sessionFromStdout(stdout).session_file, 'utf8');
    expect(raw).toContain('"input":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    expect(records[2].message.content).toBe('hi');
    expect(records).toHaveLength(3);
  });
});

describe('50 MB lines', () => {
  const MB50 = 50 * 1024 * 1024;

  const bigInputs: [string, () => { data: Buffer; length: number }][] = [
    ['a tool result of non-ASCII text (two bytes a character in V8)', () => {
      const text = '\u00e9'.repeat(MB50 / 2);
      return {
        length: text.length,
        data: Buffer.from([
          ev({ type: 'user', text: 'before' }),
          ev({ type: 'tool_call', id: 'toolu_big', name: 'Read', arguments: {} }),
          ev({ type: 'tool_result', id: 'toolu_big', content: text }),
          ev({ type: 'user', text: 'after' }),
        ].join('')),
      };
    }],
    ['an ASCII result without its call (rewritten as user text, its string spliced after the header)', () => {
      const text = 'x'.repeat(MB50);
      return {
        length: text.length,
        data: Buffer.from([
          ev({ type: 'user', text: 'before' }),
          ev({ type: 'user', text: 'filler' }),
          ev({ type: 'tool_result', id: 'toolu_orphan', content: text }),
          ev({ type: 'user', text: 'after' }),
        ].join('')),
      };
    }],
  ];

  test.each(bigInputs)('a 50 MB event is written whole with peak RSS bounded by a small multiple of the line: %s', async (name, make) => {
    const root = tempDir();
    const { data, length } = make();
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD], { sampleRss: true });
    await feed(run.child, data);
    const { code, stdout, stderr, peakRssKiB } = await finished(run);
    expect(stderr).not.toMatch(/cannot|Error/);
    expect(code).toBe(0);
    const state = transcriptState(sessionFromStdout(stdout).session_file);
    expect(state.damaged).toEqual([]);
    expect(state.records).toHaveLength(4);
    expect(JSON.stringify(state.records[2].message.content).length).toBeGreaterThan(length);
    expect(state.records[3].message.content).toBe('after');
    const peakMiB = peakRssKiB / 1024;
    console.log(`50 MB event (${name}): peak RSS ${peakMiB.toFixed(0)} MiB`);
    expect(peakRssKiB).toBeGreaterThan(0);
    // Generous: a handful of copies of the line; a leak, a quadratic join or holding the stream would blow it.
    expect(peakMiB).toBeLessThan(150 + 14 * (data.length / 2 ** 20));
  });

  test('a 50 MB line over --max-line-bytes is skipped without being held: one diagnostic, the lines around it written, RSS stays small', async () => {
    const root = tempDir();
    const line = Buffer.alloc(MB50, 'x');
    const data = Buffer.concat([Buffer.from(ev({ type: 'user', text: 'before' })), line, Buffer.from(`\n${ev({ type: 'user', text: 'after' })}`)]);
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD, '--max-line-bytes', String(1024 * 1024)], { sampleRss: true });
    await feed(run.child, data);
    const { code, stdout, stderr, peakRssKiB } = await finished(run);
    expect(code).toBe(0);
    expect(stderr.trim()).toBe(`asyncai-log: stdin:2: line of ${MB50} bytes is over the limit of 1048576 bytes; skipped`);
    expect(transcriptState(sessionFromStdout(stdout).session_file).records.map((r) => r.message.content)).toEqual(['before', 'after']);
    console.log(`50 MB line over the limit: peak RSS ${(peakRssKiB / 1024).toFixed(0)} MiB`);
    expect(peakRssKiB).toBeGreaterThan(0);
    expect(peakRssKiB / 1024).toBeLessThan(150);
  });

  test('a 50 MB line of invalid JSON with NUL bytes and invalid UTF-8 is one diagnostic, no crash', async () => {
    const root = tempDir();
    const line = Buffer.alloc(MB50, 'y');
    for (let i = 0; i < line.length; i += 4096) line[i] = i % 8192 === 0 ? 0 : 0xff;
    const data = Buffer.concat([Buffer.from(ev({ type: 'user', text: 'before' })), line, Buffer.from(`\r\n${ev({ type: 'user', text: 'after' })}`)]);
    const run = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', CWD], { sampleRss: true });
    await feed(run.child, data);
    const { code, stdout, stderr, peakRssKiB } = await finished(run);
    expect(code).toBe(0);
    const diagnostics = stderr.split('\n').filter((l) => l !== '');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/^asyncai-log: stdin:2: invalid JSON: /);
    expect(diagnostics[0]!.length).toBeLessThan(400);
    expect(transcriptState(sessionFromStdout(stdout).session_file).records.map((r) => r.message.content)).toEqual(['before', 'after']);
    expect(peakRssKiB / 1024).toBeLessThan(150 + 14 * 50);
  });
});
