// The generic event types: what any agent can print, one JSON object per line (lib/events.ts is their front).
import type { Usage } from '../usage.js';

/** An image, base64-encoded. */
export interface ImageInput {
  media_type: string;
  data: string;
}

/** One part of a tool result's content. */
export type ContentPart = { type: 'text'; text: string } | ({ type: 'image' } & ImageInput);

interface Base {
  /** RFC 3339 with milliseconds, always set after normalisation. */
  timestamp: string;
  /**
   * The event belongs to a subagent's own session (the agent id), not to this conversation: readers mark
   * subagent transcripts with it (`asyncai-log read --subagents`), and harnesses do not write such events.
   */
  agent_id?: string;
}

export interface UserEvent extends Base { type: 'user'; text: string; images?: ImageInput[] }
export interface AssistantEvent extends Base { type: 'assistant'; text: string; model?: string; usage?: Usage }
export interface ThinkingEvent extends Base {
  type: 'thinking';
  text: string;
  signature?: string;
  /** The model that thought it: a signature is bound to its model, and Claude Code drops another model's thinking. */
  model?: string;
}
/**
 * A call exactly as the agent whose session it came from recorded it, where a reader gave it another name or
 * other arguments (Codex's `exec_command {cmd}` read as `Bash {command}`): `format` is that agent's writer
 * format (`codex-cli`), and its writer writes `name` and `arguments` from here (see `callFor`).
 */
export interface NativeCall {
  format: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolCallEvent extends Base {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The call as its own agent recorded it, when the reader changed its name or arguments. */
  native?: NativeCall;
  model?: string;
  /** The response's usage, when the response had no text block to carry it (passed through). */
  usage?: Usage;
}
export interface ToolResultEvent extends Base {
  type: 'tool_result';
  id: string;
  content: string | ContentPart[];
  is_error: boolean;
}
export interface MonitorEvent extends Base {
  type: 'monitor_event';
  event: string;
  description?: string;
  task_id?: string;
  note?: string;
}
/** A monitor's command ended: Claude Code writes a terminal notification (completed, failed or killed). */
export interface MonitorEndEvent extends Base {
  type: 'monitor_end';
  task_id?: string;
  description?: string;
  exit_code: number;
  /** The monitor was stopped from outside (asyncai-log's own SIGINT/SIGTERM): "stopped", whatever the code. */
  stopped?: boolean;
}

/**
 * History was compacted here: everything before is replaced, for the model, by `summary` (the text the
 * model sees from now on). Claude Code: a compact_boundary system record and an isCompactSummary user record.
 */
export interface CompactionEvent extends Base {
  type: 'compaction';
  summary: string;
  /** "manual" (/compact) or "auto". */
  trigger?: string;
  /** Context size in tokens before the compaction. */
  pre_tokens?: number;
}

/**
 * Context the model saw that was not a turn anyone took (Claude Code's system and attachment records, meta
 * user records). Read with `asyncai-log read --events`; harnesses accept it and write nothing.
 */
export interface ContextEvent extends Base {
  type: 'context';
  /** Where it came from, e.g. "system", "attachment", "meta", "synthetic", "subagent". */
  kind: string;
  subtype?: string;
  text?: string;
  /** Structured details (passed through). */
  data?: Record<string, unknown>;
}

export type GenericEvent =
  | UserEvent
  | AssistantEvent
  | ThinkingEvent
  | ToolCallEvent
  | ToolResultEvent
  | MonitorEvent
  | MonitorEndEvent
  | CompactionEvent
  | ContextEvent;

export type EventType = GenericEvent['type'];
