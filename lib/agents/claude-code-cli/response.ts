// What the records of one API response (one message.id) share, as Claude Code writes them: every block record
// carries the response's usage (here: what its events reported, summed so far), and each is written at its own
// millisecond, strictly later than the record before it (renderers drop records alike in message.id and time).
import type { Usage } from '../../events.js';
import { isObject } from '../../util/is-object.js';

/** The usage of a record whose response has reported none yet (readers take it for no usage at all). */
export const NO_USAGE: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0 });

/** How deep nested usage objects are summed field by field; deeper ones take the later value. */
const MAX_DEPTH = 4;

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
    else if (depth < MAX_DEPTH && isObject(before) && isObject(value)) sum = sumUsage(before, value, depth + 1);
    // An own "__proto__" key (JSON may hold one) must stay a key, not become the prototype.
    Object.defineProperty(out, key, { value: sum, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The latest time JavaScript dates hold (one millisecond later is no date). */
const MAX_TIME = 8.64e15;

/**
 * The time of a response's next record: `time` (RFC 3339 with milliseconds) when it is later than the record
 * before (`previous`), else one millisecond after `previous`.
 */
export function laterTime(previous: string, time: string): string {
  // The canonical form (YYYY-MM-DDTHH:MM:SS.mmmZ) sorts as text; other forms (years past 9999) are parsed.
  if (time.length === 24 && previous.length === 24 ? time > previous : Date.parse(time) > Date.parse(previous)) return time;
  const next = Date.parse(previous) + 1;
  return next <= MAX_TIME ? new Date(next).toISOString() : time;
}
