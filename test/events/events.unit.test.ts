import { describe, expect, test } from 'vitest';
import { callFor, normalizeEvent, resolveTimestamp, type ToolCallEvent } from '../../lib/events.js';

const NOW = '2026-11-29T12:00:00.000Z';

function ok(value: unknown) {
  const result = normalizeEvent(value, NOW);
  if (!result.ok) throw new Error(`rejected: ${result.error}`);
  return result.event;
}

function error(value: unknown): string {
  const result = normalizeEvent(value, NOW);
  if (result.ok) throw new Error('accepted');
  return result.error;
}

describe('normalizeEvent', () => {
  test('a user event without a timestamp gets the time it was read', () => {
    expect(ok({ type: 'user', text: 'hi' })).toEqual({ type: 'user', text: 'hi', timestamp: NOW });
  });

  test('an RFC 3339 timestamp with an offset is kept as the same instant in UTC with milliseconds', () => {
    expect(ok({ type: 'user', text: 'hi', timestamp: '2026-01-02T03:04:05+02:00' })?.timestamp).toBe('2026-01-02T01:04:05.000Z');
  });

  test('an epoch-milliseconds timestamp becomes RFC 3339', () => {
    expect(ok({ type: 'assistant', text: 'x', timestamp: 1_795_000_000_000 })?.timestamp).toBe(new Date(1_795_000_000_000).toISOString());
  });

  test('a timestamp that is neither RFC 3339 nor a number is rejected', () => {
    expect(error({ type: 'user', text: 'hi', timestamp: 'yesterday' })).toMatch(/timestamp/);
    expect(error({ type: 'user', text: 'hi', timestamp: true })).toMatch(/timestamp/);
  });

  test('tool_call arguments given as a JSON string are parsed into an object', () => {
    expect(ok({ type: 'tool_call', id: 'a', name: 'Bash', arguments: '{"command":"ls"}' })).toMatchObject({ arguments: { command: 'ls' } });
  });

  test('tool_call arguments that are a string but not a JSON object are rejected', () => {
    expect(error({ type: 'tool_call', id: 'a', name: 'Bash', arguments: 'ls -l' })).toMatch(/arguments/);
    expect(error({ type: 'tool_call', id: 'a', name: 'Bash', arguments: '[1,2]' })).toMatch(/arguments/);
  });

  test('a tool_call keeps its native call: the agent, name and arguments it came from', () => {
    const native = { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls', yield_time_ms: 1000 } };
    expect(normalizeEvent({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native }, NOW)).toEqual({
      ok: true, event: { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native, timestamp: NOW },
    });
  });

  test.each([
    ['a string', 'exec_command', '"native" must be an object, got a string'],
    ['no format', { name: 'exec_command', arguments: {} }, 'missing "native.format"'],
    ['an empty name', { format: 'codex-cli', name: '', arguments: {} }, '"native.name" must not be empty'],
    ['a numeric name', { format: 'codex-cli', name: 7, arguments: {} }, '"native.name" must be a string, got a number'],
    ['string arguments', { format: 'codex-cli', name: 'exec_command', arguments: '{"cmd":"ls"}' }, '"native.arguments" must be an object, got a string'],
    ['no arguments', { format: 'codex-cli', name: 'exec_command' }, 'missing "native.arguments"'],
  ])('a malformed native call (%s) is left out with one warning, the call kept', (_what, native, problem) => {
    const result = normalizeEvent({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native }, NOW);
    expect(result).toEqual({
      ok: true,
      event: { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: NOW },
      warnings: [`${problem}; "native" left out`],
    });
  });

  test('a writer of the native format gets the native name and arguments, any other writer the generic ones', () => {
    const call: ToolCallEvent = {
      type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: NOW,
      native: { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls' } },
    };
    expect(callFor(call, 'codex-cli')).toMatchObject({ name: 'exec_command', arguments: { cmd: 'ls' } });
    expect(callFor(call, 'claude-code-cli')).toMatchObject({ name: 'Bash', arguments: { command: 'ls' } });
    const { native: _, ...plain } = call;
    expect(callFor(plain, 'codex-cli')).toMatchObject({ name: 'Bash', arguments: { command: 'ls' } });
  });

  test('tool_result content parts accept text and images in flat and in Claude form', () => {
    const event = ok({ type: 'tool_result', id: 'a', content: [
      { type: 'text', text: 't' },
      { type: 'image', media_type: 'image/png', data: 'AAAA' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBBB' } },
    ] });
    expect(event).toMatchObject({ content: [
      { type: 'text', text: 't' },
      { type: 'image', media_type: 'image/png', data: 'AAAA' },
      { type: 'image', media_type: 'image/jpeg', data: 'BBBB' },
    ], is_error: false });
  });

  test('an unknown content part type is rejected with its index', () => {
    expect(error({ type: 'tool_result', id: 'a', content: [{ type: 'text', text: 'x' }, { type: 'audio' }] })).toMatch(/content\[1\]/);
  });

  test('an unknown type names the known ones', () => {
    expect(error({ type: 'telemetry' })).toMatch(/unknown event type "telemetry".*user, assistant/);
  });

  test('a missing or mistyped field is named', () => {
    expect(error({ type: 'assistant' })).toBe('missing "text"');
    expect(error({ type: 'user', text: 5 })).toBe('"text" must be a string, got a number');
    expect(error({ type: 'tool_result', id: 'x', is_error: 'yes' })).toMatch(/is_error/);
    expect(error({ type: 7 })).toMatch(/"type" must be a string/);
  });

  test('a value that is not an object is rejected', () => {
    expect(error([1, 2])).toMatch(/expected a JSON object, got an array/);
    expect(error('text')).toMatch(/got a string/);
    expect(error(null)).toMatch(/got null/);
  });

  test('the Rust enum spelling of the events is accepted', () => {
    expect(ok({ User: { text: 'hi' } })).toMatchObject({ type: 'user', text: 'hi' });
    expect(ok({ ToolCall: { id: 'c1', name: 'Read', arguments: { path: 'a' } } })).toMatchObject({ type: 'tool_call', id: 'c1' });
    expect(ok({ ToolResult: { id: 'c1', content: 'done', is_error: true } })).toMatchObject({ type: 'tool_result', is_error: true });
    expect(ok({ MonitorEvent: { event: 'line', description: 'tail' } })).toMatchObject({ type: 'monitor_event', event: 'line' });
  });

  test('MonitorConsumed is accepted and writes nothing', () => {
    expect(normalizeEvent({ MonitorConsumed: {} }, NOW)).toEqual({ ok: true, event: null });
    expect(normalizeEvent('MonitorConsumed', NOW)).toEqual({ ok: true, event: null });
  });

  test('a __proto__ key in the input is data, not a prototype', () => {
    const value = JSON.parse('{"type":"tool_call","id":"a","name":"n","arguments":{"__proto__":{"polluted":true}}}');
    const event = ok(value);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys((event as { arguments: object }).arguments)).toEqual(['__proto__']);
  });
});

describe('resolveTimestamp', () => {
  test('a date-only value is midnight UTC', () => {
    expect(resolveTimestamp('2026-03-04', NOW)).toBe('2026-03-04T00:00:00.000Z');
  });
});
