// Session token totals: one count per API response however many block records repeat its usage.
import { describe, expect, test } from 'vitest';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { addUsage, UsageCounter } from '../../../../lib/agents/claude-code-cli/reader/usage.js';
import { runBin, sessionOf, tempDir } from '../../../support/run.js';
import { assistant, readAll, text, toolUse, user, writeTranscript } from './support.js';

const U = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 1 };

describe('usage totals', () => {
  test('the block records of one response are counted once', async () => {
    const path = writeTranscript([
      user('u1', null, 'go'),
      assistant('a1', 'u1', [text('a')], { id: 'm1', usage: U }),
      assistant('a2', 'a1', [toolUse('c1')], { id: 'm1', usage: U }),
      assistant('a3', 'a2', [toolUse('c2')], { id: 'm1', usage: U }),
    ]);
    const totals = await readClaudeTranscript(path).usage();
    expect(totals).toMatchObject({ responses: 1, input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5, cache_creation_input_tokens: 1 });
  });

  test('different responses are summed', async () => {
    const path = writeTranscript([
      assistant('a1', null, [text('a')], { id: 'm1', usage: U }),
      assistant('a2', 'a1', [text('b')], { id: 'm2', usage: U }),
    ]);
    expect(await readClaudeTranscript(path).usage()).toMatchObject({ responses: 2, input_tokens: 200, output_tokens: 40 });
  });

  test('the same message id under different request ids counts once per request', async () => {
    const path = writeTranscript([
      assistant('a1', null, [text('a')], { id: 'm1', usage: U, extra: { requestId: 'req_1' } }),
      assistant('a2', 'a1', [text('a')], { id: 'm1', usage: U, extra: { requestId: 'req_1' } }),
      assistant('a3', 'a2', [text('a')], { id: 'm1', usage: U, extra: { requestId: 'req_2' } }),
    ]);
    expect(await readClaudeTranscript(path).usage()).toMatchObject({ responses: 2, input_tokens: 200 });
  });

  test('a record without a message id is counted, not dropped', async () => {
    const noId = assistant('a1', null, [text('a')], { usage: U });
    delete (noId.message as Record<string, unknown>).id;
    const path = writeTranscript([noId, { ...noId, uuid: 'a2' }]);
    expect(await readClaudeTranscript(path).usage()).toMatchObject({ responses: 2, input_tokens: 200 });
  });

  test('every branch counts: abandoned responses were billed too', async () => {
    const path = writeTranscript([
      user('u1', null, 'go'),
      assistant('a1', 'u1', [text('first try')], { id: 'm1', usage: U }),
      assistant('a2', 'u1', [text('second try')], { id: 'm2', usage: U }),
    ]);
    expect(await readClaudeTranscript(path).usage()).toMatchObject({ responses: 2 });
  });

  test('nested fields are summed field by field and reported per model', async () => {
    const nested = { input_tokens: 1, output_tokens: 2, cache_creation: { ephemeral_5m_input_tokens: 3 }, service_tier: 'standard' };
    const path = writeTranscript([
      assistant('a1', null, [text('a')], { id: 'm1', usage: nested }),
      assistant('a2', 'a1', [text('b')], { id: 'm2', usage: nested, model: 'claude-haiku-4-5-20251001' }),
    ]);
    const totals = await readClaudeTranscript(path).usage();
    expect(totals.cache_creation).toEqual({ ephemeral_5m_input_tokens: 6 });
    expect(totals).not.toHaveProperty('service_tier');
    expect(Object.keys(totals.by_model)).toEqual(['claude-opus-5-5', 'claude-haiku-4-5-20251001']);
    expect(totals.by_model['claude-haiku-4-5-20251001']).toEqual({ input_tokens: 1, output_tokens: 2, cache_creation: { ephemeral_5m_input_tokens: 3 } });
  });

  test('the last record of a response carries its final counts', () => {
    const counter = new UsageCounter();
    counter.add(assistant('a1', null, [text('a')], { id: 'm1', usage: { input_tokens: 10, output_tokens: 1 } }));
    counter.add(assistant('a2', 'a1', [text('b')], { id: 'm1', usage: { input_tokens: 10, output_tokens: 9 } }));
    expect(counter.totals()).toMatchObject({ responses: 1, output_tokens: 9 });
  });

  test('the record of a response with the largest total counts, not the last (as ccusage counts)', () => {
    const counter = new UsageCounter();
    counter.add(assistant('a1', null, [text('a')], { id: 'm1', usage: { input_tokens: 100, output_tokens: 50 } }));
    counter.add(assistant('a2', 'a1', [toolUse('c1')], { id: 'm1', usage: { input_tokens: 0, output_tokens: 0 } }));
    counter.add(assistant('a3', null, [text('b')], { id: 'm2', usage: { input_tokens: 100, output_tokens: 0 } }));
    counter.add(assistant('a4', 'a3', [text('c')], { id: 'm2', usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 150 } }));
    expect(counter.totals()).toMatchObject({ responses: 2, input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 150 });
  });

  test('of records with equal totals the first counts, with its model', () => {
    const counter = new UsageCounter();
    counter.add(assistant('a1', null, [text('a')], { id: 'm1', usage: { input_tokens: 10, output_tokens: 5 } }));
    counter.add(assistant('a2', 'a1', [text('b')], { id: 'm1', usage: { input_tokens: 5, output_tokens: 10 }, model: 'claude-haiku-4-5-20251001' }));
    const totals = counter.totals();
    expect(totals).toMatchObject({ responses: 1, input_tokens: 10, output_tokens: 5 });
    expect(Object.keys(totals.by_model)).toEqual(['claude-opus-5-5']);
  });

  test('the events of a response carry its usage once: all at its first record, then only what grew', async () => {
    const path = writeTranscript([
      user('u1', null, 'go'),
      // This project's writer: each record carries the response's usage so far.
      assistant('a1', 'u1', [text('a')], { id: 'm1', usage: { input_tokens: 100, output_tokens: 50 } }),
      assistant('a2', 'a1', [toolUse('c1')], { id: 'm1', usage: { input_tokens: 110, output_tokens: 55, cache_creation: { ephemeral_5m_input_tokens: 3 } } }),
      assistant('a3', 'a2', [toolUse('c2')], { id: 'm1', usage: { input_tokens: 110, output_tokens: 55, cache_creation: { ephemeral_5m_input_tokens: 3 } } }),
      // Claude Code: one usage repeated on every record.
      assistant('a4', 'a3', [text('b')], { id: 'm2', usage: U }),
      assistant('a5', 'a4', [toolUse('c3')], { id: 'm2', usage: U }),
      // A record whose usage shrank is no later total: it gives none.
      assistant('a6', 'a5', [text('c')], { id: 'm3', usage: { input_tokens: 100, output_tokens: 50 } }),
      assistant('a7', 'a6', [toolUse('c4')], { id: 'm3', usage: { input_tokens: 100, output_tokens: 40 } }),
    ]);
    const { events } = await readAll(path);
    const usages = events.filter((e) => e.type === 'assistant' || e.type === 'tool_call').map((e) => (e as { usage?: unknown }).usage);
    expect(usages).toEqual([
      { input_tokens: 100, output_tokens: 50 },
      { input_tokens: 10, output_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 3 } },
      undefined,
      U,
      undefined,
      { input_tokens: 100, output_tokens: 50 },
      undefined,
    ]);
  });

  test('a transcript written from events with usage on several events of a turn reads back to the same totals', async () => {
    const root = tempDir();
    const input = [
      { type: 'user', text: 'hi' },
      { type: 'assistant', text: 'ok', usage: { input_tokens: 100, output_tokens: 50 } },
      { type: 'tool_call', id: 'toolu_1', name: 'Bash', arguments: { command: 'ls' }, usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 20 } },
      { type: 'tool_call', id: 'toolu_2', name: 'Bash', arguments: { command: 'pwd' }, usage: { output_tokens: 4 } },
      { type: 'tool_result', id: 'toolu_1', content: 'a' },
      { type: 'tool_result', id: 'toolu_2', content: 'b' },
    ].map((e) => `${JSON.stringify(e)}\n`).join('');
    const write = async (text: string) => sessionOf(await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p'], { input: text })).session_file;
    const first = await write(input);
    const read = await runBin(['read', first]);
    const second = await write(read.stdout);
    const want = { input_tokens: 107, output_tokens: 57, cache_read_input_tokens: 20, cache_creation_input_tokens: 0 };
    expect(await readClaudeTranscript(first).usage()).toMatchObject({ responses: 1, ...want });
    expect(await readClaudeTranscript(second).usage()).toMatchObject({ responses: 1, ...want });
  });

  test('a transcript without assistant records totals zero', async () => {
    expect(await readClaudeTranscript(writeTranscript([user('u1', null, 'hi')])).usage())
      .toEqual({ responses: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, by_model: {} });
  });

  test('addUsage ignores values that are not finite numbers', () => {
    const into: Record<string, unknown> = {};
    addUsage(into, { a: 1, b: 'x', c: null, d: Number.NaN, e: [1], f: { g: 2 } });
    expect(into).toEqual({ a: 1, f: { g: 2 } });
  });
});
