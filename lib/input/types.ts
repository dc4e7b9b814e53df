// The shape every input adapter has: one parsed line of some agent's output in, generic events out.
// Adapters are pure, stateful mappers; the filter drives them per input chunk, and `createAdapterStream`
// wraps any of them as an object-mode Transform for programs that want a stream.
import type { GenericEvent } from '../events.js';
import type { JsonSource } from '../json/raw-json.js';

/** A line the adapter cannot use: reported as `stdin:<line>: <message>` and skipped. */
export class InputError extends Error {}

/** Facts about the session that another agent's stream carries (its project directory, its model). */
export interface SessionFacts {
  cwd?: string;
}

export interface InputAdapter {
  readonly format: string;
  /**
   * Map one parsed line to generic events. `now` is the timestamp for events that carry none;
   * `warn` reports a located, non-fatal problem. Throws InputError to reject the line. `line`: given by a
   * caller that can read its input again (convert of a regular file), the number of the line that holds the
   * value alone; an adapter with `endFrom` may then hold that number instead of the value.
   */
  map(value: unknown, now: string, warn: (message: string) => void, line?: number): GenericEvent[];
  /** Events still held back when the input ends. */
  end(now: string, warn: (message: string) => void): GenericEvent[];
  /** What the stream has told about the session so far. */
  facts(): SessionFacts;
  /**
   * Optional: true while the session should not open yet because the facts (its cwd) are still to come;
   * the filter opens it once this turns false, when the adapter emits events, or at the end of input.
   */
  waitsForFacts?(): boolean;
  /**
   * Optional, for incremental convert: the bytes an earlier run converted end here (at a line boundary). An
   * adapter whose events for the whole input may not be the earlier ones followed by more (a transcript whose
   * new records fork from an older one) says so from `extendsEarlier`, asked once its events have come.
   */
  earlierEnd?(): void;
  extendsEarlier?(): boolean;
  /**
   * Optional, for a caller that gives `map` line numbers: `end`, with the lines the adapter held by number
   * read again (`reread`: the values of the lines numbered `wanted`, ascending, in order). The events come
   * as they are taken, each with the source of its line's long strings when it has one.
   */
  endFrom?(now: string, warn: (message: string) => void, reread: (wanted: readonly number[]) => Iterable<RereadLine>): Iterable<SourcedEvent>;
  /**
   * Optional, for a caller that gives `map` line numbers: take line `line` (valid UTF-8 `buf[start, end)`)
   * from its bytes as `map` would take its value, without the value: true when it did (the line is valid JSON
   * and made no events), false when the caller is to parse it and call `map`. Warnings go to `warn`.
   */
  scan?(buf: Buffer, start: number, end: number, line: number, warn: (message: string) => void): boolean;
  /** Optional: top-level members of a line's value the adapter never reads (a huge line's are not decoded). */
  readonly unread?: readonly string[];
}

/** A line read again for `InputAdapter.endFrom`: its number, value, and the source of its long strings. */
export interface RereadLine {
  no: number;
  value: unknown;
  source: JsonSource | undefined;
}

/** An event, with the source of the long strings it shares with its line (see lib/json/raw-json.ts). */
export interface SourcedEvent {
  event: GenericEvent;
  source?: JsonSource | undefined;
}

/** An input format: its name, how to recognise its first line, and a fresh adapter. */
export interface InputFormat {
  readonly name: string;
  /** Whether a stream whose first non-blank line parses to `value` is in this format. */
  detect(value: unknown): boolean;
  create(): InputAdapter;
  /**
   * Optional: the agent's own kinds of the records one parsed line (or document) of this format holds, as
   * `read --inspect` counts them (a name each, never text). Default: the value's top-level string `type`.
   */
  recordKinds?(value: unknown): readonly string[];
}
