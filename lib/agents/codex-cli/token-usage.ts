// Token usage in Codex's terms (`token_count.info.*_token_usage`): an event's usage converted, whichever API
// shape it came in, and the running total a rollout ended with (read back when a session is appended to).
import type { Usage } from '../../events.js';
import { isObject } from '../../util/is-object.js';

/** Codex's token usage record (`token_count.info.*_token_usage`), in Codex's field order. */
export interface TokenUsage {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

const TOKEN_KEYS = [
  'input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens', 'total_tokens',
] as const;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * An event's usage in Codex's terms, or undefined when it holds no token count. Two shapes are understood:
 * the Messages API's (`input_tokens` excludes `cache_read_input_tokens` and `cache_creation_input_tokens`)
 * and OpenAI's (`input_tokens` includes the cached ones, given as `cached_input_tokens` or
 * `input_tokens_details.cached_tokens`). Codex's `input_tokens` counts every input token.
 */
export function toCodexUsage(usage: Usage): TokenUsage | undefined {
  const known = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'cached_input_tokens', 'total_tokens'];
  if (!known.some((key) => typeof usage[key] === 'number')) return undefined;
  const inputDetails = isObject(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const outputDetails = isObject(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  const openAi = usage.cached_input_tokens !== undefined || usage.reasoning_output_tokens !== undefined
    || inputDetails !== undefined || outputDetails !== undefined;
  let input: number;
  let cached: number;
  let cacheWrite: number;
  let reasoning: number;
  if (openAi) {
    input = count(usage.input_tokens);
    cached = count(usage.cached_input_tokens ?? inputDetails?.cached_tokens);
    cacheWrite = count(usage.cache_write_input_tokens);
    reasoning = count(usage.reasoning_output_tokens ?? outputDetails?.reasoning_tokens);
  } else {
    cached = count(usage.cache_read_input_tokens);
    cacheWrite = count(usage.cache_creation_input_tokens);
    input = count(usage.input_tokens) + cached + cacheWrite;
    reasoning = 0;
  }
  const output = count(usage.output_tokens);
  const total = openAi && typeof usage.total_tokens === 'number' ? count(usage.total_tokens) : input + output;
  return {
    input_tokens: input,
    cached_input_tokens: cached,
    cache_write_input_tokens: cacheWrite,
    output_tokens: output,
    reasoning_output_tokens: reasoning,
    total_tokens: total,
  };
}

export function zeroUsage(): TokenUsage {
  return { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
}

/**
 * The running total of the last complete `event_msg` `token_count` line in `text` (bytes another process,
 * such as a resuming Codex, appended), or undefined when there is none.
 */
export function lastTotalIn(text: string): TokenUsage | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes('"token_count"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a damaged foreign line: look further back
    }
    if (!isObject(record) || record.type !== 'event_msg' || !isObject(record.payload)) continue;
    const info = record.payload.info;
    if (record.payload.type !== 'token_count' || !isObject(info) || !isObject(info.total_token_usage)) continue;
    const total = zeroUsage();
    for (const key of TOKEN_KEYS) total[key] = count(info.total_token_usage[key]);
    return total;
  }
  return undefined;
}

/** An image as the data URL Codex keeps in `input_image.image_url`. */

/** Add `last` into the running `total` (Codex keeps running totals). */
export function addTokens(total: TokenUsage, last: TokenUsage): void {
  for (const key of TOKEN_KEYS) total[key] += last[key];
}
