// Codex's token_count lines counted as ccusage counts them (lib/agents/codex-cli/usage.ts), from literal records.
import { describe, expect, test } from 'vitest';
import { CodexUsageCounter } from '../../../lib/agents/codex-cli/usage.js';

const u = (input: number, cached: number, output: number, reasoning: number) => ({
  input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output,
});
const count = (timestamp: string, info: Record<string, unknown>) => ({ timestamp, type: 'event_msg', payload: { type: 'token_count', info } });

describe('Codex usage in the one shape', () => {
  test('last_token_usage is what a count adds; cached input is taken out of input; reasoning is kept', () => {
    const counter = new CodexUsageCounter();
    counter.add({ timestamp: 't0', type: 'turn_context', payload: { model: 'gpt-5-codex' } });
    counter.add(count('t1', { total_token_usage: u(1000, 600, 50, 20), last_token_usage: u(1000, 600, 50, 20) }));
    expect(counter.entries).toEqual([{ timestamp: 't1', model: 'gpt-5-codex', tokens: { input: 400, output: 50, cacheRead: 600, cacheWrite: 0, reasoning: 20 } }]);
  });

  test('a count repeating the running total before it is skipped, even when it gives a last usage', () => {
    const counter = new CodexUsageCounter();
    counter.add(count('t1', { total_token_usage: u(1000, 0, 50, 0), last_token_usage: u(1000, 0, 50, 0) }));
    counter.add(count('t2', { total_token_usage: u(1000, 0, 50, 0), last_token_usage: u(1000, 0, 50, 0) }));
    expect(counter.entries.map((e) => e.timestamp)).toEqual(['t1']);
  });

  test('without a last usage, what the running total grew by; the model is that of the turn_context before', () => {
    const counter = new CodexUsageCounter();
    counter.add({ timestamp: 't0', type: 'turn_context', payload: { model: 'a' } });
    counter.add(count('t1', { total_token_usage: u(1000, 100, 50, 5) }));
    counter.add({ timestamp: 't2', type: 'turn_context', payload: { model: 'b' } });
    counter.add(count('t3', { total_token_usage: u(3000, 1100, 80, 9) }));
    expect(counter.entries).toEqual([
      { timestamp: 't1', model: 'a', tokens: { input: 900, output: 50, cacheRead: 100, cacheWrite: 0, reasoning: 5 } },
      { timestamp: 't3', model: 'b', tokens: { input: 1000, output: 30, cacheRead: 1000, cacheWrite: 0, reasoning: 4 } },
    ]);
  });

  test('a count with no info, other lines and bad counts add nothing', () => {
    const counter = new CodexUsageCounter();
    counter.add({ timestamp: 't1', type: 'event_msg', payload: { type: 'token_count', info: null } });
    counter.add({ timestamp: 't2', type: 'response_item', payload: { type: 'message' } });
    counter.add(count('t3', { last_token_usage: { input_tokens: -5, output_tokens: 1e999, cached_input_tokens: '7' } }));
    expect(counter.entries).toEqual([{ timestamp: 't3', model: undefined, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 } }]);
  });
});
