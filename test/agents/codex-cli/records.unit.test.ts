// Unit tests of the pure Codex rollout mapping: literal events in, rollout lines out, plus the golden file
// fixtures/codex-cli/conversation.rollout.jsonl (regenerate on purpose with UPDATE_GOLDEN=1).
import { describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeEvent, type GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { CodexRecordMapper, type RolloutLine } from '../../../lib/agents/codex-cli/records.js';
import { lastTotalIn, toCodexUsage } from '../../../lib/agents/codex-cli/token-usage.js';
import { rolloutDirParts, rolloutFileName, sessionStart } from '../../../lib/agents/codex-cli/rollout-path.js';
import { EventRejected } from '../../../lib/session/types.js';
import { FIXTURES } from '../../support/run.js';

const T = '2026-11-29T10:00:00.000Z';
const T2 = '2026-11-29T10:00:05.000Z';
const START = '2026-11-29T09:59:59.000Z';

function mapper(provenance?: Record<string, unknown>, model?: string): CodexRecordMapper {
  let n = 0;
  return new CodexRecordMapper({
    sessionId: '0b7f4c2e-1111-4222-8333-944455556666',
    cwd: '/home/user/project',
    startedAt: START,
    newTurnId: () => `turn-${(n += 1)}`,
    ...(provenance ? { provenance } : {}),
    ...(model !== undefined ? { model } : {}),
  });
}

function mapAll(events: GenericEvent[], end = true, model?: string): { lines: RolloutLine[]; warnings: string[] } {
  const m = mapper(undefined, model);
  const lines: RolloutLine[] = [];
  const warnings: string[] = [];
  for (const event of events) {
    const out = m.map(event);
    lines.push(...out.lines);
    warnings.push(...out.warnings);
  }
  if (end) lines.push(...m.endTurn());
  return { lines, warnings };
}

/** The lines without task bookkeeping, as `type/payload.type` plus the payload. */
function items(lines: RolloutLine[]): RolloutLine['payload'][] {
  return lines.filter((l) => l.type === 'response_item').map((l) => l.payload);
}

function events(file: string): GenericEvent[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => {
    const result = normalizeEvent(JSON.parse(l), T);
    if (!result.ok || result.event === null) throw new Error(`bad fixture line: ${l}`);
    return result.event;
  });
}

describe('Codex rollout mapping', () => {
  test('the mapped fixture conversation matches the golden rollout', () => {
    const m = mapper();
    const lines: RolloutLine[] = [m.sessionMeta()];
    const warnings: string[] = [];
    for (const event of events(join(FIXTURES, 'codex-cli', 'conversation.events.ndjson'))) {
      const out = m.map(event);
      lines.push(...out.lines);
      warnings.push(...out.warnings);
    }
    lines.push(...m.endTurn());
    const golden = join(FIXTURES, 'codex-cli', 'conversation.rollout.jsonl');
    const text = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, text);
    expect(text).toBe(readFileSync(golden, 'utf8'));
    expect(warnings).toEqual([
      'thinking is not written to Codex rollouts (Codex reasoning items hold encrypted content only the API can make); further thinking is dropped silently',
      'tool_result "toolu_gone" matches no earlier tool_call; kept as user text',
      'a Codex rollout has no field for a failed tool result (is_error); the output is written as it is (further ones silently)',
      'events with "agent_id" belong to a subagent session and are not written to this rollout; further ones are dropped silently',
    ]);
  });

  test('session_meta holds the fields Codex requires, the session id, and no history_mode', () => {
    const meta = mapper().sessionMeta();
    expect(meta).toEqual({
      timestamp: START,
      type: 'session_meta',
      payload: {
        id: '0b7f4c2e-1111-4222-8333-944455556666', timestamp: START, cwd: '/home/user/project',
        originator: 'asyncai-log', cli_version: '0.171.0',
      },
    });
  });

  test('provenance fields are added to session_meta', () => {
    expect(mapper({ converted_from: 'claude-code-cli' }).sessionMeta().payload).toMatchObject({ converted_from: 'claude-code-cli' });
  });

  test('a user event starts a turn: task_started, the user message item and a user_message event, all at its timestamp', () => {
    const { lines } = mapAll([{ type: 'user', text: 'list the files', timestamp: T }], false);
    expect(lines).toEqual([
      { timestamp: T, type: 'event_msg', payload: { type: 'task_started', turn_id: 'turn-1', started_at: Date.parse(T) / 1000 } },
      { timestamp: T, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] } },
      { timestamp: T, type: 'event_msg', payload: { type: 'user_message', message: 'list the files', images: [] } },
    ]);
  });

  test('user images become input_image data URLs after the text', () => {
    const { lines } = mapAll([{ type: 'user', text: 'see', images: [{ media_type: 'image/png', data: 'AAAA' }], timestamp: T }]);
    expect(items(lines)[0]!.content).toEqual([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ]);
  });

  test('the next user event completes the turn before it, naming its last assistant text', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'one', timestamp: T },
      { type: 'assistant', text: 'first answer', timestamp: T },
      { type: 'user', text: 'two', timestamp: T2 },
    ], false);
    const tasks = lines.filter((l) => l.payload.type === 'task_started' || l.payload.type === 'task_complete');
    expect(tasks).toEqual([
      { timestamp: T, type: 'event_msg', payload: { type: 'task_started', turn_id: 'turn-1', started_at: Date.parse(T) / 1000 } },
      { timestamp: T, type: 'event_msg', payload: { type: 'task_complete', turn_id: 'turn-1', last_agent_message: 'first answer' } },
      { timestamp: T2, type: 'event_msg', payload: { type: 'task_started', turn_id: 'turn-2', started_at: Date.parse(T2) / 1000 } },
    ]);
  });

  test('endTurn completes the open turn once, and nothing when none is open', () => {
    const m = mapper();
    m.map({ type: 'user', text: 'one', timestamp: T });
    expect(m.endTurn().map((l) => l.payload.type)).toEqual(['task_complete']);
    expect(m.endTurn()).toEqual([]);
  });

  test('assistant text becomes an agent_message event and an output_text message item', () => {
    const { lines } = mapAll([{ type: 'user', text: 'q', timestamp: T }, { type: 'assistant', text: 'there is a.txt', timestamp: T2 }], false);
    expect(lines.slice(3)).toEqual([
      { timestamp: T2, type: 'event_msg', payload: { type: 'agent_message', message: 'there is a.txt' } },
      { timestamp: T2, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'there is a.txt' }] } },
    ]);
  });

  test('model output before any user event still opens a turn', () => {
    const { lines } = mapAll([{ type: 'assistant', text: 'hello', timestamp: T }], false);
    expect(lines[0]!.payload).toMatchObject({ type: 'task_started', turn_id: 'turn-1' });
  });

  test('a tool call becomes a function_call with its name, its id as call_id and its arguments as a JSON string', () => {
    const { lines } = mapAll([{ type: 'tool_call', id: 'toolu_1', name: 'SomeUnknownTool', arguments: { command: 'ls', n: 2 }, timestamp: T }]);
    expect(items(lines)).toEqual([{ type: 'function_call', name: 'SomeUnknownTool', arguments: '{"command":"ls","n":2}', call_id: 'toolu_1' }]);
  });

  test('a string tool result is a function_call_output with the string as output', () => {
    const { lines } = mapAll([
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'a.txt', is_error: false, timestamp: T },
    ]);
    expect(items(lines)[1]).toEqual({ type: 'function_call_output', call_id: 'c1', output: 'a.txt' });
  });

  test('tool result parts become input_text and input_image content items', () => {
    const { lines } = mapAll([
      { type: 'tool_call', id: 'c1', name: 'Shot', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c1', content: [{ type: 'text', text: 'shot' }, { type: 'image', media_type: 'image/jpeg', data: 'BBBB' }], is_error: false, timestamp: T },
    ]);
    expect(items(lines)[1]!.output).toEqual([
      { type: 'input_text', text: 'shot' },
      { type: 'input_image', image_url: 'data:image/jpeg;base64,BBBB' },
    ]);
  });

  test('an empty parts list is written as an empty string output', () => {
    const { lines } = mapAll([
      { type: 'tool_call', id: 'c1', name: 'X', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c1', content: [], is_error: false, timestamp: T },
    ]);
    expect(items(lines)[1]!.output).toBe('');
  });

  test('a failed tool result keeps its output and says once that is_error has no place in a rollout', () => {
    const { lines, warnings } = mapAll([
      { type: 'tool_call', id: 'c1', name: 'X', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'boom', is_error: true, timestamp: T },
      { type: 'tool_call', id: 'c2', name: 'X', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c2', content: 'boom again', is_error: true, timestamp: T },
    ]);
    expect(items(lines).map((i) => i.output).filter(Boolean)).toEqual(['boom', 'boom again']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is_error/);
  });

  test('a tool result with no earlier tool call is kept as user text (Codex would drop the orphan output)', () => {
    const { lines, warnings } = mapAll([{ type: 'tool_result', id: 'gone', content: 'late', is_error: false, timestamp: T }]);
    expect(items(lines)).toEqual([{
      type: 'message', role: 'user',
      content: [{ type: 'input_text', text: '[Tool result for call gone; no matching tool call was recorded]\nlate' }],
    }]);
    expect(warnings).toEqual(['tool_result "gone" matches no earlier tool_call; kept as user text']);
  });

  test('thinking is dropped with one warning for the whole session', () => {
    const { lines, warnings } = mapAll([
      { type: 'thinking', text: 'hmm', signature: 'sig', timestamp: T },
      { type: 'thinking', text: 'more', timestamp: T },
    ]);
    expect(lines).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^thinking is not written to Codex rollouts/);
  });

  test('a monitor event becomes a developer message with the notification preamble and escaped XML', () => {
    const { lines } = mapAll([{ type: 'monitor_event', event: 'a <b> & c', description: 'tail log', task_id: 'babcdefgh', timestamp: T }]);
    expect(lines).toEqual([{
      timestamp: T, type: 'response_item',
      payload: {
        type: 'message', role: 'developer',
        content: [{ type: 'input_text', text: `${PRE}\n\n<task-notification>\n<task-id>babcdefgh</task-id>\n<summary>Monitor event: "tail log"</summary>\n<event>a &lt;b&gt; &amp; c</event>\n</task-notification>` }],
      },
    }]);
  });

  test('a monitor end says completed, failed or stopped as Claude Code would', () => {
    const texts = (event: GenericEvent[]) => items(mapAll(event).lines).map((i) => (i.content as { text: string }[])[0]!.text);
    const end = { type: 'monitor_end' as const, description: 'm', task_id: 'b12345678', timestamp: T };
    expect(texts([{ ...end, exit_code: 0 }])[0]).toContain('<status>completed</status>\n<summary>Monitor "m" ended without producing output (exit 0)</summary>');
    expect(texts([{ type: 'monitor_event', event: 'x', description: 'm', task_id: 'b12345678', timestamp: T }, { ...end, exit_code: 0 }])[1])
      .toContain('<summary>Monitor "m" stream ended</summary>');
    expect(texts([{ ...end, exit_code: 3 }])[0]).toContain('<status>failed</status>\n<summary>Monitor "m" script failed (exit 3)</summary>');
    expect(texts([{ ...end, exit_code: 143, stopped: true }])[0]).toContain('<status>killed</status>\n<summary>Monitor "m" stopped</summary>');
  });

  test('monitor events without a task id share one per description', () => {
    const { lines } = mapAll([
      { type: 'monitor_event', event: 'x', description: 'm', timestamp: T },
      { type: 'monitor_event', event: 'y', description: 'm', timestamp: T },
    ]);
    const ids = items(lines).map((i) => /<task-id>(b[a-z0-9]{8})<\/task-id>/.exec((i.content as { text: string }[])[0]!.text)?.[1]);
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
  });

  test('usage becomes a token_count event whose total is the running sum and whose last is the event own', () => {
    const { lines } = mapAll([
      { type: 'assistant', text: 'a', usage: { input_tokens: 10, output_tokens: 5 }, timestamp: T },
      { type: 'tool_call', id: 'c', name: 'X', arguments: {}, usage: { input_tokens: 20, cache_read_input_tokens: 7, output_tokens: 1 }, timestamp: T2 },
    ]);
    const counts = lines.filter((l) => l.payload.type === 'token_count');
    expect(counts.map((l) => l.timestamp)).toEqual([T, T2]);
    expect(counts[1]!.payload.info).toEqual({
      total_token_usage: { input_tokens: 37, cached_input_tokens: 7, cache_write_input_tokens: 0, output_tokens: 6, reasoning_output_tokens: 0, total_tokens: 43 },
      last_token_usage: { input_tokens: 27, cached_input_tokens: 7, cache_write_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: 28 },
    });
  });

  test('an assistant event with empty text but usage still counts its tokens', () => {
    const { lines } = mapAll([{ type: 'assistant', text: ' ', usage: { input_tokens: 3, output_tokens: 1 }, timestamp: T }]);
    expect(lines.map((l) => l.payload.type)).toEqual(['task_started', 'token_count', 'task_complete']);
  });

  test('adoptTotal continues the running sum from a total another process wrote', () => {
    const m = mapper();
    m.adoptTotal({ input_tokens: 100, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: 110 });
    const out = m.map({ type: 'assistant', text: 'a', usage: { input_tokens: 1, output_tokens: 1 }, timestamp: T });
    const info = out.lines.find((l) => l.payload.type === 'token_count')!.payload.info as Record<string, Record<string, number>>;
    expect(info.total_token_usage).toMatchObject({ input_tokens: 101, output_tokens: 11, total_tokens: 112 });
  });

  test('a compaction becomes a compacted line whose replacement history is the summary alone', () => {
    const { lines } = mapAll([{ type: 'compaction', summary: 'we listed files', timestamp: T }]);
    expect(lines).toEqual([{
      timestamp: T, type: 'compacted',
      payload: { message: 'we listed files', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'we listed files' }] }] },
    }]);
  });

  test('a compaction with an empty summary replaces the history with nothing', () => {
    const { lines } = mapAll([{ type: 'compaction', summary: '', timestamp: T }]);
    expect(lines[0]!.payload).toEqual({ message: '', replacement_history: [] });
  });

  test('context events are accepted and not written', () => {
    expect(mapAll([{ type: 'context', kind: 'system', text: 'x', timestamp: T }])).toEqual({ lines: [], warnings: [] });
  });

  test('an empty user event is not written and says why', () => {
    const { lines, warnings } = mapAll([{ type: 'user', text: '  ', timestamp: T }]);
    expect(lines).toEqual([]);
    expect(warnings).toEqual(['user event with empty text not written (the API rejects empty turns)']);
  });

  test('tool arguments too deep to serialise reject the event and leave the call unknown', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 20_000; i += 1) {
      const next: Record<string, unknown> = {};
      deep.a = next;
      deep = next;
    }
    const m = mapper();
    expect(() => m.map({ type: 'tool_call', id: 'deep', name: 'X', arguments: root, timestamp: T })).toThrow(EventRejected);
    const out = m.map({ type: 'tool_result', id: 'deep', content: 'x', is_error: false, timestamp: T });
    expect(out.warnings[0]).toMatch(/matches no earlier tool_call/);
  });
});

describe('turn_context: the model of each turn', () => {
  /** The turn_context line Codex reads back, for `turnId` and `model`, at `timestamp`. */
  const context = (turnId: string, model: string, timestamp = T): RolloutLine => ({
    timestamp, type: 'turn_context',
    payload: { turn_id: turnId, cwd: '/home/user/project', approval_policy: 'never', model, summary: 'none', sandbox_policy: { type: 'read-only' } },
  });
  /** Each line as `type/payload.type`, a turn_context as `turn_context:<model>`. */
  const kinds = (lines: RolloutLine[]) => lines.map((l) => (l.type === 'turn_context' ? `turn_context:${String(l.payload.model)}` : `${l.type}/${String(l.payload.type)}`));

  test('with --model, every turn states it in a turn_context right after task_started, as Codex does', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'one', timestamp: T },
      { type: 'assistant', text: 'first', timestamp: T },
      { type: 'user', text: 'two', timestamp: T2 },
    ], false, 'gpt-5.1-codex');
    expect(lines[1]).toEqual(context('turn-1', 'gpt-5.1-codex'));
    expect(kinds(lines)).toEqual([
      'event_msg/task_started', 'turn_context:gpt-5.1-codex', 'response_item/message', 'event_msg/user_message',
      'event_msg/agent_message', 'response_item/message',
      'event_msg/task_complete', 'event_msg/task_started', 'turn_context:gpt-5.1-codex', 'response_item/message', 'event_msg/user_message',
    ]);
    expect(lines[8]).toEqual(context('turn-2', 'gpt-5.1-codex', T2));
  });

  test('the model an event names wins over --model, from that event on, before the tokens it reports', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'q', timestamp: T },
      { type: 'assistant', text: 'a', model: 'claude-sonnet-4-5', usage: { input_tokens: 1, output_tokens: 1 }, timestamp: T2 },
    ], true, 'gpt-5.1-codex');
    expect(kinds(lines)).toEqual([
      'event_msg/task_started', 'turn_context:gpt-5.1-codex', 'response_item/message', 'event_msg/user_message',
      'turn_context:claude-sonnet-4-5', 'event_msg/agent_message', 'response_item/message', 'event_msg/token_count',
      'event_msg/task_complete',
    ]);
    expect(lines[4]).toEqual(context('turn-1', 'claude-sonnet-4-5', T2));
  });

  test('a model change mid-session gives a new turn_context; the model carries on to later turns and is not repeated within one', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'one', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'X', arguments: {}, model: 'model-a', timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'r', is_error: false, timestamp: T },
      { type: 'assistant', text: 'same model, unnamed', timestamp: T },
      { type: 'assistant', text: 'named again', model: 'model-a', timestamp: T },
      { type: 'user', text: 'two', timestamp: T2 },
      { type: 'assistant', text: 'switched', model: 'model-b', timestamp: T2 },
    ]);
    expect(kinds(lines).filter((k) => k.startsWith('turn_context') || k === 'event_msg/task_started')).toEqual([
      'event_msg/task_started', 'turn_context:model-a',
      'event_msg/task_started', 'turn_context:model-a', 'turn_context:model-b',
    ]);
    expect(lines.filter((l) => l.type === 'turn_context').map((l) => l.payload.turn_id)).toEqual(['turn-1', 'turn-2', 'turn-2']);
  });

  test('model output before any user turn opens the turn with its model', () => {
    const { lines } = mapAll([{ type: 'assistant', text: 'hello', model: 'model-a', timestamp: T }], false);
    expect(kinds(lines)).toEqual(['event_msg/task_started', 'turn_context:model-a', 'event_msg/agent_message', 'response_item/message']);
  });

  test('the model of a thinking event (a response\'s first) counts for the output after it; a subagent\'s does not', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'q', timestamp: T },
      { type: 'thinking', text: 'hmm', model: 'model-a', timestamp: T },
      { type: 'assistant', text: 'sub', model: 'model-sub', agent_id: 'agent_1', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'X', arguments: {}, timestamp: T },
    ]);
    expect(kinds(lines).filter((k) => k.startsWith('turn_context'))).toEqual(['turn_context:model-a']);
  });

  test('without --model and without a model in the events no turn_context is written', () => {
    const { lines } = mapAll([
      { type: 'user', text: 'q', timestamp: T },
      { type: 'assistant', text: 'a', usage: { input_tokens: 1, output_tokens: 1 }, timestamp: T },
    ]);
    expect(lines.some((l) => l.type === 'turn_context')).toBe(false);
  });

  test('after another writer appended (with its own turn_context), the next model output states the model again', () => {
    const m = mapper(undefined, 'model-a');
    expect(kinds(m.map({ type: 'user', text: 'q', timestamp: T }).lines)).toContain('turn_context:model-a');
    expect(kinds(m.map({ type: 'assistant', text: 'a', timestamp: T }).lines)).not.toContain('turn_context:model-a');
    m.foreignAppended();
    expect(kinds(m.map({ type: 'assistant', text: 'b', timestamp: T2 }).lines)).toEqual(['turn_context:model-a', 'event_msg/agent_message', 'response_item/message']);
  });
});

describe('token usage in Codex terms', () => {
  test('Messages API usage: input counts cache reads and writes, which are also given apart', () => {
    expect(toCodexUsage({ input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7 })).toEqual({
      input_tokens: 115, cached_input_tokens: 100, cache_write_input_tokens: 5, output_tokens: 7, reasoning_output_tokens: 0, total_tokens: 122,
    });
  });

  test('OpenAI usage: input already counts the cached tokens; details and totals are taken as given', () => {
    expect(toCodexUsage({ input_tokens: 300, input_tokens_details: { cached_tokens: 100 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 5 }, total_tokens: 320 })).toEqual({
      input_tokens: 300, cached_input_tokens: 100, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 5, total_tokens: 320,
    });
  });

  test('Codex usage passes through', () => {
    const usage = { input_tokens: 9, cached_input_tokens: 2, cache_write_input_tokens: 1, output_tokens: 3, reasoning_output_tokens: 1, total_tokens: 12 };
    expect(toCodexUsage(usage)).toEqual(usage);
  });

  test('usage without any token count gives nothing', () => {
    expect(toCodexUsage({ service_tier: 'standard' })).toBeUndefined();
  });

  test('negative and non-numeric counts are taken as zero', () => {
    expect(toCodexUsage({ input_tokens: -4, output_tokens: 'many' })).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
  });
});

describe('foreign token totals', () => {
  const count = (input: number) => JSON.stringify({
    timestamp: T, type: 'event_msg',
    payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, output_tokens: 1, total_tokens: input + 1 } } },
  });

  test('the last complete token_count line gives the total', () => {
    expect(lastTotalIn(`${count(5)}\n{"type":"event_msg","payload":{"type":"agent_message"}}\n${count(9)}\n`)).toMatchObject({ input_tokens: 9, total_tokens: 10 });
  });

  test('an unterminated last line is not trusted', () => {
    expect(lastTotalIn(`${count(5)}\n${count(9)}`)).toMatchObject({ input_tokens: 5 });
  });

  test('text without a token_count gives nothing', () => {
    expect(lastTotalIn('{"type":"event_msg","payload":{"type":"token_count"}}\nnot json "token_count"\n')).toBeUndefined();
  });
});

describe('rollout file names', () => {
  test('name and date folders use the local fields of the start time', () => {
    const started = new Date(2026, 0, 5, 7, 8, 9); // local time
    expect(rolloutDirParts(started)).toEqual(['2026', '01', '05']);
    expect(rolloutFileName(started, 'abc')).toBe('rollout-2026-01-05T07-08-09-abc.jsonl');
  });

  test('a session starts at the time given, else now; a time without a four-digit year counts as none', () => {
    const now = new Date('2026-12-01T11:00:00.000Z');
    expect(sessionStart('2025-03-04T05:06:07.000Z', now).toISOString()).toBe('2025-03-04T05:06:07.000Z');
    expect(sessionStart(undefined, now)).toBe(now);
    expect(sessionStart('+275760-09-13T00:00:00.000Z', now)).toBe(now);
    expect(sessionStart('-000001-01-01T00:00:00.000Z', now)).toBe(now);
    expect(sessionStart('not a time', now)).toBe(now);
  });
});

describe('calls as Codex recorded them (native)', () => {
  const native = { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls', yield_time_ms: 1000 } };

  test('a call that came from a Codex session is written with Codex\'s own name and arguments; its result matches by id', () => {
    const { lines } = mapAll([
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'a.txt', is_error: false, timestamp: T },
    ]);
    expect(items(lines)).toEqual([
      { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls","yield_time_ms":1000}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
    ]);
  });

  test('a call whose native names another agent is written with the generic name and arguments', () => {
    const { lines } = mapAll([{
      type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T,
      native: { format: 'gemini-cli', name: 'run_shell_command', arguments: { command: 'ls' } },
    }]);
    expect(items(lines)).toEqual([{ type: 'function_call', name: 'Bash', arguments: '{"command":"ls"}', call_id: 'c1' }]);
  });
});
