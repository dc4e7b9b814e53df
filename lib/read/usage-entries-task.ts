// What a `read --usage --by` worker is asked and answers (lib/session/file-pool.ts, usage-entries-worker.ts): apart
// from both, so that the worker imports nothing of the pool.
import type { ReaderWarning, UsageEntry } from '../session/types.js';

/** What a worker is asked: one session file of agent `format`. */
export interface EntriesTask {
  format: string;
  path: string;
  maxRecordBytes?: number;
}

/** Its entries, or why it could not be read; the warnings met, in order. */
export type EntriesReply = { warnings: ReaderWarning[] } & ({ entries: UsageEntry[] } | { error: string });
