// Convert of a Claude Code transcript reads it twice (lib/convert/file-read.ts rereadLines): the first read
// scans its lines' heads and holds the turns by line number, the end reads the branch's lines again. The
// session it writes is byte for byte the one the held-records path writes (the adapter's `end`, which the
// filter still uses), with branches, sidechains, compactions, images, Monitor notifications and a huge tool result;
// a transcript that grew is still appended to the session converted before.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { appendFileSync, closeSync, copyFileSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTranscript } from '../../lib/agents/claude-code-cli/transcript-input.js';
import { convertSource } from '../../lib/convert/convert-file.js';
import { rereadLines } from '../../lib/convert/file-read.js';
import type { ConvertSettings, ConvertTask } from '../../lib/convert/types.js';
import type { InputAdapter } from '../../lib/input/types.js';
import { LAZY_TEXT_BYTES } from '../../lib/lines/lines.js';
import { FIXTURES, runBin, tempDir } from '../support/run.js';

const SESSION = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a0000aa';
const T = (s: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, s)).toISOString();
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function record(n: number, parent: number | null, type: string, message: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    parentUuid: parent === null ? null : id(parent), isSidechain: false, type, message, uuid: id(n), timestamp: T(n),
    cwd: '/home/user/project', sessionId: SESSION, ...extra,
  });
}

/**
 * A transcript with a rewind (the first answer forked from), a sidechain, an image, a huge tool result (its
 * text past Latin-1, and its second copy in toolUseResult), a compaction and a turn after it.
 */
function corpus(): string {
  const huge = `${'output line café 🙂 "quoted" \\ tab\t\n'.repeat(Math.ceil((2 * LAZY_TEXT_BYTES) / 40))}end`;
  const lines = [
    JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: T(0), sessionId: SESSION }),
    record(1, null, 'user', { role: 'user', content: 'first question' }),
    record(2, 1, 'assistant', { id: 'msg_1', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'an answer rewound' }] }),
    record(3, 1, 'user', { role: 'user', content: [{ type: 'text', text: 'asked again, with a picture' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }),
    record(4, 3, 'assistant', { id: 'msg_2', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'side work' }] }, { isSidechain: true }),
    record(5, 3, 'assistant', { id: 'msg_3', role: 'assistant', model: 'claude-x', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat big' } }] }),
    record(6, 5, 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: huge, is_error: false }] }, { toolUseResult: { stdout: huge, stderr: '' } }),
    record(7, 6, 'assistant', { id: 'msg_4', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'long output read' }] }),
    JSON.stringify({ parentUuid: null, logicalParentUuid: id(7), isSidechain: false, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 1234 }, uuid: id(8), timestamp: T(8), cwd: '/home/user/project', sessionId: SESSION }),
    record(9, 8, 'user', { role: 'user', content: 'This session is being continued: a summary.' }, { isCompactSummary: true }),
    record(10, 9, 'user', { role: 'user', content: 'after the compaction' }),
    record(11, 10, 'assistant', { id: 'msg_5', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'done' }] }),
  ];
  return `${lines.join('\n')}\n`;
}

/** The held-records path: the adapter as the filter drives it (no line numbers, no `endFrom`, no `scan`). */
function heldRecords(): void {
  const create = claudeTranscript.create.bind(claudeTranscript);
  vi.spyOn(claudeTranscript, 'create').mockImplementation(() => {
    const adapter = create();
    const map = adapter.map.bind(adapter);
    return Object.assign(adapter, {
      endFrom: undefined, scan: undefined, map: (value: unknown, now: string, warn: (message: string) => void) => map(value, now, warn),
    }) as InputAdapter;
  });
}

/** Convert `path` into a fresh Claude Code root: the outcome and the session's bytes with its ids numbered in order. */
async function convert(path: string): Promise<{ outcome: Awaited<ReturnType<typeof convertSource>>; session: string }> {
  const dir = tempDir();
  const task: ConvertTask = { index: 0, path, real: path, reason: 'new', targets: [{ format: 'claude-code-cli', root: join(dir, 'root'), rewrite: false }] };
  const settings: ConvertSettings = {
    from: 'auto', processCwd: dir, keepUsage: false, subagents: false, dryRun: false, env: {}, homedir: dir,
  };
  const outcome = await convertSource(task, settings);
  expect(outcome.status, outcome.error).toBe('converted');
  const file = outcome.harnesses[0]!.session_file;
  // Each run gives its records fresh uuids, message and request ids (and the session its own id): numbered by
  // first appearance.
  const ids = new Map<string, string>();
  const session = readFileSync(file, 'utf8').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|req)_[0-9A-Za-z]{16,}/g, (uuid) => {
    if (!ids.has(uuid)) ids.set(uuid, `id-${ids.size}`);
    return ids.get(uuid)!;
  });
  return { outcome, session };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('convert of a Claude Code transcript reads the branch again from the file', () => {
  const fixtures = ['compaction', 'image', 'monitor', 'parallel-bash', 'spill', 'subagent'];

  test('a transcript with a rewind, a sidechain, an image, a huge tool result and a compaction is written as the held-records path writes it', async () => {
    const path = join(tempDir(), `${SESSION}.jsonl`);
    writeFileSync(path, corpus());
    const reread = await convert(path);
    heldRecords();
    const held = await convert(path);
    expect(reread.session).toBe(held.session);
    expect(reread.session).toContain('after the compaction');
    expect(reread.session).not.toContain('an answer rewound');
    expect(reread.session).toContain('output line café 🙂');
    // The same account (but for the session file's identity, `marks`).
    const { harnesses: [rereadRef], marks: _rereadMarks, ...rereadRest } = reread.outcome;
    const { harnesses: [heldRef], marks: _heldMarks, ...heldRest } = held.outcome;
    expect(rereadRest).toEqual(heldRest);
    expect(rereadRef!.fidelity).toEqual(heldRef!.fidelity);
  });

  test.each(fixtures)('the %s fixture is written as the held-records path writes it', async (name) => {
    const dir = join(FIXTURES, 'claude-code-cli', name);
    const file = readdirSync(dir).find((entry) => entry.endsWith('.jsonl'))!;
    const path = join(tempDir(), file);
    copyFileSync(join(dir, file), path);
    const reread = await convert(path);
    heldRecords();
    const held = await convert(path);
    expect(reread.session.split('\n')).toEqual(held.session.split('\n'));
    expect(reread.outcome.messages).toEqual(held.outcome.messages);
  });
});

describe('rereadLines', () => {
  test('gives the wanted lines numbered as the splitter numbers them: blank lines counted, CRLF and a last line without a newline', () => {
    const path = join(tempDir(), 'lines.jsonl');
    writeFileSync(path, '{"a":1}\r\n\n{"b":2}\n{"c":3}\n  \n{"d":4}');
    const fd = openSync(path, 'r');
    try {
      const size = readFileSync(path).length;
      expect([...rereadLines(fd, size, [1, 3, 6])].map(({ no, value }) => [no, value])).toEqual([[1, { a: 1 }], [3, { b: 2 }], [6, { d: 4 }]]);
      expect([...rereadLines(fd, size, [4])].map(({ value }) => value)).toEqual([{ c: 3 }]);
    } finally {
      closeSync(fd);
    }
  });

  test('lines longer than a read, wanted or passed over, keep the lines after them numbered; a wanted blank line is left out', () => {
    const path = join(tempDir(), 'long.jsonl');
    const long = (key: string) => JSON.stringify({ [key]: 'x'.repeat(200_000) });
    writeFileSync(path, `${long('a')}\n\n${long('b')}\r\n{"c":3}\n${long('d')}`);
    const fd = openSync(path, 'r');
    try {
      const size = readFileSync(path).length;
      const read = [...rereadLines(fd, size, [2, 3, 4, 5])].map(({ no, value }) => [no, Object.keys(value as object)]);
      expect(read).toEqual([[3, ['b']], [4, ['c']], [5, ['d']]]);
      expect([...rereadLines(fd, size, [4])].map(({ value }) => value)).toEqual([{ c: 3 }]);
    } finally {
      closeSync(fd);
    }
  });
});

describe('convert of a grown Claude Code transcript read twice', () => {
  test('a transcript with a huge tool result that grew by a turn is appended to its session: same id, earlier bytes kept, the new turn after them', async () => {
    const dir = tempDir();
    const path = join(dir, `${SESSION}.jsonl`);
    const root = join(dir, 'root');
    writeFileSync(path, corpus());
    const convert = async () => {
      const r = await runBin(['convert', path, '--session-dir', `claude-code-cli=${root}`], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim());
    };
    const first = await convert();
    expect(first.status).toBe('converted');
    const file = first.harnesses[0].session_file;
    const before = readFileSync(file);
    appendFileSync(path, `${[
      record(12, 11, 'user', { role: 'user', content: 'the next question' }),
      record(13, 12, 'assistant', { id: 'msg_6', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'the next answer' }] }),
    ].join('\n')}\n`);
    const second = await convert();
    expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(second.harnesses[0]).toMatchObject({ session_id: first.harnesses[0].session_id, session_file: file });
    const after = readFileSync(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(added.map((r) => r.type)).toEqual(['user', 'assistant']);
    expect(JSON.stringify(added)).toContain('the next question');
    expect(JSON.stringify(added)).toContain('the next answer');
  });
});
