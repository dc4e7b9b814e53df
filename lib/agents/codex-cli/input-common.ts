// What the two Codex adapters (exec --json events, rollout files) share: the mapping of Codex tools to the
// tools a resuming Claude agent knows, tool call ids the Messages API accepts, and token usage, which
// Codex reports as running totals and transcripts want per turn.
import type { GenericEvent, ToolCallEvent, ToolResultEvent, Usage } from '../../events.js';
import { isObject, text } from '../../input/adapter-kit.js';

/**
 * A tool call id the Messages API accepts (`^[a-zA-Z0-9_-]+$`, which Claude Code sends back verbatim).
 * The same input always gives the same id, so a call and its result still match.
 */
export function toolId(raw: string): string {
  const clean = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  return clean === '' ? 'call' : clean;
}

/**
 * The script inside Codex's shell wrapper (`/bin/bash -lc 'echo hi'` -> `echo hi`), which is what the
 * model asked to run and what a Bash tool call holds. Anything not in that exact shape is kept as it is.
 */
export function unwrapShell(command: string): string {
  const match = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh -l?c '((?:[^']|'\\'')*)'$/s.exec(command);
  return match ? match[1]!.replace(/'\\''/g, "'") : command;
}

/** A command given as argv (`["bash","-lc","ls"]`, `["ls","-la"]`) as one shell line. */
export function joinArgv(argv: readonly string[]): string {
  if (argv.length === 3 && /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** Codex's todo items (`{text, completed}` or update_plan's `{step, status}`) as TodoWrite's todos. */
export function todos(items: readonly unknown[]): { content: string; status: string; activeForm: string }[] {
  return items.filter(isObject).map((item) => {
    const content = text(item, 'text') ?? text(item, 'step') ?? '';
    const given = text(item, 'status');
    const status = given === 'pending' || given === 'in_progress' || given === 'completed'
      ? given
      : item.completed === true ? 'completed' : 'pending';
    return { content, status, activeForm: content };
  });
}

/** A tool call and its result, as one pair (for Codex actions that carry both at once). */
export function callAndResult(
  call: Omit<ToolCallEvent, 'type'>, content: string, isError: boolean,
): [ToolCallEvent, ToolResultEvent] {
  return [
    { type: 'tool_call', ...call },
    { type: 'tool_result', id: call.id, content, is_error: isError, timestamp: call.timestamp },
  ];
}

const USAGE_KEYS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens'] as const;
type Totals = Record<(typeof USAGE_KEYS)[number], number>;

function totals(value: unknown): Totals | undefined {
  if (!isObject(value)) return undefined;
  const out = {} as Totals;
  for (const key of USAGE_KEYS) {
    const n = value[key];
    out[key] = typeof n === 'number' && Number.isFinite(n) ? n : 0;
  }
  return out;
}

/**
 * Per-turn usage from Codex's running totals (`turn.completed.usage`, `token_count.info.total_token_usage`).
 * A snapshot that is lower than the last one (Codex writes a zeroed one when the context window overflows)
 * is ignored rather than turned into negative usage.
 */
export class CodexUsage {
  private base: Totals | undefined;
  private latest: Totals | undefined;

  /** Record a running total. */
  observe(value: unknown): void {
    const next = totals(value);
    if (!next) return;
    const floor = this.latest ?? this.base;
    if (floor && USAGE_KEYS.some((key) => next[key] < floor[key])) return;
    this.latest = next;
  }

  /** The usage since the last turn ended, in the Messages API's terms, or undefined when nothing was used. */
  endTurn(): Usage | undefined {
    const now = this.latest;
    if (!now) return undefined;
    const before = this.base;
    this.base = now;
    this.latest = undefined;
    const d = (key: (typeof USAGE_KEYS)[number]) => now[key] - (before?.[key] ?? 0);
    if (USAGE_KEYS.every((key) => d(key) === 0)) return undefined;
    // Codex's input_tokens include the cached ones; the Messages API counts cache reads separately.
    return {
      input_tokens: Math.max(0, d('input_tokens') - d('cached_input_tokens')),
      cache_read_input_tokens: d('cached_input_tokens'),
      cache_creation_input_tokens: d('cache_write_input_tokens'),
      output_tokens: d('output_tokens'),
    };
  }
}

/**
 * Holds back the last assistant text of a turn so the turn's usage, which Codex reports after it, can be
 * attached to it. Every other event releases it first, so the order of events never changes.
 */
export class HeldAssistant {
  private held: GenericEvent | undefined;

  /** Events to emit before `event` (the held one), then hold `event` if it is assistant text. */
  push(out: GenericEvent[], event: GenericEvent): void {
    this.release(out);
    if (event.type === 'assistant') this.held = event;
    else out.push(event);
  }

  release(out: GenericEvent[], usage?: Usage): void {
    if (!this.held) return;
    if (usage && this.held.type === 'assistant') this.held.usage = usage;
    out.push(this.held);
    this.held = undefined;
  }
}
