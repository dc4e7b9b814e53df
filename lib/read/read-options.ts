// The options and streams of `asyncai-log read` (run-read.ts), apart from it so that what it calls can name them.
import type { UsageGroup } from './usage-rows.js';

export interface ReadCommandOptions {
  /** Transcript paths, bare session ids, or `-` (stdin). */
  inputs: string[];
  usage: boolean;
  /** With `usage`: group every session's tokens, in the one shape, by this (see usage-by.ts). */
  by?: UsageGroup;
  /** With a grouped usage: print a table (stdout is a terminal) instead of NDJSON. */
  table?: boolean;
  tree: boolean;
  /** Also read subagent transcripts. */
  subagents: boolean;
  /** Also emit context events. */
  events: boolean;
  /** Print each session's shape instead (read/inspect.ts): one JSON object per session, none of its text. */
  inspect?: boolean;
  branch?: string;
  /** Resolve spilled output (default true). */
  spills: boolean;
  maxRecordBytes?: number;
  /** Worker threads for a large transcript (see ReaderOptions.threads; 0: one thread). */
  threads?: number;
  /** `--session-dir` values, parsed (those of agents with a transcript reader are used). */
  sessionDirs: Record<string, string>;
  env: Record<string, string | undefined>;
  homedir: string;
  processCwd: string;
  /** Where a transcript read from a stream is kept while it is read, and a big index's uuids (default: the system's). */
  tmpdir?: string;
  /** Called between a transcript's two passes (see ReaderOptions.collect). */
  collect?: () => void;
  /** Where the account of what was read goes at the end (`--fidelity-json`): a new file, or a FIFO or terminal. */
  fidelityJson?: string;
}

export interface ReadIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** What `-` reads (default: nothing). */
  stdin?: AsyncIterable<Buffer | string>;
}
