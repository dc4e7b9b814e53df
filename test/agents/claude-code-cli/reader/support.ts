// Literal Claude Code transcripts for the reader tests: record builders (short uuids, increasing times),
// a writer for temp transcript files (records or raw text, so damage can be written on purpose), and a
// helper that reads one back with the library.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenericEvent } from '../../../../lib/events.js';
import { readClaudeTranscript, type ReaderOptions, type ReaderWarning } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import type { ClaudeTranscriptReader } from '../../../../lib/agents/claude-code-cli/reader/reader.js';
import { tempDir } from '../../../support/run.js';

export const SID = '5e55e55e-0000-4000-8000-000000000001';
export const MODEL = 'claude-opus-5-5';

let tick = 0;
/** A fresh, increasing RFC 3339 time. */
export function ts(): string {
  tick += 1;
  return new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + tick * 1000).toISOString();
}

type Rec = Record<string, unknown>;

export function user(uuid: string, parent: string | null, content: unknown, extra: Rec = {}): Rec {
  return { parentUuid: parent, isSidechain: false, type: 'user', message: { role: 'user', content }, uuid, timestamp: ts(), sessionId: SID, cwd: '/home/user/project', ...extra };
}

export interface AssistantOptions {
  id?: string;
  model?: string;
  usage?: unknown;
  extra?: Rec;
}

/** One assistant record holding `blocks` (Claude Code writes one block per record, sharing message.id). */
export function assistant(uuid: string, parent: string | null, blocks: unknown[], options: AssistantOptions = {}): Rec {
  return {
    parentUuid: parent, isSidechain: false, type: 'assistant',
    message: {
      id: options.id ?? `msg_${uuid}`, type: 'message', role: 'assistant', model: options.model ?? MODEL, content: blocks,
      stop_reason: null, stop_sequence: null, usage: options.usage ?? { input_tokens: 10, output_tokens: 5 },
    },
    uuid, timestamp: ts(), sessionId: SID, cwd: '/home/user/project', ...(options.extra ?? {}),
  };
}

export const text = (t: string) => ({ type: 'text', text: t });
export const toolUse = (id: string, name = 'Bash', input: unknown = { command: 'ls' }) => ({ type: 'tool_use', id, name, input });
export const toolResult = (id: string, content: unknown = 'ok', isError = false) => ({ type: 'tool_result', tool_use_id: id, content, is_error: isError });

export function attachment(uuid: string, parent: string | null, body: Rec, extra: Rec = {}): Rec {
  return { parentUuid: parent, isSidechain: false, attachment: body, type: 'attachment', uuid, timestamp: ts(), sessionId: SID, ...extra };
}

export function system(uuid: string, parent: string | null, subtype: string, extra: Rec = {}): Rec {
  return { parentUuid: parent, isSidechain: false, type: 'system', subtype, uuid, timestamp: ts(), sessionId: SID, ...extra };
}

export const lastPrompt = (leaf: string): Rec => ({ type: 'last-prompt', leafUuid: leaf, sessionId: SID });

/** Write a transcript: objects as JSON lines, strings exactly as given (for damage). Returns its path. */
export function writeTranscript(lines: (Rec | string)[], options: { dir?: string; name?: string } = {}): string {
  const dir = options.dir ?? join(tempDir('asyncai-reader-'), 'projects', '-home-user-project');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, options.name ?? `${SID}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : `${JSON.stringify(l)}\n`)).join(''));
  return path;
}

export interface ReadResult {
  events: GenericEvent[];
  warnings: ReaderWarning[];
  reader: ClaudeTranscriptReader;
}

/** Read every event of a transcript with the library. */
export async function readAll(path: string, options: ReaderOptions = {}): Promise<ReadResult> {
  const reader = readClaudeTranscript(path, options);
  const events: GenericEvent[] = [];
  for await (const event of reader) events.push(event);
  return { events, warnings: reader.warnings, reader };
}

/** The events as [type, main text] pairs: the shape most tests assert on. */
export function shape(events: GenericEvent[]): [string, string][] {
  return events.map((e) => {
    switch (e.type) {
      case 'user': case 'assistant': case 'thinking': return [e.type, e.text];
      case 'tool_call': return [e.type, e.id];
      case 'tool_result': return [e.type, e.id];
      case 'compaction': return [e.type, e.summary];
      case 'context': return [e.type, `${e.kind}${e.subtype !== undefined ? `/${e.subtype}` : ''}`];
      case 'monitor_event': return [e.type, e.event];
      case 'monitor_end': return [e.type, String(e.exit_code)];
    }
  });
}
