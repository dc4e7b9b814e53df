// Records over a megabyte are parsed from their bytes piecewise and their long strings written back as the
// raw bytes of the line where those are what JSON.stringify writes (lib/agents/claude-code-cli/reader/scan.ts
// parseHugeRecord, second-pass.ts eventText): the NDJSON must be the bytes JSON.stringify writes of the events,
// whatever escapes the line used (and read again without its toolUseResult), on one thread and on worker threads;
// and the mapper's looks at such strings (spill pointers, blank text) must see what the whole string holds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv } from '../../../support/run.js';
import { readClaudeTranscript, type ReaderOptions } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { assistant, readAll, SID, toolUse, ts, writeTranscript } from './support.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const WORKER = new URL('dist/lib/agents/claude-code-cli/reader/read-worker.js', `file://${ROOT}/`);

/** Raw JSON string text (between the quotes) of `unit` repeated past `bytes`, with a numbered tail. */
function rawOver(unit: string, bytes: number, tail = ''): string {
  return `${unit.repeat(Math.ceil(bytes / unit.length))}${tail}`;
}

/** What JSON.stringify writes: raw non-ASCII, short escapes, lowercase \u00XX, lone surrogates escaped. */
const CANONICAL = 'abc é 日本 😀 \\" \\\\ \\n \\t \\u001b lone \\ud800 x \\udfff y ';
/** The same kind of text in escapes JSON.stringify never writes. */
const OTHER = 'a\\/b \\u00e9 \\u001B pair \\ud83d\\ude00 \\u0041 日本 ';

/**
 * A user record whose tool result is the raw string text `raw`, as one line; `copy`: with Claude Code's second
 * copy of it in toolUseResult (which no pass reads, and the second does not even read again).
 */
function resultLine(uuid: string, parent: string, id: string, raw: string, copy = false): string {
  const record = {
    parentUuid: parent, isSidechain: false, type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '@RAW@', is_error: false }] },
    uuid, timestamp: ts(), sessionId: SID, ...(copy ? { toolUseResult: { stdout: '@RAW@', stderr: '' } } : {}),
  };
  return `${JSON.stringify(record).replaceAll('"@RAW@"', () => `"${raw}"`)}\n`;
}

/** An assistant record whose one text block is the raw string text `raw`, as one line. */
function textLine(uuid: string, parent: string, raw: string): string {
  return `${JSON.stringify(assistant(uuid, parent, [{ type: 'text', text: '@RAW@' }])).replace('"@RAW@"', `"${raw}"`)}\n`;
}

async function ndjsonOf(path: string, options: ReaderOptions): Promise<{ ndjson: string; warnings: string[] }> {
  const warnings: string[] = [];
  const reader = readClaudeTranscript(path, { ...options, onWarning: (w) => warnings.push(w.message) });
  const parts: Buffer[] = [];
  for await (const chunk of reader.ndjson(() => {})) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { ndjson: Buffer.concat(parts).toString('utf8'), warnings };
}

describe('records over a megabyte', () => {
  test('read to the bytes JSON.stringify writes of their events, whatever escapes the line used, on one thread and on two', async () => {
    const canonical = rawOver(CANONICAL, 1_300_000, 'end one');
    const other = rawOver(OTHER, 1_300_000, 'end two');
    const path = writeTranscript([
      assistant('a1', null, [toolUse('t1', 'Write', { content: 'short' })]),
      resultLine('u2', 'a1', 't1', canonical),
      textLine('a3', 'u2', other),
      assistant('a4', 'a3', [toolUse('t4')]),
      resultLine('u5', 'a4', 't4', `${other}${canonical}`, true),
    ]);
    const { events } = await readAll(path, { resolveSpills: false });
    // The values are those of the line's JSON, decoded piece by piece or not.
    expect(events.map((e) => (e.type === 'tool_result' ? e.content : e.type === 'assistant' ? e.text : e.type))).toEqual([
      'tool_call', JSON.parse(`"${canonical}"`), JSON.parse(`"${other}"`), 'tool_call', JSON.parse(`"${other}${canonical}"`),
    ]);
    const expected = events.map((e) => `${JSON.stringify(e)}\n`).join('');
    const here = await ndjsonOf(path, { resolveSpills: false, threads: 0 });
    expect(here.ndjson === expected).toBe(true);
    const threaded = await ndjsonOf(path, { resolveSpills: false, threads: 2, parallelMinBytes: 0, workerUrl: WORKER, chunkBytes: 64 * 1024 });
    expect(threaded.ndjson === expected).toBe(true);
    expect([here.warnings, threaded.warnings]).toEqual([[], []]);
  });

  test('a spill pointer in a huge tool result is found, written plainly or in escapes', async () => {
    const plain = rawOver(CANONICAL, 1_200_000, ' Full output saved to: /nowhere/plain.txt');
    const escaped = rawOver(CANONICAL, 1_200_000, ' \\u0046ull output saved to: /nowhere/escaped.txt');
    const without = rawOver(CANONICAL, 1_200_000, ' Full output kept');
    const path = writeTranscript([
      assistant('a1', null, [toolUse('t1'), toolUse('t2'), toolUse('t3')]),
      resultLine('u2', 'a1', 't1', plain),
      resultLine('u3', 'u2', 't2', escaped),
      resultLine('u4', 'u3', 't3', without),
    ]);
    const { warnings } = await ndjsonOf(path, { threads: 0 });
    expect(warnings.filter((w) => w.startsWith('spilled output'))).toEqual([
      'spilled output /nowhere/plain.txt is not in a Claude Code tool-results directory; the pointer is kept',
      'spilled output /nowhere/escaped.txt is not in a Claude Code tool-results directory; the pointer is kept',
    ]);
  });

  test('a huge assistant text of white space is dropped as a short one is; one with words after the space is kept', async () => {
    const blank = rawOver(' \\n\\t \\u00a0', 1_200_000);
    const words = rawOver(' \\n', 1_200_000, 'words');
    const path = writeTranscript([
      assistant('a1', null, [toolUse('t0')]),
      textLine('a2', 'a1', blank),
      textLine('a3', 'a2', words),
    ]);
    const { events } = await readAll(path, { resolveSpills: false });
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'assistant']);
    expect(events[1]).toMatchObject({ text: JSON.parse(`"${words}"`) });
  });
});

describe('a 24 MB record', () => {
  test('is read with a 64 MB heap: never held as text, never serialised again', () => {
    // Text, parsed value and JSON.stringify output would be three copies of 24 MB on the heap, besides the rope.
    const raw = rawOver('log line, nothing to escape; ', 24 * 1024 * 1024, ' \\"last\\"');
    const path = writeTranscript([assistant('a1', null, [toolUse('t1')]), resultLine('u2', 'a1', 't1', raw)]);
    const run = spawnSync(process.execPath, ['--max-old-space-size=64', BIN, 'read', '--threads', '0', path], { env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    expect([run.status, run.stderr.toString()]).toEqual([0, '']);
    const lines = run.stdout.toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const result = JSON.parse(lines[1]!) as { type: string; content: string };
    expect(result.type).toBe('tool_result');
    const digest = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(digest(result.content)).toBe(digest(JSON.parse(`"${raw}"`) as string));
  });
});
