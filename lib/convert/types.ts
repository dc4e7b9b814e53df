// The shapes a batch conversion passes between the planner (main thread) and the file converters (inline or
// in worker threads): plain data only, so they cross a worker boundary by structured clone.
import type { FidelityJson } from '../session/fidelity.js';
import type { FileMark, WriteJournal } from '../session/append-file.js';
import type { ManifestEntry } from './manifest.js';

/** What the manifest already knows about one source for one harness format. */
export interface KnownSession {
  /** The bytes converted and their SHA-256. */
  size: number;
  sha256: string;
  session_id: string;
  session_file: string;
  input_format: string;
  cwd: string;
  /** The session file as left (see ManifestEntry): when present, growth of the source is appended to it. */
  session_mark?: FileMark;
  tail_events?: number;
}

/** One harness format a source is written to. */
export interface ConvertTarget {
  format: string;
  /** The harness's storage root (absolute). */
  root: string;
  /** The manifest's session for this source: when the bytes still hash the same, nothing is written. */
  known?: KnownSession;
  /** Write a new session even when the bytes hash the same (`--force`, or the known session file is gone). */
  rewrite: boolean;
  /** The source only grew since `known` was written: append what is new to that session. */
  append?: boolean;
  /** The lock of the known session (set on the converting thread, never sent across): told of every append. */
  journal?: WriteJournal;
}

/** Why a source is converted. */
export type ConvertReason = 'new' | 'changed' | 'grew' | 'forced' | 'missing';

/** One file for a converter. */
export interface ConvertTask {
  /** Position in the input order. */
  index: number;
  /** As the user spelled it (diagnostics and output). */
  path: string;
  /** Canonical absolute path (what is opened, and the manifest key). */
  real: string;
  /** The path's bytes when they are not UTF-8 (see Source.bytes): what is opened then. */
  bytes?: Uint8Array;
  /** Named on the command line (see Source.named). */
  named?: true;
  targets: ConvertTarget[];
  reason: ConvertReason;
}

/** Settings shared by every file of one run. */
export interface ConvertSettings {
  /** Input format name, or 'auto' (decided per file from its first non-blank line). */
  from: string;
  /** The project directory for every session (absolute); default: each file's own, else `processCwd`. */
  cwd?: string;
  processCwd: string;
  model?: string;
  /** Keep the source's token counts in the converted records (default: zeroed, see docs/convert.md). */
  keepUsage: boolean;
  /** Convert subagent transcripts as sessions of their own (default: skipped). */
  subagents: boolean;
  /** Report what would be converted; write nothing. */
  dryRun: boolean;
  maxLineBytes?: number;
  /** See ConvertOptions.collect. */
  collect?: boolean;
  /** Environment and home, for harness defaults (roots are resolved before; kept for openSessions). */
  env: Record<string, string | undefined>;
  homedir: string;
  /** Set to non-zero (on a SharedArrayBuffer, seen by every worker) when the run is stopped by a signal. */
  stop?: Int32Array;
}

/** A session named in a result. */
export interface SessionRef {
  format: string;
  session_id: string;
  session_file: string;
  /** This format's session was already up to date; nothing was written for it. */
  unchanged?: boolean;
  /** The session converted from an earlier version of the same source (left as it was). */
  previous_session_id?: string;
  /** The command that resumes the session written (not in the report: said on stderr for `convert <id>`). */
  resume?: string;
  /** What this run wrote of the source into the session, by element kind (lib/session/fidelity.ts); not for an unchanged one. */
  fidelity?: FidelityJson;
}

export type ConvertStatus = 'converted' | 'skipped' | 'failed' | 'would-convert';

/** What converting one file came to. */
export interface ConvertOutcome {
  index: number;
  status: ConvertStatus;
  /** converted: new|changed|grew|forced|missing; skipped: unchanged|empty|unrecognised|no-conversation|subagent|converted-session|duplicate|interrupted. */
  reason?: string;
  input_format?: string;
  cwd?: string;
  harnesses: SessionRef[];
  /** Non-blank input lines read. */
  records: number;
  /** Generic events the input made. */
  events: number;
  warnings: number;
  /** The diagnostics, already located (`<path>:<line>: ...`), at most MAX_MESSAGES of them. */
  messages: string[];
  error?: string;
  /** Bytes read (for progress). */
  bytes: number;
  /** The bytes converted (or found unchanged): what the manifest records. */
  fingerprint?: { size: number; mtime_ms: number; sha256: string };
  /** Per format written: the session file's mark after this run's last write. */
  marks?: Record<string, FileMark>;
  /** Events the input format gave only at the end of the bytes converted. */
  tail_events?: number;
  /** Manifest entries read again under the session's lock (newer than the run's), by format. */
  known?: Record<string, ManifestEntry>;
  /** Session locks to release once the manifest lines are fsync'd (see append-lock.ts). */
  locks?: string[];
}
