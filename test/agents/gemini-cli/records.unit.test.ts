// The Gemini chat mapper with literal events: which lines each event makes, how a model message gathers its
// thoughts, text and tool calls, how results rewrite it by id, and the tokens, summary and notifications.
import { describe, expect, test } from 'vitest';
import { EventRejected } from '../../../lib/session/types.js';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { CANCELLED_ERROR, GeminiRecordMapper, summaryOf } from '../../../lib/agents/gemini-cli/records.js';
import { responseCopies } from '../../../lib/agents/gemini-cli/harness.js';
import { fromGeminiTokens, toGeminiTokens } from '../../../lib/gemini-content/tokens.js';
import { PNG } from './support.js';

const T = '2026-11-29T10:00:00.000Z';

function mapper(): GeminiRecordMapper {
  let n = 0;
  return new GeminiRecordMapper({ sessionId: 'S', projectHash: 'H', startedAt: T, model: 'gemini-2.5-pro', newId: () => `m${n += 1}` });
}

/** Map `events` (one batch) and drain the lines, with the warnings said. */
function lines(m: GeminiRecordMapper, events: Partial<GenericEvent>[]): { lines: any[]; warnings: string[] } {
  const warnings = events.flatMap((e) => m.map({ timestamp: T, ...e } as GenericEvent));
  return { lines: JSON.parse(JSON.stringify(m.drain())), warnings };
}

describe('the metadata line', () => {
  test('names the session and project hash, starts now, is a main session and carries the provenance', () => {
    const m = new GeminiRecordMapper({ sessionId: 'S', projectHash: 'H', startedAt: T, provenance: { asyncaiLog: { convertedFrom: 'x', source: '/a' } } });
    expect(m.metadata()).toEqual({ sessionId: 'S', projectHash: 'H', startTime: T, lastUpdated: T, kind: 'main', asyncaiLog: { convertedFrom: 'x', source: '/a' } });
  });

  test('the closing line sets lastUpdated to the given time', () => {
    expect(mapper().closing('2027-01-01T00:00:00.000Z')).toEqual({ $set: { lastUpdated: '2027-01-01T00:00:00.000Z' } });
  });
});

describe('user messages', () => {
  test('text and images become parts; the first user text becomes the summary, once', () => {
    const m = mapper();
    const out = lines(m, [
      { type: 'user', text: 'Look at this', images: [{ media_type: 'image/png', data: PNG }] },
      { type: 'user', text: 'and this' },
    ]);
    expect(out.lines).toEqual([
      { id: 'm1', timestamp: T, type: 'user', content: [{ text: 'Look at this' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
      { $set: { summary: 'Look at this' } },
      { id: 'm2', timestamp: T, type: 'user', content: [{ text: 'and this' }] },
    ]);
  });

  test('an empty user event is not written and says why', () => {
    const out = lines(mapper(), [{ type: 'user', text: '  ' }]);
    expect(out.lines).toEqual([]);
    expect(out.warnings).toEqual(['user event with empty text not written (the CLI does not resume empty turns)']);
  });

  test('user text the CLI does not resend (a /command) is written with a warning, once, and is no summary', () => {
    const out = lines(mapper(), [{ type: 'user', text: '/help' }, { type: 'user', text: '?x' }]);
    expect(out.lines.map((l) => l.content?.[0]?.text ?? l)).toEqual(['/help', '?x']);
    expect(out.warnings).toHaveLength(1);
  });

  test('the summary is the first line, whitespace collapsed, cut to 80 code points', () => {
    expect(summaryOf('  fix   the\tbuild\nplease')).toBe('fix the build');
    const long = '\u{1F600}'.repeat(100);
    expect([...summaryOf(long)]).toHaveLength(80);
    expect(summaryOf(long).endsWith('\u2026')).toBe(true);
  });
});

describe('model messages', () => {
  test('thinking, text and parallel tool calls of one response are one message, the calls cancelled until answered', () => {
    const out = lines(mapper(), [
      { type: 'thinking', text: '**Plan** read it' },
      { type: 'assistant', text: 'Reading.', model: 'gemini-2.5-flash', usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90 } },
      { type: 'tool_call', id: 'a', name: 'read_file', arguments: { file_path: 'x' } },
      { type: 'tool_call', id: 'b', name: 'Bash', arguments: { command: 'ls' } },
    ]);
    expect(out.lines).toEqual([{
      id: 'm1', timestamp: T, type: 'gemini', content: 'Reading.', model: 'gemini-2.5-flash',
      thoughts: [{ subject: 'Plan', description: 'read it', timestamp: T }],
      tokens: { input: 100, output: 5, cached: 90, thoughts: 0, tool: 0, total: 105 },
      toolCalls: [
        { id: 'a', name: 'read_file', args: { file_path: 'x' }, status: 'cancelled', timestamp: T,
          result: [{ functionResponse: { id: 'a', name: 'read_file', response: { error: CANCELLED_ERROR } } }] },
        { id: 'b', name: 'Bash', args: { command: 'ls' }, status: 'cancelled', timestamp: T,
          result: [{ functionResponse: { id: 'b', name: 'Bash', response: { error: CANCELLED_ERROR } } }] },
      ],
    }]);
  });

  test('a result in a later batch rewrites the message under the same id: output, error, image', () => {
    const m = mapper();
    lines(m, [
      { type: 'tool_call', id: 'a', name: 'read_file', arguments: {} },
      { type: 'tool_call', id: 'b', name: 'shot', arguments: {} },
    ]);
    const out = lines(m, [
      { type: 'tool_result', id: 'a', content: 'ENOENT', is_error: true },
      { type: 'tool_result', id: 'b', content: [{ type: 'text', text: 'got' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: false },
    ]);
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0].id).toBe('m1');
    expect(out.lines[0].content).toBe('');
    expect(out.lines[0].model).toBe('gemini-2.5-pro');
    expect(out.lines[0].toolCalls.map((c: any) => [c.status, c.result])).toEqual([
      ['error', [{ functionResponse: { id: 'a', name: 'read_file', response: { error: 'ENOENT' } } }]],
      ['success', [{ functionResponse: { id: 'b', name: 'shot', response: { output: 'got' } } }, { inlineData: { mimeType: 'image/png', data: PNG } }]],
    ]);
  });

  test('model output after a result is a new message; text after text is too', () => {
    const out = lines(mapper(), [
      { type: 'tool_call', id: 'a', name: 'x', arguments: {} },
      { type: 'tool_result', id: 'a', content: 'ok', is_error: false },
      { type: 'assistant', text: 'one' },
      { type: 'assistant', text: 'two' },
    ]);
    expect(out.lines.map((l) => [l.id, l.content])).toEqual([['m1', ''], ['m2', 'one'], ['m3', 'two']]);
  });

  test('a result for an unknown call is kept as user text, with a warning', () => {
    const out = lines(mapper(), [{ type: 'tool_result', id: 'zz', content: 'late', is_error: true }]);
    expect(out.lines).toEqual([{ id: 'm1', timestamp: T, type: 'user',
      content: [{ text: '[Tool result for call zz (error); no matching tool call was recorded]\nlate' }] }]);
    expect(out.warnings).toEqual(['tool_result "zz" matches no earlier tool_call; kept as user text']);
  });

  test('a call is let go once answered: a second result for it is kept as user text, with a warning', () => {
    const m = mapper();
    lines(m, [{ type: 'tool_call', id: 'a', name: 'x', arguments: {} }, { type: 'tool_result', id: 'a', content: 'ok', is_error: false }]);
    const out = lines(m, [{ type: 'tool_result', id: 'a', content: 'again', is_error: false }]);
    expect(out.lines).toEqual([{ id: 'm2', timestamp: T, type: 'user',
      content: [{ text: '[Tool result for call a; no matching tool call was recorded]\nagain' }] }]);
    expect(out.warnings).toEqual(['tool_result "a" matches no earlier tool_call; kept as user text']);
  });

  test('arguments JSON cannot hold are rejected before anything changes', () => {
    const m = mapper();
    const args: any = {};
    let inner = args;
    for (let i = 0; i < 20_000; i += 1) inner = (inner.a = {});
    expect(() => m.map({ type: 'tool_call', id: 'a', name: 'x', arguments: args, timestamp: T })).toThrow(EventRejected);
    expect(m.drain()).toEqual([]);
  });
});

describe('after a resuming CLI rewrote the history', () => {
  test('a rewritten message whose responses the CLI copied empties the copy, so only the new result is sent', () => {
    const m = mapper();
    lines(m, [{ type: 'tool_call', id: 'a', name: 'x', arguments: {} }]);
    m.shadow(responseCopies(`${JSON.stringify({ $set: { messages: [{ id: 'm1' }, { id: 'm1_response', type: 'user' }] } })}\n{"$set":{"messages":[{"id":"zz_resp`));
    const out = lines(m, [{ type: 'tool_result', id: 'a', content: 'ok', is_error: false }]);
    expect(out.lines.map((l) => [l.id, l.content])).toEqual([['m1', ''], ['m1_response', []]]);
  });
});

describe('other events', () => {
  test('a monitor event and its end are user messages with the notification the model sees elsewhere', () => {
    const out = lines(mapper(), [
      { type: 'monitor_event', event: 'a < b', description: 'watch', task_id: 'bk3v9q2xa' },
      { type: 'monitor_end', exit_code: 2, description: 'watch', task_id: 'bk3v9q2xa' },
    ]);
    expect(out.lines.map((l) => l.content[0].text)).toEqual([
      `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<summary>Monitor event: "watch"</summary>\n<event>a &lt; b</event>\n</task-notification>`,
      `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<status>failed</status>\n<summary>Monitor "watch" script failed (exit 2)</summary>\n</task-notification>`,
    ]);
  });

  test('a compaction replaces the history with its summary, as the CLI records its own compression', () => {
    const out = lines(mapper(), [{ type: 'user', text: 'hi' }, { type: 'compaction', summary: 'We said hi.' }]);
    expect(out.lines[2]).toEqual({ $set: { messages: [{ id: 'm2', timestamp: T, type: 'user', content: [{ text: 'We said hi.' }] }] } });
  });

  test('context is accepted and not written; subagent events are dropped with one warning', () => {
    const out = lines(mapper(), [
      { type: 'context', kind: 'system', text: 'x' },
      { type: 'user', text: 'a', agent_id: 'sub' },
      { type: 'user', text: 'b', agent_id: 'sub' },
    ]);
    expect(out.lines).toEqual([]);
    expect(out.warnings).toHaveLength(1);
  });
});

describe('tokens', () => {
  test('OpenAI usage: cached inside input, reasoning taken out of output', () => {
    expect(toGeminiTokens({ input_tokens: 100, input_tokens_details: { cached_tokens: 40 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 } }))
      .toEqual({ input: 100, output: 20, cached: 40, thoughts: 10, tool: 0, total: 130 });
  });

  test('Gemini usageMetadata is taken as it is', () => {
    expect(toGeminiTokens({ promptTokenCount: 5, candidatesTokenCount: 3, cachedContentTokenCount: 1, thoughtsTokenCount: 2, toolUsePromptTokenCount: 4, totalTokenCount: 14 }))
      .toEqual({ input: 5, output: 3, cached: 1, thoughts: 2, tool: 4, total: 14 });
  });

  test('usage without counts gives no tokens; chat tokens read back in the Messages API terms', () => {
    expect(toGeminiTokens({ service_tier: 'x' })).toBeUndefined();
    expect(fromGeminiTokens({ input: 100, output: 5, cached: 90, thoughts: 7, tool: 0, total: 112 }))
      .toEqual({ input_tokens: 10, output_tokens: 12, cache_read_input_tokens: 90 });
  });
});

describe('calls as the CLI recorded them (native)', () => {
  test('a call whose native is Gemini CLI\'s is written with its name and arguments, in the call and its response', () => {
    const m = mapper();
    lines(m, [{
      type: 'tool_call', id: 'a', name: 'Bash', arguments: { command: 'ls' },
      native: { format: 'gemini-cli', name: 'run_shell_command', arguments: { command: 'ls', description: 'list' } },
    }]);
    const out = lines(m, [{ type: 'tool_result', id: 'a', content: 'a.txt', is_error: false }]);
    expect(out.lines[0].toolCalls).toEqual([{
      id: 'a', name: 'run_shell_command', args: { command: 'ls', description: 'list' }, status: 'success', timestamp: T,
      result: [{ functionResponse: { id: 'a', name: 'run_shell_command', response: { output: 'a.txt' } } }],
    }]);
  });

  test('a call whose native names another agent is written with the generic name and arguments', () => {
    const out = lines(mapper(), [{
      type: 'tool_call', id: 'a', name: 'Bash', arguments: { command: 'ls' },
      native: { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls' } },
    }]);
    expect(out.lines[0].toolCalls[0]).toMatchObject({ name: 'Bash', args: { command: 'ls' } });
  });
});
