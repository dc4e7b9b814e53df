// Usage objects (an API response's token counts, as the events carry them) summed and differenced field by
// field: the Claude Code writer sums what a response's events reported, its reader gives each event what grew.
// One depth for both, so what the writer sums the reader takes apart again. Token counts are checked on the way
// in (checkedUsage): only non-negative safe integers are summed.
import { isObject } from './util/is-object.js';
import { previewValue } from './lines/line-messages.js';

/** Token usage as the agent reported it; passed through to the transcript unchanged. */
export type Usage = Record<string, unknown>;

/** How deep nested usage objects are summed and compared field by field; deeper ones are taken as a whole. */
export const USAGE_MAX_DEPTH = 4;

/**
 * `earlier` and `later` summed: numbers add up, objects are summed field by field, any other value is the later
 * one. A new object, keys in first-seen order; neither argument is changed.
 */
export function sumUsage(earlier: Usage, later: Usage, depth = 0): Usage {
  const out: Usage = { ...earlier };
  for (const key of Object.keys(later)) {
    const before = Object.hasOwn(out, key) ? out[key] : undefined;
    const value = later[key];
    let sum = value;
    if (typeof before === 'number' && typeof value === 'number') sum = before + value;
    else if (depth < USAGE_MAX_DEPTH && isObject(before) && isObject(value)) sum = sumUsage(before, value, depth + 1);
    // An own "__proto__" key (JSON may hold one) must stay a key, not become the prototype.
    Object.defineProperty(out, key, { value: sum, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * What grew from `earlier` to `later`, the usage of two records of one response: the differences of the numbers
 * that grew, nested objects field by field, with any other changed value as it is now. Undefined when no number
 * grew, or when one shrank (a record that is not a later total of the same response: nothing to give).
 */
export function usageGrowth(earlier: Usage, later: Usage): Usage | undefined {
  const grown = { value: false };
  const out = growth(earlier, later, 0, grown);
  return out !== undefined && grown.value ? out : undefined;
}

function growth(earlier: Record<string, unknown>, later: Record<string, unknown>, depth: number, grown: { value: boolean }): Usage | undefined {
  const out: Usage = {};
  for (const key of Object.keys(later)) {
    const before = Object.hasOwn(earlier, key) ? earlier[key] : undefined;
    const value = later[key];
    let part: unknown;
    if (typeof before === 'number' && typeof value === 'number') {
      if (value < before) return undefined;
      if (value === before) continue;
      part = value - before;
      grown.value = true;
    } else if (depth < USAGE_MAX_DEPTH && isObject(before) && isObject(value)) {
      const inner = growth(before, value, depth + 1, grown);
      if (inner === undefined) return undefined;
      if (Object.keys(inner).length === 0) continue;
      part = inner;
    } else {
      if (before !== undefined && JSON.stringify(before) === JSON.stringify(value)) continue;
      part = value;
      if (typeof value === 'number' && value !== 0) grown.value = true;
    }
    // An own "__proto__" key (JSON may hold one) must stay a key, not become the prototype.
    Object.defineProperty(out, key, { value: part, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A field that holds a token count by its name (`input_tokens`, `web_search_requests`): a number is wanted there. */
const COUNT_KEY = /(^|_)(tokens|requests)$/;

/**
 * `usage` without the token counts that are no non-negative safe integer (`1e999`, `-50`, `"7"` where a count is
 * named), each told once in `warnings`: summed, they would make every total wrong. Other values pass as they are.
 */
export function checkedUsage(usage: Usage, path: string, depth: number, warnings: string[]): Usage {
  const out: Usage = {};
  for (const key of Object.keys(usage)) {
    const value = usage[key];
    let kept: unknown = value;
    if (typeof value === 'number' || (value !== null && !isObject(value) && COUNT_KEY.test(key))) {
      if (!(Number.isSafeInteger(value) && (value as number) >= 0)) {
        warnings.push(`"${path}.${key}" must be a non-negative whole number, got ${typeof value === 'number' ? String(value) : previewValue(value)}; left out`);
        continue;
      }
    } else if (isObject(value) && depth < USAGE_MAX_DEPTH) {
      kept = checkedUsage(value, `${path}.${key}`, depth + 1, warnings);
    }
    // An own "__proto__" key (JSON may hold one) must stay a key, not become the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    else out[key] = kept;
  }
  return out;
}

/**
 * Token counts in the one shape every agent's usage is read into (`read --usage --by`): `input` excludes the
 * cache reads and writes (as the Messages API counts), `output` includes `reasoning` (as OpenAI counts; an agent
 * that does not say leaves reasoning 0). The four first are disjoint: their sum is what was billed.
 */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

export function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** Add `more` into `into`. */
export function addTokenCounts(into: TokenCounts, more: TokenCounts): void {
  // Field by field: a loop over the field names reads and writes by a computed key, several times slower.
  into.input += more.input;
  into.output += more.output;
  into.cacheRead += more.cacheRead;
  into.cacheWrite += more.cacheWrite;
  into.reasoning += more.reasoning;
}

/** A token count as a non-negative safe integer, else 0 (what is no count is not summed). */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * An event's usage in the one shape, read as the Messages API's fields (what every input adapter passes on):
 * `input_tokens`, `output_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`, and
 * `reasoning_tokens` where an adapter keeps it. Undefined when it holds none of them.
 */
export function messagesApiTokens(usage: Usage): TokenCounts | undefined {
  const keys = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'reasoning_tokens'];
  if (!keys.some((key) => typeof usage[key] === 'number')) return undefined;
  return {
    input: tokenCount(usage.input_tokens),
    output: tokenCount(usage.output_tokens),
    cacheRead: tokenCount(usage.cache_read_input_tokens),
    cacheWrite: tokenCount(usage.cache_creation_input_tokens),
    reasoning: tokenCount(usage.reasoning_tokens),
  };
}
