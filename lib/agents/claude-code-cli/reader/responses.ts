// Model and usage once per response: Claude Code writes one record per content block of a response, each
// repeating the response's model and usage. The reader gives the model to the response's first event that can
// carry it and each usage only as it grew, so a round trip through the writer adds up to what was billed; a
// deferred mapper (on a worker) leaves the decision to the main thread, in branch order.
import type { GenericEvent, Usage } from '../../../events.js';
import { usageGrowth } from '../../../usage.js';
import { RecentMap, RecentSet } from '../../../util/recent.js';
import { isObject, isPlaceholderUsage } from './record-types.js';

/** What an event would carry of its response, decided later (deferred mapping). */
export interface DeferredResponse {
  id: string;
  /** The response's model, if the event could carry it. */
  model?: string;
  /** Whether the event could carry the response's usage. */
  usage?: Record<string, unknown>;
}

const deferredResponses = new WeakMap<GenericEvent, DeferredResponse>();

/** The response decision a deferred mapper left on `event`, if any. */
export function deferredResponse(event: GenericEvent): DeferredResponse | undefined {
  return deferredResponses.get(event);
}

/** How the worker writes a usage member into an event (see read-worker.ts). */
export const USAGE_MEMBER = ',"usage":';

/** How many response ids are remembered for "model and usage once per response" (bounded memory). */
const MAX_RESPONSE_IDS = 10_000;

/** Which responses already gave their model and how much of their usage (bounded: the newest ids). */
export class ResponseLedger {
  // Bounded, first-in first-out: Set eviction by values().next() is not O(1) in V8 (see RecentSet).
  private readonly modelGiven = new RecentSet<string>(MAX_RESPONSE_IDS);
  /** Per response, the largest usage a record of it carried so far (what its events were given in all). */
  private readonly usageSeen = new RecentMap<string, Usage>(MAX_RESPONSE_IDS);

  /** Whether an event of response `id` carries its model: true the first time only. */
  giveModel(id: string): boolean {
    if (this.modelGiven.has(id)) return false;
    this.modelGiven.add(id);
    return true;
  }

  /**
   * Decide, in branch order, whether an event a deferred mapper made carries its response's model (true or
   * false: once per response, see withResponse) and which usage: `usageFill` is the `,"usage":{...}` member the
   * worker wrote for the record's usage (empty when the event can carry none); the answer is the member to
   * write, empty for none. The same rule as for events mapped here.
   */
  resolve(id: string, hasModel: boolean, usageFill: string): { model: boolean; usage: string } {
    const model = hasModel && this.giveModel(id);
    if (usageFill === '') return { model, usage: '' };
    const usage = JSON.parse(usageFill.slice(USAGE_MEMBER.length)) as Usage;
    const given = this.usageToGive(id, usage);
    return { model, usage: given === undefined ? '' : given === usage ? usageFill : USAGE_MEMBER + JSON.stringify(given) };
  }

  /**
   * The usage an event of response `id` carries for its record's `usage`: all of it at the response's first
   * record with usage, then only what grew since (Claude Code repeats one usage on every record: nothing more;
   * this project's writer sums what each event reported: exactly that event's share), so the usage of a
   * response's events adds up to its largest record's, and a round trip through the writer keeps every record.
   */
  usageToGive(id: string, usage: Usage): Usage | undefined {
    const seen = this.usageSeen.get(id);
    const given = seen === undefined ? usage : usageGrowth(seen, usage);
    if (given !== undefined) this.usageSeen.set(id, usage);
    return given;
  }

  /**
   * Put a response's model on its first event (a thinking block's signature is bound to its model) and its
   * usage on its first assistant or tool_call event: once per response, so a round trip does not double it.
   * `deferred`: the decision is left on the event (see deferredResponse) for the mapper that knows what came before.
   */
  attach<E extends GenericEvent & { model?: string; usage?: Usage }>(event: E, id: string, model: string | undefined, usage: unknown, deferred: boolean): E {
    const ordered = { ...event } as E & { model?: string; usage?: Usage };
    const { timestamp } = ordered;
    delete (ordered as { timestamp?: string }).timestamp;
    if (deferred) {
      // Left to resolveResponse: the event is written with its model and usage spliced in before `timestamp`.
      const response: DeferredResponse = { id };
      if (model !== undefined) response.model = model;
      if (event.type !== 'thinking' && isObject(usage) && !isPlaceholderUsage(usage)) response.usage = usage;
      ordered.timestamp = timestamp;
      if (response.model !== undefined || response.usage !== undefined) deferredResponses.set(ordered, response);
      return ordered;
    }
    if (model !== undefined && this.giveModel(id)) ordered.model = model;
    if (event.type !== 'thinking' && isObject(usage) && !isPlaceholderUsage(usage)) {
      const given = this.usageToGive(id, usage as Usage);
      if (given !== undefined) ordered.usage = given;
    }
    ordered.timestamp = timestamp;
    return ordered;
  }
}
