// Token counts between generic `usage` and Gemini's: a Gemini CLI chat message's `tokens` ({input, output,
// cached, thoughts, tool, total}, the CLI's copy of the API's usageMetadata) and the API's `usageMetadata` itself
// (Qwen Code's records keep that). Gemini counts cached tokens inside `input` and thought tokens apart from
// `output`; the Messages API counts output with thinking and input without cache.
import type { Usage } from '../events.js';
import { isObject } from '../util/is-object.js';

export interface GeminiTokens {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  tool: number;
  total: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * `usage` as Gemini tokens, or undefined when it holds no count. Understood: Gemini's own usageMetadata
 * (`promptTokenCount`, ...), OpenAI's (`input_tokens` with cached inside, `cached_input_tokens` or
 * `input_tokens_details.cached_tokens`, reasoning inside `output_tokens`) and the Messages API's.
 */
export function toGeminiTokens(usage: Usage): GeminiTokens | undefined {
  if (typeof usage.promptTokenCount === 'number' || typeof usage.candidatesTokenCount === 'number') {
    const tokens = {
      input: count(usage.promptTokenCount), output: count(usage.candidatesTokenCount), cached: count(usage.cachedContentTokenCount),
      thoughts: count(usage.thoughtsTokenCount), tool: count(usage.toolUsePromptTokenCount), total: 0,
    };
    tokens.total = count(usage.totalTokenCount) || tokens.input + tokens.output + tokens.thoughts + tokens.tool;
    return tokens;
  }
  if (typeof usage.input_tokens !== 'number' && typeof usage.output_tokens !== 'number') return undefined;
  const inputDetails = isObject(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const outputDetails = isObject(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  const openAi = usage.cached_input_tokens !== undefined || inputDetails !== undefined || outputDetails !== undefined
    || usage.reasoning_output_tokens !== undefined;
  let input: number;
  let cached: number;
  let thoughts = 0;
  if (openAi) {
    input = count(usage.input_tokens);
    cached = count(usage.cached_input_tokens ?? inputDetails?.cached_tokens);
    thoughts = count(usage.reasoning_output_tokens ?? outputDetails?.reasoning_tokens);
  } else {
    cached = count(usage.cache_read_input_tokens);
    input = count(usage.input_tokens) + cached + count(usage.cache_creation_input_tokens);
  }
  const output = Math.max(0, count(usage.output_tokens) - thoughts);
  return { input, output, cached, thoughts, tool: 0, total: input + output + thoughts };
}

/** A chat message's `tokens` as generic usage in the Messages API's terms, or undefined when there are none. */
export function fromGeminiTokens(tokens: unknown): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const input = count(tokens.input) + count(tokens.tool);
  const cached = Math.min(count(tokens.cached), input);
  const usage: Usage = {
    input_tokens: input - cached,
    output_tokens: count(tokens.output) + count(tokens.thoughts),
  };
  if (cached > 0) usage.cache_read_input_tokens = cached;
  return usage;
}

/** The API's `usageMetadata` (`promptTokenCount`, ...), as Qwen Code's records keep it. */
export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount: number;
}

/** `usage` as the API's usageMetadata, or undefined when it holds no count. */
export function toUsageMetadata(usage: Usage): UsageMetadata | undefined {
  const tokens = toGeminiTokens(usage);
  if (tokens === undefined) return undefined;
  return {
    promptTokenCount: tokens.input + tokens.tool, candidatesTokenCount: tokens.output, thoughtsTokenCount: tokens.thoughts,
    totalTokenCount: tokens.total, cachedContentTokenCount: tokens.cached,
  };
}

/** The API's usageMetadata as generic usage in the Messages API's terms, or undefined when it is not one. */
export function fromUsageMetadata(metadata: unknown): Usage | undefined {
  if (!isObject(metadata)) return undefined;
  if (typeof metadata.promptTokenCount !== 'number' && typeof metadata.candidatesTokenCount !== 'number') return undefined;
  return fromGeminiTokens({
    input: metadata.promptTokenCount, output: metadata.candidatesTokenCount, cached: metadata.cachedContentTokenCount,
    thoughts: metadata.thoughtsTokenCount, tool: metadata.toolUsePromptTokenCount,
  });
}
