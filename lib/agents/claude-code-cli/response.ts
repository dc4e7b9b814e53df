// What the records of one API response (one message.id) share, as Claude Code writes them: every block record
// carries the response's usage (here: what its events reported, summed so far), and each is written at its own
// millisecond, strictly later than the record before it (renderers drop records alike in message.id and time).
import type { Usage } from '../../events.js';

/** The usage of a record whose response has reported none yet (readers take it for no usage at all). */
export const NO_USAGE: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0 });

/** The latest time JavaScript dates hold (one millisecond later is no date). */
const MAX_TIME = 8.64e15;

/**
 * The time of a response's next record: `time` (RFC 3339 with milliseconds) when it is later than the record
 * before (`previous`), else one millisecond after `previous`.
 */
export function laterTime(previous: string, time: string): string {
  // The canonical form (YYYY-MM-DDTHH:MM:SS.mmmZ) sorts as text; other forms (years past 9999) are parsed.
  const canonical = time.length === 24 && previous.length === 24;
  if (canonical ? time > previous : Date.parse(time) > Date.parse(previous)) return time;
  // Within the same second, one millisecond more is three digits more (the Date round trip cost a microsecond).
  if (canonical && previous.charCodeAt(23) === 90 && previous.charCodeAt(19) === 46) {
    const ms = Number(previous.slice(20, 23)) + 1;
    if (ms <= 999) return `${previous.slice(0, 20)}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
  const next = Date.parse(previous) + 1;
  return next <= MAX_TIME ? new Date(next).toISOString() : time;
}
