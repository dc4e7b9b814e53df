// What the Claude Code record mapper (records.ts) takes and gives: its options, what a mapped event produced,
// and the once-only warnings it says.
import type { OnceWarning } from '../../util/warn-once.js';

export type ClaudeRecord = Record<string, unknown>;

// Warnings a session gives once (each mapper gives them once: the run says them once in all).
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
}

/** What a mapped event produced: records, and warnings for the caller to report. */
export interface Mapped {
  records: ClaudeRecord[];
  warnings: string[];
  /** When set, `warnings` is the once-only warning of this id (lib/util/warn-once.ts): other mappers may give it too. */
  once?: string;
}
