// What the Claude Code record mapper (records.ts) takes and gives: its options, the marks of a segment mapped
// on a worker thread (threads/, segments.ts), and the once-only warnings it says.
import type { Usage } from '../../events.js';
import type { OnceWarning } from '../../util/warn-once.js';

export type ClaudeRecord = Record<string, unknown>;

// Warnings a session gives once (a mapper on each thread gives them once each: the run says them once in all).
export const SUBAGENT_WARNING: OnceWarning = {
  id: 'claude-code-cli.subagent',
  text: 'events with "agent_id" belong to a subagent session and are not written to this transcript; further ones are dropped silently',
};
export const UNSIGNED_WARNING: OnceWarning = {
  id: 'claude-code-cli.unsigned-thinking',
  text: 'unsigned thinking is not written to Claude Code transcripts (the API rejects it on resume); further ones are dropped silently',
};

/** The first time a once-only warning is given: no records, the warning, and its id. */
export function onceOnly(warning: OnceWarning): Mapped {
  return { records: [], warnings: [warning.text], once: warning.id };
}

export interface MapperOptions {
  sessionId: string;
  cwd: string;
  model?: string;
  gitBranch?: string;
  provenance?: Record<string, unknown>;
  /** Injected for tests; defaults to randomUuid (lib/util/random-id.ts). */
  newUuid?: () => string;
  /**
   * How many tool call ids are remembered for matching results (default 100,000). A worker thread remembers
   * fewer: a result it cannot match is decided on the main thread (see `mapAssumingCall`).
   */
  toolIdsRemembered?: number;
  /**
   * Key of the session's monitor task ids: with it, a description always maps to the same id (see
   * `taskIdFor`), so mappers on several threads agree; without it, each description draws a random id.
   */
  taskKey?: Uint8Array;
}

/**
 * Stand-ins a mapper on a worker thread writes where the state before its segment is not known there (see
 * `startSegment`): random per process, so no input can hold them; the main thread replaces them.
 */
export interface SegmentMarks {
  /** In place of the parent uuid of the segment's first chain record (a JSON string where it stands). */
  parent: string;
  /** In place of the message id of a turn that began before the segment. */
  message: string;
  /** In place of the model of a turn before the segment (a JSON string where it stands). */
  model: string;
  /** In place of the usage of a record of a turn before the segment (its usage depends on that turn's). */
  usage: string;
  /** In place of the timestamp of a record of a turn before the segment (it must be later than that turn's). */
  time: string;
}

/** The values of a segment's marks, from the main thread's state (see `ClaudeRecordMapper.resumeSegment`). */
export interface SegmentValues {
  parent: string | null;
  /** The turn's message id (drawn when no turn is under way). */
  message: () => string;
  model: string;
  /** A record's usage, given its event's own: called once per usage mark, in order. */
  usage: (usage: Usage | undefined) => Usage;
  /** A record's timestamp, given its event's: called once per time mark, in order. */
  time: (time: string) => string;
}

/** The state a segment leaves behind, in terms of its marks (see `ClaudeRecordMapper.segmentEnd`). */
export interface SegmentEnd {
  /** The last chain record's uuid; undefined when the segment wrote no chain record. */
  parent: string | undefined;
  /** The turn's message id; null when a user-side record ended the turn; undefined when it is still the one before. */
  message: string | null | undefined;
  /** The last model; undefined when still the one before. */
  model: string | undefined;
  /** Tool call ids the segment made known, oldest first. */
  toolIds: string[];
  /** Monitor task ids that had events in the segment. */
  tasksWithOutput: string[];
  /**
   * What the usage and time marks stand for, in the order they were written: each such record's own event
   * usage (undefined when it had none) and event time. The main thread adds them to its turn's usage and time.
   */
  usages: (Usage | undefined)[];
  times: string[];
  /** The usage and last record time of a turn begun in the segment (see `message`); else undefined. */
  usage: Usage | undefined;
  time: string | undefined;
}

/** What a mapped event produced: records, and warnings for the caller to report. */
export interface Mapped {
  records: ClaudeRecord[];
  warnings: string[];
  /** When set, `warnings` is the once-only warning of this id (lib/util/warn-once.ts): other mappers may give it too. */
  once?: string;
}
