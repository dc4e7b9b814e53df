// The interfaces every agent folder implements: the writer (HarnessFactory, SessionHarness), the transcript
// reader, and the Agent the registry lists. They live below the agent folders (and the logger, which holds
// harnesses) so that nothing imports upward. A harness owns its storage root and file; the logger hands it
// events and asks it to flush after each input chunk.
import type { GenericEvent } from '../events.js';
import type { JsonSource } from '../json/raw-json.js';
import type { FileMark } from './append-file.js';
import type { FidelityAccount } from './fidelity.js';
import type { InputFormat } from '../input/types.js';
import type { TokenCounts, Usage } from '../usage.js';

/** What a harness needs to know about the session it writes. */
export interface HarnessOptions {
  /** The harness's storage root (e.g. `~/.claude`). */
  root: string;
  /** Absolute project directory the session belongs to. */
  cwd: string;
  /** True when `cwd` came from the input stream: it is then only encoded, never touched on disk. */
  cwdFromInput?: boolean;
  /** Model for assistant-side records whose event names none. */
  model?: string;
  /**
   * When the session started (RFC 3339), for a format that files sessions by date: the first event's time when
   * a log is converted. Default: now, when the session is opened.
   */
  startedAt?: string;
  /** Extra record fields that say where a converted session came from (see the convert command). */
  provenance?: Record<string, unknown>;
  /** The run's environment and home directory (a harness that runs its agent's program needs them). */
  env?: Record<string, string | undefined>;
  homedir?: string;
  /**
   * One line of diagnostics, already located (`stdin:12: ...`) or global. `once` names a warning given once per
   * session (lib/util/warn-once.ts): a run with several mappers of one session says it once in all.
   */
  warn: (message: string, once?: string) => void;
}

/** An event-level problem: the event cannot be written, the harness itself is fine. */
export class EventRejected extends Error {}

export interface SessionHarness {
  readonly format: string;
  readonly sessionId: string;
  readonly sessionFile: string;
  /** The project directory the session belongs to (where the resume command must run). */
  readonly cwd: string;
  /** The shell command that resumes this session in its own CLI (shown to people, never run). */
  readonly resumeCommand: string;
  /** What this session kept of the events it was given: counted as they are mapped, never for a replay. */
  readonly fidelity: FidelityAccount;
  /**
   * Map one event to records and queue them. `where` locates the event in the input for warnings; `source`,
   * when given, is the input line the event was parsed from (a harness may copy its long strings as they are).
   */
  add(event: GenericEvent, where: string, source?: JsonSource): void;
  /** Append every queued record in one write. Throws on an I/O failure. */
  flush(): void;
  /** Flush and close. */
  finish(): void;
  /**
   * Close after a failure, discarding what is queued: nothing more reaches the file. A file this run created
   * that holds no record yet (only what opening it wrote) is removed.
   */
  abandon(): void;
  /**
   * `finish`, except that a session that then holds no record (only what opening it wrote, and nothing another
   * process appended) has its file removed before it is closed. True when it was removed.
   */
  finishOrDiscard?(): boolean;
  /**
   * A reopened session (see `HarnessFactory.reopen`) first maps the events an earlier run wrote, writing
   * nothing, so its state (tool calls awaiting results, the turn under way) is what that run left. After
   * this call and `skip` more such events, the rest is appended, chained onto the file's last record.
   */
  continueAfter?(skip: number): void;
  /** The session file's mark after the last write, once finished (the convert manifest keeps it). */
  readonly mark?: FileMark | undefined;
}

/** A session file written in an earlier run, to append to. */
export interface ReopenSession {
  sessionId: string;
  sessionFile: string;
  mark: FileMark;
}

/** A transcript format: its name, where it writes by default, and how to open a new session. */
export interface HarnessFactory {
  readonly format: string;
  /** The model of assistant records whose event names none, when the format has a default. */
  readonly defaultModel?: string;
  /** The storage root when no `--session-dir` names one. */
  defaultRoot(env: Record<string, string | undefined>, homedir: string): string;
  /** The default root as the help says it (`$CLAUDE_CONFIG_DIR, else ~/.claude`). */
  readonly rootHelp: string;
  /** Optional: why this format cannot be written in `env` (a program it needs is missing), checked before input is read. */
  preflight?(env: Record<string, string | undefined>): string | undefined;
  /**
   * Opening may wait on a lock another program holds (Gemini CLI's project registry): such formats are opened
   * before the others, so a signal during that wait leaves none of their files behind.
   */
  readonly waitsToOpen?: boolean;
  create(options: HarnessOptions): SessionHarness;
  /** Optional: reopen `session` to append to it (throws one line when it is not the file written before). */
  reopen?(options: HarnessOptions, session: ReopenSession): SessionHarness;
}

/** A problem in a transcript being read, located when it has a line. Reading goes on. */
export interface ReaderWarning {
  file: string;
  line?: number;
  message: string;
}

/** A failure that stops reading one transcript (its file cannot be read, the branch asked for is not in it). */
export class ReaderError extends Error {}

/** How `asyncai-log read` asks for a transcript to be read. */
export interface TranscriptReadOptions {
  /** Also the context the model saw that was not a turn, as `context` events. */
  includeEvents: boolean;
  /** Put back output the agent kept in files beside the transcript. */
  resolveSpills: boolean;
  /** The branch ending at this record instead of the one the agent resumes. */
  branch?: string;
  /** Longest record accepted; longer ones are skipped with a warning. */
  maxRecordBytes?: number;
  /** Worker threads for a big transcript (0: one thread); the output is the same either way. */
  threads?: number;
  /** What warnings and errors call the transcript (default: its path). */
  name?: string;
  /**
   * Only user turns are wanted (a count of them): a reader may then leave other events out, never a user event
   * (one without a faster way reads everything).
   */
  userRecordsOnly?: boolean;
  onWarning: (warning: ReaderWarning) => void;
}

/** One branch of a conversation (`read --tree`), named by its last turn. */
export interface BranchInfo {
  /** The id of the branch's last turn (a record's uuid, an entry's id): pass it to `--branch` to read this branch. */
  leaf: string;
  /** The branch the agent continues on resume, and `read` reads by default. */
  resumed: boolean;
  /** Records on the branch, from the root (through compactions). */
  records: number;
  /** Where the branch leaves the resumed one (the last record they share); null for the resumed branch. */
  forks_from: string | null;
  /** Line of the leaf in the file. */
  line: number;
  timestamp?: string;
  /** The start of the branch's last user prompt. */
  last_prompt?: string;
}

/** One transcript being read (nothing is read until a method is called; each reads the file again). */
export interface TranscriptReading {
  /** The session id (from the file's name). */
  readonly sessionId: string;
  /** Set when this is a subagent's transcript. */
  readonly agentId: string | undefined;
  /** The conversation as NDJSON generic events, a chunk of the file at a time; an event JSON cannot write goes to `onUnwritable`. */
  ndjson(onUnwritable: (event: GenericEvent, error: Error) => void): AsyncIterable<string | Buffer>;
  /** The session's token totals. */
  usage(): Promise<Record<string, unknown>>;
  /** The branch structure: one entry per branch. */
  tree(): Promise<{ branches: readonly BranchInfo[] }>;
  /** The transcripts of the agents this session spawned, each a reading of its own. */
  subagents(): Promise<TranscriptReading[]>;
  /** Once read: the file ends in a cut-off record (the session was being written, or the write was interrupted). */
  readonly partial?: boolean;
}

/** One transcript's usage line counted elsewhere, or why it could not be read; the warnings met, in order. */
export type UsageReply = { warnings: ReaderWarning[] } & ({ report: Record<string, unknown> } | { error: string });

/** What a usage worker is asked: one transcript. */
export interface UsageTask {
  path: string;
  subagents: boolean;
  maxRecordBytes?: number;
}

/** Worker threads counting transcripts' usage, whole files at a time (lib/session/file-pool.ts). */
export interface UsageCounting {
  readonly size: number;
  /** Count one transcript: its reply, or undefined when the caller must count it (the workers failed). */
  run(task: UsageTask): Promise<UsageReply | undefined>;
  close(): void;
}

/** Tokens billed at one time (one response, one token count): what `read --usage --by` groups. */
export interface UsageEntry {
  /** When (RFC 3339), as the agent recorded it; undefined when it did not. */
  timestamp: string | undefined;
  model: string | undefined;
  tokens: TokenCounts;
}

/**
 * How an agent's token usage is read into the one shape (`read --usage --by`). Without it, or without its
 * `entries`, a session is read through the agent's input adapter and each event's `usage` counted.
 */
export interface SessionUsage {
  /** An event's `usage` (as this agent's input adapter passes it) in the one shape; default: messagesApiTokens. */
  tokens?(usage: Usage): TokenCounts | undefined;
  /**
   * Optional: the usage of the session file at `path` (and of its subagents' files), read from the agent's
   * own records, in file order, when its events do not carry it the way ccusage counts it.
   */
  entries?(path: string, options: { maxRecordBytes?: number; onWarning: (warning: ReaderWarning) => void }): Promise<UsageEntry[]>;
  /** Optional: whether the file at `path` is counted with another session's `entries` (a Claude subagent's transcript). */
  countedWithSession?(path: string): boolean;
  /**
   * Optional: bytes of this agent's files below which `entries` counts them faster on the calling thread than
   * on worker threads, whose start and first files cost more than they share out (default: 128 MiB).
   */
  workerMinBytes?: number;
}

/** How an agent's own session files are read back as events (`asyncai-log read`). */
export interface TranscriptReader {
  /** What messages call these transcripts ("Claude Code"). */
  readonly name: string;
  /** The input format of these files: a file or stream detected as it is read by this reader, not by its adapter. */
  readonly input: string;
  /** A reading of the transcript at `path`. */
  open(path: string, options: TranscriptReadOptions): TranscriptReading;
  /**
   * Optional: worker threads that count whole transcripts' usage (`read --usage` of several), `threads` of
   * them (default: the agent's), at most `most`; undefined when there are none to be had.
   */
  usagePool?(threads: number | undefined, most: number): UsageCounting | undefined;
}

/** A session found by its id or a prefix of it (`read <id>`, `convert <id>`). */
export interface FoundSession {
  /** Its whole id. */
  readonly id: string;
  /** Its files, the one to read first first (Claude Code may hold one session in two projects). */
  readonly files: readonly string[];
}

/**
 * How an agent's sessions are found by id under its storage root (`--session-dir <format>=<root>`, else
 * `harness.defaultRoot`), for `read <id>` and `convert <id>`: from directory listings, and at most a file's
 * first line where the name does not hold the id; never a whole file. The value comes from the command line:
 * it is compared with names, never made part of a path.
 */
export interface SessionLookup {
  /** Whether `value` may be one of this agent's session ids, or a prefix of 8 characters or more of one. */
  matches(value: string): boolean;
  /** The sessions under `root` whose id starts with `prefix` (one that `matches`); none when `root` does not exist. */
  find(root: string, prefix: string): Promise<FoundSession[]>;
  /** Where under `root` sessions are looked for (what a failed lookup names). */
  sessionsDir(root: string): string;
  /**
   * Optional: what the agent itself keeps about a session found (its title, project, start), for `sessions`,
   * from the parsed lines of its first file's head and end (`ends`) and at most small files beside it; never a
   * whole transcript. Without it (or where it says nothing) the listing's generic facts stand.
   */
  describe?(files: readonly string[], ends: FileEnds): SessionFacts | Promise<SessionFacts>;
}

/** The JSON values of the whole lines in a file's first and last bytes (lib/session/session-facts.ts). */
export interface FileEnds {
  readonly head: readonly unknown[];
  readonly tail: readonly unknown[];
}

/** What a session listing shows of a session beyond its id, size and times, as its agent keeps it. */
export interface SessionFacts {
  /** The agent's own title of the session (a custom or generated title, a summary). */
  title?: string;
  /** Its project directory. */
  cwd?: string;
  /** When it started, RFC 3339. */
  started?: string;
}

/** A failure reading a session store: one line. */
export class StoreError extends Error {}

/** One session of a store, as listed. */
export interface StoreSession {
  id: string;
  /** When it was last updated, ms since the epoch. */
  updated: number;
  /** A child session (a subagent's). */
  child: boolean;
  /** Bytes of its data in the store (about what reading it returns). */
  bytes: number;
  /** Its title in the store, its project directory, when it was created (ms since the epoch), where the store keeps them. */
  title?: string;
  cwd?: string;
  created?: number;
}

/** A store being read: its sessions listed once, then read; `close` lets go of what opening it made. */
export interface OpenedStore {
  readonly sessions: readonly StoreSession[];
  /** Sessions listed whose id is not of the agent's shape (never read; the caller says so). */
  readonly odd: number;
  /** The input lines of each session of `wanted` (in that order), one session at a time. */
  read(wanted: readonly StoreSession[]): AsyncGenerator<{ session: StoreSession; lines: string[] }>;
  close(): Promise<void>;
}

/**
 * An agent's sessions kept in one database rather than in files (OpenCode's SQLite store): `read` and `convert`
 * take every session in it, each as the lines of input format `input`.
 */
export interface SessionStore {
  /** What messages call the store ("OpenCode"). */
  readonly name: string;
  /** The input format each session's lines are in. */
  readonly input: string;
  /** The database of the store at `path` (the file itself, or a directory holding it), or undefined. */
  locate(path: string): string | undefined;
  /** Whether a command-line argument is a session id of this store, or a prefix of 8 characters or more of one (`read <id>`), not a path. */
  isSessionId(value: string): boolean;
  /** The database `read <id>` looks in: under `root` (`--session-dir`), else where the agent looks by default. */
  database(root: string | undefined, env: Record<string, string | undefined>, homedir: string): string;
  /** Open the store of `db` (throws StoreError, one line, when it cannot be). */
  open(db: string, options: { env: Record<string, string | undefined>; tmpdir: string }): Promise<OpenedStore>;
  /** The hint given when a file of this store is piped into the filter (`OpenCode's store: asyncai-log convert <its directory>`). */
  readonly hint: string;
}

/**
 * One agent: everything the generic layers (filter, convert, read, bin) may know about it. Each agent folder
 * exports one; `lib/agents/index.ts` lists them.
 */
export interface Agent {
  /** The writer: `--session-format <harness.format>`; the folder under lib/agents/ has the same name. */
  readonly harness: HarnessFactory;
  /** The input formats this agent's output and sessions come in, most specific first. */
  readonly inputs: readonly InputFormat[];
  /** The input format of this agent's own session files: such a file inside the agent's root is a session already. */
  readonly sessionInput?: string;
  /**
   * Optional: how `asyncai-log read` reads this agent's session files, for `--usage`, `--tree` and `--branch`
   * (without one, its files are printed through their input adapter).
   */
  readonly transcripts?: TranscriptReader;
  /** Optional: how `read <id>` and `convert <id>` find its session files by id (a store's sessions are its own). */
  readonly sessions?: SessionLookup;
  /** Optional: the database its sessions are kept in, read by `read` and `convert`. */
  readonly store?: SessionStore;
  /** Optional: how its token usage is counted (`read --usage --by`); without it, its events' usage as the Messages API's. */
  readonly usage?: SessionUsage;
}
