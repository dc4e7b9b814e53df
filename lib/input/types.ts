// The shape every input adapter has: one parsed line of some agent's output in, generic events out.
// Adapters are pure, stateful mappers; the filter drives them per input chunk, and `createAdapterStream`
// wraps any of them as an object-mode Transform for programs that want a stream.
import type { GenericEvent } from '../events.js';

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
   * `warn` reports a located, non-fatal problem. Throws InputError to reject the line.
   */
  map(value: unknown, now: string, warn: (message: string) => void): GenericEvent[];
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
