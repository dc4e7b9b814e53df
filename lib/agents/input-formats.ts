// The input formats and auto-detection from the first non-blank line, beside the registry: an agent's formats
// come from its folder (lib/agents/<format>/) through the registry; the generic events are lib/input/'s own.
import { AGENTS, SESSION_STORES } from './index.js';
import { describeBinary } from '../input/binary.js';
import { genericEvents } from '../input/generic-events.js';
import type { InputFormat } from '../input/types.js';

/**
 * Every agent's formats, then `events` last: it accepts any object with a string `type`, so every agent's
 * format goes before it. The agents' formats do not overlap (test/agents/input-formats.test.ts).
 */
export const INPUT_FORMATS: readonly InputFormat[] = [...AGENTS.flatMap((agent) => agent.inputs), genericEvents];

/** Names accepted by `--from` (besides `auto`). */
export function inputFormatNames(): string[] {
  return INPUT_FORMATS.map((f) => f.name);
}

export function findInputFormat(name: string): InputFormat | undefined {
  return INPUT_FORMATS.find((f) => f.name === name);
}

/** The format of a stream whose first non-blank line parsed to `value`, or undefined. */
export function detectInputFormat(value: unknown): InputFormat | undefined {
  return INPUT_FORMATS.find((f) => f.detect(value));
}

/** The one line said for binary input starting with `head` (without where), naming the agents' stores; undefined for text. */
export function unsupportedInput(head: Buffer): string | undefined {
  return describeBinary(head, SESSION_STORES.map((agent) => agent.store.hint));
}
