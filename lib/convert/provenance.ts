// What marks a converted session and what convert skips by its first record: the provenance field stamped on
// every record convert writes, and Codex rollouts of sub-agent threads.
import { isObject } from '../input/adapter-kit.js';

/** The record field that marks a converted session (see `provenanceFor`). */
export const PROVENANCE_FIELD = 'asyncaiLog';

/**
 * The fields stamped on every record of a converted session: which tool converted it, from what input
 * format and which file. Usage tools and `convert` itself recognise converted sessions by this field.
 */
export function provenanceFor(inputFormat: string, source: string): Record<string, unknown> {
  return { [PROVENANCE_FIELD]: { convertedFrom: inputFormat, source } };
}

/**
 * A record of a session that `convert` wrote: it carries the provenance field (Claude Code records at top
 * level, Codex rollouts in their `session_meta` payload).
 */
export function isConvertedRecord(value: unknown): boolean {
  const marked = (record: unknown) => isObject(record) && isObject(record[PROVENANCE_FIELD])
    && typeof record[PROVENANCE_FIELD].convertedFrom === 'string';
  return marked(value) || (isObject(value) && marked(value.payload));
}

/**
 * A Codex rollout of a sub-agent thread: its `session_meta` says `thread_source: "subagent"` (and `source`
 * is `{subagent: {thread_spawn: {parent_thread_id, ...}}}`), as Codex 0.171.0 writes them.
 */
export function isCodexSubagent(value: unknown): boolean {
  if (!isObject(value) || value.type !== 'session_meta' || !isObject(value.payload)) return false;
  const payload = value.payload;
  return payload.thread_source === 'subagent' || (isObject(payload.source) && 'subagent' in payload.source);
}
