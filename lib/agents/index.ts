// The registry of agents. Adding an agent is one folder under lib/agents/ and one line here; the generic
// layers (filter, convert, read, bin) reach agents only through this file.
import { claudeCode } from './claude-code-cli/index.js';
import { codex } from './codex-cli/index.js';
import { gemini } from './gemini-cli/index.js';
import { opencodeAgent } from './opencode/index.js';
import { qwenAgent } from './qwen-code/index.js';
import { piAgent } from './pi/index.js';
import { droidAgent } from './droid/index.js';
import { copilotAgent } from './copilot-cli/index.js';
import { kiloAgent } from './kilo/index.js';
import type { Agent, HarnessFactory, SessionStore, TranscriptReader } from '../session/types.js';

export const AGENTS: readonly Agent[] = [claudeCode, codex, gemini, opencodeAgent, qwenAgent, piAgent, droidAgent, copilotAgent, kiloAgent];

/** The writers, in registry order (the first is the default `--session-format`). */
export const HARNESSES: readonly HarnessFactory[] = AGENTS.map((agent) => agent.harness);

/** The factory for a format name, or undefined. */
export function findHarness(format: string): HarnessFactory | undefined {
  return HARNESSES.find((h) => h.format === format);
}

export function knownFormats(): string[] {
  return HARNESSES.map((h) => h.format);
}

/** The agent that writes `format`, or undefined. */
export function findAgent(format: string): Agent | undefined {
  return AGENTS.find((agent) => agent.harness.format === format);
}

/** The writer format whose own session files come in input format `input`, or undefined. */
export function sessionFormatOf(input: string): string | undefined {
  return AGENTS.find((agent) => agent.sessionInput === input)?.harness.format;
}

/** The agent whose output or session files come in input format `input` (its `--session-format`), or undefined. */
export function agentOfInput(input: string): string | undefined {
  return AGENTS.find((agent) => agent.inputs.some((format) => format.name === input))?.harness.format;
}

/** An agent whose own session files `asyncai-log read` reads back. */
export interface ReadableAgent {
  /** Its `--session-format` (and `--session-dir <format>=<root>`) name. */
  readonly format: string;
  readonly harness: HarnessFactory;
  readonly reader: TranscriptReader;
}

/** The agents with a transcript reader, in registry order. */
export const TRANSCRIPT_READERS: readonly ReadableAgent[] = AGENTS.flatMap((agent) =>
  agent.transcripts !== undefined ? [{ format: agent.harness.format, harness: agent.harness, reader: agent.transcripts }] : []);

/** The formats `read --session-dir <format>=<root>` takes: the agents whose sessions read finds by id. */
export function readableFormats(): string[] {
  return AGENTS.filter((agent) => agent.sessions !== undefined || agent.store !== undefined).map((agent) => agent.harness.format);
}

/** Whether files of input format `input` are read by a transcript reader rather than printed through their adapter. */
export function readAsTranscript(input: string): boolean {
  return TRANSCRIPT_READERS.some((agent) => agent.reader.input === input);
}

/** An agent whose sessions are kept in a database (`read` and `convert` take every session in it). */
export interface StoreAgent {
  /** Its `--session-format` (and `--session-dir <format>=<root>`) name. */
  readonly format: string;
  readonly harness: HarnessFactory;
  readonly store: SessionStore;
}

/** The agents with a session store, in registry order. */
export const SESSION_STORES: readonly StoreAgent[] = AGENTS.flatMap((agent) =>
  agent.store !== undefined ? [{ format: agent.harness.format, harness: agent.harness, store: agent.store }] : []);

/** The store whose database is at `path` (the file, or a directory holding it), if any. */
export function locateStore(path: string): { agent: StoreAgent; db: string } | undefined {
  for (const agent of SESSION_STORES) {
    const db = agent.store.locate(path);
    if (db !== undefined) return { agent, db };
  }
  return undefined;
}
