// The session options the filter, convert and read share: which formats, their storage roots, the project
// directory. A bad one is a UsageError (exit 2, nothing written; the checks that need the registry are in
// lib/agents/open-sessions.ts).

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
