// The session options the filter, convert and read share, and their checks: which formats, their storage
// roots, the project directory. A bad one is a UsageError (exit 2, nothing written).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findHarness, knownFormats } from '../agents/index.js';

/** A usage error: reported as it is, exit 2, nothing written. */
export class UsageError extends Error {}

export interface SessionOptions {
  /** Transcript formats to write (default: claude-code-cli). */
  formats: string[];
  /** Per-format storage roots (`--session-dir format=path`). */
  sessionDirs: Record<string, string>;
  /** The project directory; default: the cwd another agent's stream names, else `processCwd`. */
  cwd?: string;
  model?: string;
  agentName: string;
  /** Extra fields stamped on every record (used by convert to mark converted sessions). */
  provenance?: Record<string, unknown>;
  env: Record<string, string | undefined>;
  homedir: string;
  processCwd: string;
}

/**
 * Validate formats, roots and the project directory up front: an unknown format, a malformed dir, a format
 * whose program is missing (`preflight`), or a `cwd` that is empty or names something other than a directory
 * is a usage error. A `cwd` that does not exist is accepted: the session only records it (it may be a project
 * on another machine, or one made later).
 */
export function checkSessionOptions(
  options: Pick<SessionOptions, 'formats' | 'sessionDirs' | 'cwd'> & { processCwd?: string; env?: SessionOptions['env'] },
): void {
  if (options.cwd !== undefined) {
    if (options.cwd === '') throw new UsageError('--cwd wants a directory, got ""');
    let directory = true;
    try {
      directory = statSync(resolve(options.processCwd ?? '/', options.cwd)).isDirectory();
    } catch (error) {
      // Missing (or out of reach): only recorded. A file on the way makes it impossible.
      directory = (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
    }
    if (!directory) throw new UsageError(`--cwd ${options.cwd}: not a directory`);
  }
  for (const format of options.formats) {
    const factory = findHarness(format);
    if (!factory) {
      throw new UsageError(`unknown session format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
    const missing = factory.preflight?.(options.env ?? {});
    if (missing !== undefined) throw new UsageError(missing);
  }
  for (const format of Object.keys(options.sessionDirs)) {
    if (!findHarness(format)) {
      throw new UsageError(`--session-dir names unknown format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
  }
}

/** Parse `format=path` values of `--session-dir`. */
export function parseSessionDirs(values: readonly string[]): Record<string, string> {
  const dirs: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0 || eq === value.length - 1) {
      throw new UsageError(`--session-dir wants <format>=<path>, got ${JSON.stringify(value)}`);
    }
    dirs[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return dirs;
}
