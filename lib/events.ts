// The generic event vocabulary: what any agent can print, one JSON object per line, and what every
// harness turns into records: the types (events/types.ts), and `normalizeEvent` (events/normalize.ts), which
// validates one parsed line and returns either the event (in canonical snake_case form, timestamp resolved)
// or one human-readable reason it was rejected.
import type { ToolCallEvent } from './events/types.js';

export type { Usage } from './usage.js';
export type * from './events/types.js';
export { EVENT_TYPES, normalizeEvent, resolveTimestamp, type Normalized } from './events/normalize.js';

/**
 * The name and arguments a writer of `format` writes for `call`: the call as its own agent recorded it when
 * the call came from that agent (`native.format` is `format`), else the generic ones.
 */
export function callFor(call: ToolCallEvent, format: string): { name: string; arguments: Record<string, unknown> } {
  return call.native !== undefined && call.native.format === format ? call.native : call;
}
