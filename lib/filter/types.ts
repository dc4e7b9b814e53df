// What the filter takes and gives: its options (the session options and the input, echo and monitor ones),
// the streams it runs on, and the outcome of a run.
import type { Readable } from 'node:stream';
import type { SessionHarness } from '../session/types.js';
import type { MonitorSpec } from '../monitor/index.js';
import type { SessionOptions } from '../session/options.js';

export interface FilterOptions extends SessionOptions {
  noSession: boolean;
  echo: boolean;
  strict: boolean;
  /** Input format name or 'auto'. */
  from: string;
  /** A first user turn another agent's stream does not echo (`--prompt`). */
  prompt?: string;
  /** Where the fidelity account goes at the end (lib/session/fidelity.ts): a new file, or a FIFO or terminal. */
  fidelityJson?: string;
  maxLineBytes?: number;
  /**
   * Input files, read in order as one stream (`-`: `io.stdin`); default: `io.stdin` alone. Each file's
   * lines are its own (numbered from 1, a missing final newline ends its last line). A file that cannot be
   * read is reported, the others are read, and the run exits 1.
   */
  files?: string[];
  /** The name stdin's bad input is reported under (`stdin`); a file's is its path as given. */
  inputName?: string;
  /**
   * Monitors (`--monitor`): commands whose stdout lines become monitor events, and at most one spec
   * without a command, which makes stdin a plain-text monitored stream. The session then opens at start.
   */
  monitors?: MonitorSpec[];
  /** The shell monitor commands run in, as `<shell> -c <command>` (default /bin/sh; the bin passes $SHELL). */
  shell?: string;
  /** Grace between SIGTERM and SIGKILL when monitors are stopped (default 1000 ms). */
  monitorKillGraceMs?: number;
}

export interface FilterIO {
  stdin: Readable;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborting stops reading; what was read is written and the run resolves. */
  signal?: AbortSignal;
}

export interface FilterResult {
  /** 0 success, 1 failure at run time. */
  code: number;
  harnesses: SessionHarness[];
  /** Lines skipped as bad input. */
  badLines: number;
  /** Events written (handed to the harnesses). */
  events: number;
  warnings: number;
  aborted: boolean;
}
