// Pure mapping from generic events to Codex CLI 0.171.0 rollout lines (`{timestamp, type, payload}`), the
// records `codex exec resume <uuid>` loads. State is only what the format needs: the open turn and the model
// its turn_context named, the tool calls seen, the running token totals and task ids per monitor. No I/O:
// the harness writes what this returns.
import { randomUUID } from 'node:crypto';
import type {
  AssistantEvent, CompactionEvent, ContentPart, GenericEvent, ImageInput,
  ThinkingEvent, ToolCallEvent, ToolResultEvent, Usage, UserEvent,
} from '../../events.js';
import { NotifyingMapper } from '../../monitor/notifying-mapper.js';
import { writableCall } from '../../session/event-mapper.js';
import { FidelityAccount } from '../../session/fidelity.js';
import { isObject } from '../../util/is-object.js';
import { RecentSet } from '../../util/recent.js';
import { addTokens, toCodexUsage, zeroUsage, type TokenUsage } from './token-usage.js';

/** This writer's format name: the `native.format` of calls it writes as their agent recorded them. */
export const FORMAT = 'codex-cli';

/** The Codex CLI version the records imitate (and were verified against). */
export const CODEX_CLI_VERSION = '0.171.0';
/** `session_meta.originator`: who wrote the session (Codex itself writes `codex_exec` or `codex_cli_rs`). */
export const ORIGINATOR = 'asyncai-log';

/** How many tool call ids are remembered (bounded so memory stays flat). */
const MAX_IDS = 100_000;

/** One line of a rollout file. */
export interface RolloutLine {
  timestamp: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface CodexMapperOptions {
  sessionId: string;
  cwd: string;
  /** When the session started (RFC 3339): `session_meta`'s timestamp, the same instant as the file name. */
  startedAt: string;
  /** Extra `session_meta` fields that say where a converted session came from. */
  provenance?: Record<string, unknown>;
  /** The model of turns whose events name none (`--model`); without either, no turn_context is written. */
  model?: string;
  /** Injected for tests; defaults to crypto.randomUUID. */
  newTurnId?: () => string;
}

/** What a mapped event produced: lines, and warnings for the caller to report. */
export interface Mapped {
  lines: RolloutLine[];
  warnings: string[];
}

function dataUrl(image: ImageInput): string {
  return `data:${image.media_type};base64,${image.data}`;
}

function inputParts(text: string, images: readonly ImageInput[]): Record<string, unknown>[] {
  return [
    ...(text === '' ? [] : [{ type: 'input_text', text }]),
    ...images.map((image) => ({ type: 'input_image', image_url: dataUrl(image) })),
  ];
}

/** A tool result as `function_call_output.output`: a string stays one, parts become Codex's content items. */
function outputOf(content: string | ContentPart[]): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content;
  if (content.length === 0) return '';
  return content.map((part) => (part.type === 'text'
    ? { type: 'input_text', text: part.text }
    : { type: 'input_image', image_url: dataUrl(part) }));
}

function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text).join('\n');
}

function epochSeconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp) / 1000);
}

interface Turn {
  id: string;
  lastAgentMessage: string | null;
  lastTimestamp: string;
  /** The model the turn's last turn_context line named (none written yet: undefined). */
  model?: string;
}

/** Things said once per session on stderr. */
type Once = 'thinking' | 'is_error' | 'subagent';

const ONCE_TEXT: Record<Once, string> = {
  thinking: 'thinking is not written to Codex rollouts (Codex reasoning items hold encrypted content only the API can make); further thinking is dropped silently',
  is_error: 'a Codex rollout has no field for a failed tool result (is_error); the output is written as it is (further ones silently)',
  subagent: 'events with "agent_id" belong to a subagent session and are not written to this rollout; further ones are dropped silently',
};

export class CodexRecordMapper extends NotifyingMapper<Mapped> {
  private turn: Turn | undefined;
  private total = zeroUsage();
  private readonly toolIds = new RecentSet<string>(MAX_IDS);
  private readonly said = new Set<Once>();
  private readonly newTurnId: () => string;
  /** The model the events last named (they name it on the first event of a response, if at all). */
  private lastModel: string | undefined;

  /** What this session kept of the events it was given (lib/session/fidelity.ts). */
  readonly fidelity = new FidelityAccount(FORMAT);

  constructor(private readonly options: CodexMapperOptions) {
    super();
    this.newTurnId = options.newTurnId ?? randomUUID;
  }

  /** The first line of the file: Codex refuses a rollout that does not start with it. */
  sessionMeta(): RolloutLine {
    const { sessionId, cwd, startedAt, provenance } = this.options;
    return {
      timestamp: startedAt,
      type: 'session_meta',
      // No `history_mode`: "paginated" would make an `ordinal` on every line mandatory.
      payload: { id: sessionId, timestamp: startedAt, cwd, originator: ORIGINATOR, cli_version: CODEX_CLI_VERSION, ...(provenance ?? {}) },
    };
  }

  protected subagent(): Mapped {
    return this.once('subagent');
  }

  protected nothing(): Mapped {
    return { lines: [], warnings: [] };
  }

  /**
   * Codex's reasoning items carry encrypted_content made by the API; a readable text cannot become one.
   * Its model still counts: a reader puts a response's model on the response's first event.
   */
  protected thinking(event: ThinkingEvent): Mapped {
    if (event.model !== undefined) this.lastModel = event.model;
    this.fidelity.drop('reasoning', 'Codex keeps only the API\'s encrypted reasoning');
    return this.once('thinking');
  }

  /** `task_complete` for the open turn, if any (the harness calls it when the session ends). */
  endTurn(): RolloutLine[] {
    const turn = this.turn;
    if (!turn) return [];
    this.turn = undefined;
    return [this.line('event_msg', { type: 'task_complete', turn_id: turn.id, last_agent_message: turn.lastAgentMessage }, turn.lastTimestamp)];
  }

  /** The open turn was completed in the file already (a reopened session): what follows starts a new one. */
  turnCompleted(): void {
    this.turn = undefined;
  }

  /** Continue the running token totals from `total` (the last total a resuming Codex appended). */
  adoptTotal(total: TokenUsage): void {
    this.total = { ...total };
  }

  /**
   * Another writer (a resuming Codex) appended lines, with its own turn_context: the next model-bearing line
   * states the model again, so what follows is not counted under the other writer's model.
   */
  foreignAppended(): void {
    if (this.turn) this.turn.model = undefined;
  }

  private line(type: string, payload: Record<string, unknown>, timestamp: string): RolloutLine {
    if (this.turn) this.turn.lastTimestamp = timestamp;
    return { timestamp, type, payload };
  }

  private item(payload: Record<string, unknown>, timestamp: string): RolloutLine {
    return this.line('response_item', payload, timestamp);
  }

  private once(what: Once): Mapped {
    if (this.said.has(what)) return { lines: [], warnings: [] };
    this.said.add(what);
    return { lines: [], warnings: [ONCE_TEXT[what]] };
  }

  /**
   * A user turn starts a Codex turn (a task): the one before it is completed first. Like Codex, the turn
   * states its model in a turn_context right after task_started (when a model is known).
   */
  private startTurn(timestamp: string): RolloutLine[] {
    const lines = this.endTurn();
    this.turn = { id: this.newTurnId(), lastAgentMessage: null, lastTimestamp: timestamp };
    lines.push(this.line('event_msg', { type: 'task_started', turn_id: this.turn.id, started_at: epochSeconds(timestamp) }, timestamp));
    lines.push(...this.turnContext(timestamp));
    return lines;
  }

  /**
   * Lines that come before model output naming `model` (if any): a turn if none is open (model output before
   * any user turn still belongs to one), and a turn_context when the model differs from the one the turn
   * last named. Token counts follow the output, so each is read under the model that produced it.
   */
  private modelOutput(model: string | undefined, timestamp: string): RolloutLine[] {
    if (model !== undefined) this.lastModel = model;
    return this.turn ? this.turnContext(timestamp) : this.startTurn(timestamp);
  }

  /** Output before any user turn still belongs to a turn. */
  private ensureTurn(timestamp: string): RolloutLine[] {
    return this.turn ? [] : this.startTurn(timestamp);
  }

  /**
   * Codex's turn_context for the open turn when its model is known and not yet stated: the keys Codex needs to
   * read the line back (cwd, approval_policy, sandbox_policy, model), in the order Codex writes them.
   * ccusage prices a rollout's tokens by the model of the turn_context before them. Codex skips a
   * turn_context without `approval_policy` or `sandbox_policy`; the ones written are what `codex exec` runs
   * with by default, and Codex applies its own configuration on resume whatever they say (checked with
   * 0.171.0: other values changed nothing it sent).
   */
  private turnContext(timestamp: string): RolloutLine[] {
    const model = this.lastModel ?? this.options.model;
    const turn = this.turn;
    if (model === undefined || !turn || turn.model === model) return [];
    turn.model = model;
    return [this.line('turn_context', {
      turn_id: turn.id, cwd: this.options.cwd, approval_policy: 'never', model, summary: 'none', sandbox_policy: { type: 'read-only' },
    }, timestamp)];
  }

  private tokenCount(usage: Usage | undefined, timestamp: string): RolloutLine[] {
    const last = usage === undefined ? undefined : toCodexUsage(usage);
    if (!last) return [];
    addTokens(this.total, last);
    // Codex keeps running totals: only the last token_count of a session counts.
    return [this.line('event_msg', { type: 'token_count', info: { total_token_usage: { ...this.total }, last_token_usage: last } }, timestamp)];
  }

  protected user(event: UserEvent): Mapped {
    const images = event.images ?? [];
    if (event.text.trim() === '' && images.length === 0) {
      return { lines: [], warnings: ['user event with empty text not written (the API rejects empty turns)'] };
    }
    const lines = this.startTurn(event.timestamp);
    lines.push(
      this.item({ type: 'message', role: 'user', content: inputParts(event.text.trim() === '' ? '' : event.text, images) }, event.timestamp),
      // What `codex exec resume --last` looks for, and what Codex's own history view shows.
      this.line('event_msg', { type: 'user_message', message: event.text, images: [] }, event.timestamp),
    );
    return { lines, warnings: [] };
  }

  protected assistant(event: AssistantEvent): Mapped {
    const lines = this.modelOutput(event.model, event.timestamp);
    if (event.text.trim() !== '') {
      lines.push(
        this.line('event_msg', { type: 'agent_message', message: event.text }, event.timestamp),
        this.item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: event.text }] }, event.timestamp),
      );
      this.turn!.lastAgentMessage = event.text;
    }
    lines.push(...this.tokenCount(event.usage, event.timestamp));
    return { lines, warnings: [] };
  }

  protected toolCall(event: ToolCallEvent): Mapped {
    // A call that came from a Codex session is written as Codex recorded it (exec_command, not Bash).
    const call = writableCall(event, FORMAT);
    const args = call.json;
    this.toolIds.add(event.id);
    const lines = this.modelOutput(event.model, event.timestamp);
    lines.push(
      this.item({ type: 'function_call', name: call.name, arguments: args, call_id: event.id }, event.timestamp),
      ...this.tokenCount(event.usage, event.timestamp),
    );
    return { lines, warnings: [] };
  }

  protected toolResult(event: ToolResultEvent): Mapped {
    const lines = this.ensureTurn(event.timestamp);
    if (!this.toolIds.has(event.id)) {
      // Codex drops a function_call_output that answers no function_call on resume; keep it as user text.
      const header = `[Tool result for call ${event.id}${event.is_error ? ' (error)' : ''}; no matching tool call was recorded]`;
      const images = typeof event.content === 'string' ? [] : event.content.filter((p): p is { type: 'image' } & ImageInput => p.type === 'image');
      lines.push(this.item({ type: 'message', role: 'user', content: inputParts(`${header}\n${textOf(event.content)}`, images) }, event.timestamp));
      this.fidelity.change('tool_result', 'no matching call: kept as user text');
      if (event.is_error) this.fidelity.change('error_flag', 'said in the text');
      return { lines, warnings: [`tool_result ${JSON.stringify(event.id)} matches no earlier tool_call; kept as user text`] };
    }
    lines.push(this.item({ type: 'function_call_output', call_id: event.id, output: outputOf(event.content) }, event.timestamp));
    if (event.is_error) this.fidelity.drop('error_flag', 'Codex results have no error flag');
    const warnings = event.is_error ? this.once('is_error').warnings : [];
    return { lines, warnings };
  }

  /**
   * A monitor notification as the resuming model should see it: a developer message holding what Claude
   * Code sends for the same event (the "not user input" preamble, then the task-notification XML). Codex
   * sends developer messages in history to the model in place; they are no user turn.
   */
  protected notify(text: string, timestamp: string): Mapped {
    return { lines: [this.item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] }, timestamp)], warnings: [] };
  }



  /**
   * Codex's own compaction line. `replacement_history` is what the model sees of everything before it on
   * resume: the summary as one user message (without it, Codex would also keep the earlier user messages).
   */
  protected compaction(event: CompactionEvent): Mapped {
    const replacement = event.summary.trim() === ''
      ? []
      : [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: event.summary }] }];
    return {
      lines: [this.line('compacted', { message: event.summary, replacement_history: replacement }, event.timestamp)],
      warnings: [],
    };
  }
}
