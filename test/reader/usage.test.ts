// Session token totals: one count per API response however many block records repeat its usage.
import { describe, expect, test } from 'vitest';
import { readClaudeTranscript } from '../../lib/readers/claude-code-cli/index.js';
import { addUsage, UsageCounter } from '../../lib/readers/claude-code-cli/usage.js';
import { assistant, text, toolUse, user, writeTranscript } from './support.js';

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
