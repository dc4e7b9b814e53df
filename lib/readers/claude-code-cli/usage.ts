// Session token totals. Claude Code writes one assistant record per content block, each repeating its
// response's message.id and usage, so a naive sum roughly doubles what was billed: each response is counted
// once, keyed by message.id (with requestId where the record has one). A record with no id is counted, not
// dropped: overcounting a novelty beats silently ignoring it.
import { isObject, SYNTHETIC_MODEL } from './record-types.js';

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
  for (const [key, value] of Object.entries(usage)) {
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

/**
 * Accumulates usage over assistant records in file order. The last record of a response wins: Claude Code
 * repeats the usage on every block's record and the final one carries the response's final counts.
 */
export class UsageCounter {
  private readonly responses = new Map<string, { usage: Record<string, unknown>; model: string | undefined }>();
  /** Records without a message id, summed as they come (nothing to deduplicate them by). */
  private readonly unkeyed = { count: 0, sum: {} as Record<string, unknown>, byModel: {} as Record<string, Record<string, unknown>> };

  /** Feed one record (anything but an assistant record with usage is ignored). */
  add(record: Record<string, unknown>): void {
    if (record.type !== 'assistant' || !isObject(record.message)) return;
    const { usage, id, model } = record.message;
    if (!isObject(usage)) return;
    const entry = { usage, model: typeof model === 'string' ? model : undefined };
    if (typeof id !== 'string' || id === '') {
      this.unkeyed.count += 1;
      accumulate(this.unkeyed.sum, this.unkeyed.byModel, entry);
      return;
    }
    const requestId = typeof record.requestId === 'string' ? record.requestId : '';
    const key = `${id}\u0000${requestId}`;
    // Delete first so the map keeps the order of each response's last record.
    this.responses.delete(key);
    this.responses.set(key, entry);
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
  { usage, model }: { usage: Record<string, unknown>; model: string | undefined },
): void {
  addUsage(sum, usage);
  if (model !== undefined && model !== SYNTHETIC_MODEL) {
    byModel[model] ??= {};
    addUsage(byModel[model], usage);
  }
}
