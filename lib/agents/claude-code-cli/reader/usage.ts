// Session token totals. Claude Code writes one assistant record per content block, each repeating its
// response's message.id and usage, so a naive sum roughly doubles what was billed: each response is counted
// once, keyed by message.id (with requestId where the record has one), by its record with the largest token
// total, as ccusage counts. A record with no id is counted, not dropped: overcounting a novelty beats silently
// ignoring it.
import { isObject, SYNTHETIC_MODEL } from './record-types.js';
import { checkedUsage, tokenCount, zeroTokens } from '../../../usage.js';
import type { UsageEntry } from '../../../session/types.js';

/** Summed usage: every numeric field (nested objects summed field by field), plus counts. */
export interface UsageTotals {
  /** API responses counted (deduplicated). */
  responses: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Other numeric fields Claude Code reports (cache_creation.*, server_tool_use.*, ...), summed. */
  [field: string]: unknown;
  /** The same totals per model. */
  by_model: Record<string, Record<string, unknown>>;
}

/** Add every finite number of `usage` into `into`, recursing into plain objects; other values are ignored. */
export function addUsage(into: Record<string, unknown>, usage: Record<string, unknown>): void {
  for (const key of Object.keys(usage)) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isFinite(value)) {
      const current = into[key];
      into[key] = (typeof current === 'number' ? current : 0) + value;
    } else if (isObject(value)) {
      const current = into[key];
      const nested = isObject(current) ? current : {};
      addUsage(nested, value);
      if (Object.keys(nested).length > 0) into[key] = nested;
    }
  }
}

const TOTAL_KEYS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

/** The four token counts of `usage` summed: what "largest" means among the records of one response. */
function tokenTotal(usage: Record<string, unknown>): number {
  let total = 0;
  for (const key of TOTAL_KEYS) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isFinite(value)) total += value;
  }
  return total;
}

interface Counted {
  usage: Record<string, unknown>;
  model: string | undefined;
  total: number;
  timestamp: string | undefined;
}

/** A usage object as a record gave it, with its token counts checked and their total. */
interface Checked {
  raw: unknown;
  usage: Record<string, unknown>;
  total: number;
  problems: string[];
}

/**
 * A response's usage in the one shape: Claude's `input_tokens` already excludes the cache reads and writes;
 * thinking is part of `output_tokens` (Claude Code does not say how much of it), so reasoning is 0.
 */
export function claudeTokens(usage: Record<string, unknown>): UsageEntry['tokens'] {
  return {
    ...zeroTokens(),
    input: tokenCount(usage.input_tokens),
    output: tokenCount(usage.output_tokens),
    cacheRead: tokenCount(usage.cache_read_input_tokens),
    cacheWrite: tokenCount(usage.cache_creation_input_tokens),
  };
}

/**
 * Accumulates usage over assistant records in file order. Per response the record with the largest token total
 * counts (the first of equals), as ccusage counts: Claude Code repeats the response's usage on every block's
 * record, and a writer that learns of more usage later in the response (this project's) puts it on later ones.
 */
export class UsageCounter {
  /** Per response, in the order responses first appear. */
  private readonly responses = new Map<string, Counted>();
  /** Records without a message id, summed as they come (nothing to deduplicate them by). */
  private readonly unkeyed = { count: 0, sum: {} as Record<string, unknown>, byModel: {} as Record<string, Record<string, unknown>> };
  /** With `keepEntries`: the records without a message id, each an entry. */
  private readonly unkeyedEntries: Counted[] = [];

  /** The usage checked last (see `checked`). */
  private last: Checked = { raw: undefined, usage: {}, total: 0, problems: [] };

  constructor(private readonly keepEntries = false) {}

  /** Each response counted, in the order responses first appear (records without an id after them). */
  entries(): UsageEntry[] {
    const out: UsageEntry[] = [];
    for (const { usage, model, timestamp } of [...this.responses.values(), ...this.unkeyedEntries]) {
      out.push({ timestamp, model: model === SYNTHETIC_MODEL ? undefined : model, tokens: claudeTokens(usage) });
    }
    return out;
  }

  /**
   * Feed one record (anything but an assistant record with usage is ignored). A token count that is no
   * non-negative safe integer is told to `warn` and left out of the sums.
   */
  add(record: Record<string, unknown>, warn: (message: string) => void = () => {}): void {
    if (record.type !== 'assistant' || !isObject(record.message)) return;
    const { id, model } = record.message;
    const raw = record.message.usage;
    if (!isObject(raw)) return;
    const checked = this.checked(raw);
    for (const problem of checked.problems) warn(problem);
    const { usage, total } = checked;
    const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    if (typeof id !== 'string' || id === '') {
      const entry = { usage, model: typeof model === 'string' ? model : undefined, total, timestamp };
      this.unkeyed.count += 1;
      if (this.keepEntries) this.unkeyedEntries.push(entry);
      accumulate(this.unkeyed.sum, this.unkeyed.byModel, entry);
      return;
    }
    const requestId = typeof record.requestId === 'string' ? record.requestId : '';
    const key = `${id}\u0000${requestId}`;
    const counted = this.responses.get(key);
    if (counted === undefined || total > counted.total) {
      this.responses.set(key, { usage, model: typeof model === 'string' ? model : undefined, total, timestamp });
    }
  }

  /**
   * `raw` with its token counts checked, and their total. The records of a response's blocks repeat its usage,
   * which the byte reader gives as one object (usage-scan.ts): it is checked once (its problems told again for
   * each record that holds it, as each record is).
   */
  private checked(raw: Record<string, unknown>): Checked {
    if (raw !== this.last.raw) {
      const problems: string[] = [];
      const usage = checkedUsage(raw, 'message.usage', 0, problems);
      this.last = { raw, usage, total: tokenTotal(usage), problems };
    }
    return this.last;
  }

  /** The totals so far. */
  totals(): UsageTotals {
    const sum: Record<string, unknown> = structuredClone(this.unkeyed.sum);
    const byModel: Record<string, Record<string, unknown>> = structuredClone(this.unkeyed.byModel);
    for (const entry of this.responses.values()) accumulate(sum, byModel, entry);
    return {
      responses: this.responses.size + this.unkeyed.count,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      ...sum,
      by_model: byModel,
    } as UsageTotals;
  }
}

function accumulate(
  sum: Record<string, unknown>, byModel: Record<string, Record<string, unknown>>,
  { usage, model }: Counted,
): void {
  addUsage(sum, usage);
  if (model !== undefined && model !== SYNTHETIC_MODEL) {
    byModel[model] ??= {};
    addUsage(byModel[model], usage);
  }
}
