// What the contract suite needs to know about one agent, and nothing more: where its writer's files go in an
// isolated place, which entries below the root are the writer's own, how to resume with the agent's real CLI
// against its loopback mock, and how to read the first model request as an ordered list of elements. One
// driver per registered format lives in drivers/<format>.ts; the suite fails for a format without one.
import { join } from 'node:path';
import { cleanEnv, tempDir, type RunResult } from '../support/run.js';

/** An isolated place to run the bin in: the storage root, the project directory and the environment. */
export interface Place {
  /** `--session-dir <format>=<root>`; not made yet (the run makes it). */
  root: string;
  /** The project directory (`--cwd`, and the bin's working directory). */
  cwd: string;
  /** The bin's whole environment (its own HOME). */
  env: Record<string, string>;
}

/** One session of the session line's `harnesses`. */
export interface SessionEntry {
  format: string;
  session_id: string;
  session_file: string;
}

/** One element of a model request, the same across agents. */
export type Element =
  | { kind: 'text'; from: 'user' | 'model'; text: string }
  | { kind: 'image' }
  | { kind: 'call'; id: string; name: string; args: unknown }
  /** A tool result: `error` only where the agent's API marks errors (see `ContractDriver.marksErrors`). */
  | { kind: 'result'; id: string; text: string; error?: boolean };

/** A tool call as the agent's own file holds it. */
export interface NativeCall {
  name: string;
  args: unknown;
}

/** The real CLI, started against its mock, in a place of its own. */
export interface RealCli {
  place: Place;
  /** Resume (continue) the session with the real CLI; its run and the first conversation request it sent. */
  resume(session: SessionEntry): Promise<{ run: RunResult; request: unknown }>;
  close(): Promise<void>;
}

export interface ContractDriver {
  readonly format: string;
  /**
   * A session the agent's real CLI wrote (a captured fixture, relative to fixtures/): the pair matrix converts
   * it into every format and resumes it with every real CLI (pairs.test.ts).
   */
  readonly nativeSession: string;
  /**
   * The tool calls of `nativeSession` (its text) as the CLI wrote them, by call id, read from the file itself
   * and not through this project's reader: written back into the agent's own format, a session must keep
   * these names and arguments (pairs.test.ts).
   */
  nativeCalls(text: string): Map<string, NativeCall>;
  /** The agent keeps a user turn's images (and sends them on resume). */
  readonly keepsImages: boolean;
  /** The agent's API marks a tool result as an error (Claude's `is_error`, Gemini's `response.error`). */
  readonly marksErrors: boolean;
  /**
   * The agent's format holds no compaction of its own: a compaction is written as a user message holding its
   * summary and the history before it is still sent (OpenCode). Otherwise only the summary and what follows are.
   */
  readonly sendsHistoryBeforeCompaction?: boolean;
  /** A fresh isolated place without a mock (the file-level items). */
  place(): Place;
  /**
   * Whether the entry `rel` (relative to the root, directories ending in `/`) is the writer's own: the files
   * and directories the agent's own program makes there (OpenCode's database) are not this suite's business.
   */
  owned(rel: string): boolean;
  /** Start the mock and the CLI's place. */
  realCli(): Promise<RealCli>;
  /** The conversation of a model request as ordered elements (the CLI's own context and reminders left out). */
  elements(request: unknown): Element[];
  /**
   * A whole line another process appends to the session file while the stream runs, as the real CLI does on
   * resume (with a newline), holding `marker`; it must not change the conversation.
   */
  foreignLine(session: SessionEntry, marker: string): string;
  /**
   * What `read` opens beside the session file (the read-symlinks item): make the agent's sidecar directories
   * for `session` as real directories, each holding a file `read --events --subagents` prints, with whatever
   * the session file needs to point at them, and give each directory with the text it makes `read` print
   * (holding `marker`). `null`: the agent's reader opens nothing but the session file.
   */
  plantSidecars(session: SessionEntry, marker: string): { dir: string; text: string }[] | null;
}

/** The usual place: a root and a project directory in one fresh temp directory, HOME elsewhere. */
export function plainPlace(extra: Record<string, string> = {}): Place {
  const top = tempDir('asyncai-log-contract-');
  return { root: join(top, 'root'), cwd: tempDir('asyncai-log-contract-cwd-'), env: cleanEnv(extra) };
}
