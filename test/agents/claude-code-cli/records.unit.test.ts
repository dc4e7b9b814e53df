import { describe, expect, test } from 'vitest';
import type { ClaudeRecord } from '../../../lib/agents/claude-code-cli/records.js';
import { encodeProjectDir } from '../../../lib/agents/claude-code-cli/project-dir.js';
import { mapEvents as mapAll, testMapper as mapper } from '../../support/claude-mapper.js';

const T = '2026-11-29T10:00:00.000Z';

const msg = (r: ClaudeRecord) => r.message as Record<string, any>;

describe('Claude record mapping', () => {
  test('parentUuid chains every record to the one written before it, null on the first', () => {
    const { records } = mapAll([
      { type: 'user', text: 'hi', timestamp: T },
      { type: 'assistant', text: 'hello', timestamp: T },
      { type: 'user', text: 'again', timestamp: T },
    ]);
    expect(records.map((r) => [r.parentUuid, r.uuid])).toEqual([[null, 'u1'], ['u1', 'u2'], ['u2', 'u3']]);
  });

  test('every record carries the common fields and the event timestamp', () => {
    const { records } = mapAll([{ type: 'user', text: 'hi', timestamp: T }]);
    expect(records[0]).toMatchObject({ type: 'user', isSidechain: false, timestamp: T, userType: 'external', entrypoint: 'cli', cwd: '/p', sessionId: 'S', version: '2.1.328', message: { role: 'user', content: 'hi' } });
  });

  test('text, thinking and tool calls of one turn share one message.id; the next turn gets a new one', () => {
    const { records } = mapAll([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'thinking', text: 'hmm', signature: 'sig', timestamp: T },
      { type: 'assistant', text: 'two calls', timestamp: T },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: { command: 'x' }, timestamp: T },
      { type: 'tool_call', id: 'b', name: 'Bash', arguments: { command: 'y' }, timestamp: T },
      { type: 'tool_result', id: 'a', content: 'X', is_error: false, timestamp: T },
      { type: 'tool_result', id: 'b', content: 'Y', is_error: true, timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ]);
    const ids = records.filter((r) => r.type === 'assistant').map((r) => msg(r).id);
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    expect(ids[4]).not.toBe(ids[0]);
    expect(msg(records[4]!).content).toEqual([{ type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'y' } }]);
    expect(msg(records[4]!).stop_reason).toBe('tool_use');
    expect(msg(records[6]!).content).toEqual([{ type: 'tool_result', tool_use_id: 'b', content: 'Y', is_error: true }]);
  });

  test('model comes from the event, else the last one seen, else the default', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', timestamp: T },
      { type: 'assistant', text: 'b', model: 'claude-opus-5-5', timestamp: T },
      { type: 'tool_call', id: 'c', name: 'n', arguments: {}, timestamp: T },
    ]);
    expect(records.map((r) => msg(r).model)).toEqual(['claude-sonnet-4-5-20250929', 'claude-opus-5-5', 'claude-opus-5-5']);
  });

  test('usage is passed through unchanged, zeros when the event has none', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', usage: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 3 }, timestamp: T },
      { type: 'user', text: 'u', timestamp: T },
      { type: 'assistant', text: 'b', timestamp: T },
    ]);
    expect(msg(records[0]!).usage).toEqual({ input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 3 });
    expect(msg(records[2]!).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  });

  test('every record of a response carries the usage reported so far: a tool call after the text repeats it', () => {
    const { records } = mapAll([
      { type: 'user', text: 'hi', timestamp: T },
      { type: 'thinking', text: 'hmm', signature: 'sig', timestamp: T },
      { type: 'assistant', text: 'ok', usage: { input_tokens: 100, output_tokens: 50 }, timestamp: T },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'a', content: 'x', is_error: false, timestamp: T },
      { type: 'assistant', text: 'next response', timestamp: T },
    ]);
    expect(records.map((r) => (r.type === 'assistant' ? msg(r).usage : null))).toEqual([
      null,
      { input_tokens: 0, output_tokens: 0 },
      { input_tokens: 100, output_tokens: 50 },
      { input_tokens: 100, output_tokens: 50 },
      null,
      { input_tokens: 0, output_tokens: 0 },
    ]);
  });

  test('usage reported more than once in a response is summed: numbers add, nested fields too, other values are the later', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', usage: { input_tokens: 10, output_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 2 }, service_tier: 'standard' }, timestamp: T },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: {}, usage: { output_tokens: 4, cache_read_input_tokens: 7, cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 1 }, service_tier: 'priority' }, timestamp: T },
      { type: 'tool_call', id: 'b', name: 'Bash', arguments: {}, timestamp: T },
    ]);
    const total = { input_tokens: 10, output_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 1 }, service_tier: 'priority', cache_read_input_tokens: 7 };
    expect(msg(records[1]!).usage).toEqual(total);
    expect(msg(records[2]!).usage).toEqual(total);
    // The first record keeps what was known when it was written; the event's own object is not changed.
    expect(msg(records[0]!).usage).toEqual({ input_tokens: 10, output_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 2 }, service_tier: 'standard' });
  });

  test('a usage key named __proto__ stays a key when summed', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', usage: JSON.parse('{"__proto__":{"n":1},"input_tokens":1}'), timestamp: T },
      { type: 'assistant', text: 'b', usage: JSON.parse('{"__proto__":{"n":2}}'), timestamp: T },
    ]);
    expect(JSON.stringify(msg(records[1]!).usage)).toBe('{"__proto__":{"n":3},"input_tokens":1}');
  });

  test('the records of one response get strictly increasing times: equal ones move by a millisecond each', () => {
    const { records } = mapAll([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'assistant', text: 'two calls', timestamp: T },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: {}, timestamp: T },
      { type: 'tool_call', id: 'b', name: 'Bash', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'a', content: 'x', is_error: false, timestamp: T },
      { type: 'tool_result', id: 'b', content: 'y', is_error: false, timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ]);
    expect(records.map((r) => r.timestamp)).toEqual([
      T, T, '2026-11-29T10:00:00.001Z', '2026-11-29T10:00:00.002Z', T, T, T,
    ]);
  });

  test('given times of a response are kept when they increase, and moved only as far as the order needs', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', timestamp: '2026-11-29T10:00:00.500Z' },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: {}, timestamp: '2026-11-29T10:00:01.000Z' },
      { type: 'tool_call', id: 'b', name: 'Bash', arguments: {}, timestamp: '2026-11-29T10:00:00.200Z' },
      { type: 'tool_call', id: 'c', name: 'Bash', arguments: {}, timestamp: '2026-11-29T10:00:01.001Z' },
      { type: 'tool_call', id: 'd', name: 'Bash', arguments: {}, timestamp: '2026-11-29T10:00:05.000Z' },
    ]);
    expect(records.map((r) => r.timestamp)).toEqual([
      '2026-11-29T10:00:00.500Z', '2026-11-29T10:00:01.000Z', '2026-11-29T10:00:01.001Z', '2026-11-29T10:00:01.002Z', '2026-11-29T10:00:05.000Z',
    ]);
  });

  test('times past year 9999 are ordered too', () => {
    const far = '+010000-01-01T00:00:00.000Z';
    const { records } = mapAll([
      { type: 'assistant', text: 'a', timestamp: far },
      { type: 'assistant', text: 'b', timestamp: '2026-11-29T10:00:00.000Z' },
    ]);
    expect(records.map((r) => r.timestamp)).toEqual([far, '+010000-01-01T00:00:00.001Z']);
  });

  test('unsigned thinking is not written and is reported once', () => {
    const { records, warnings } = mapAll([
      { type: 'thinking', text: 'a', timestamp: T },
      { type: 'thinking', text: 'b', signature: '', timestamp: T },
    ]);
    expect(records).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unsigned thinking/);
  });

  test('signed thinking is written as a thinking block', () => {
    const { records } = mapAll([{ type: 'thinking', text: 'plan', signature: 'EqQB', timestamp: T }]);
    expect(msg(records[0]!).content).toEqual([{ type: 'thinking', thinking: 'plan', signature: 'EqQB' }]);
  });

  test('empty assistant text is not written', () => {
    expect(mapAll([{ type: 'assistant', text: '  \n', timestamp: T }]).records).toEqual([]);
  });

  test('a tool_result with no matching tool_call is kept as user text and warned about', () => {
    const { records, warnings } = mapAll([{ type: 'tool_result', id: 'ghost', content: [{ type: 'text', text: 'out' }], is_error: false, timestamp: T }]);
    expect(msg(records[0]!).content).toBe('[Tool result for call ghost; no matching tool call was recorded]\nout');
    expect(warnings[0]).toMatch(/"ghost" matches no earlier tool_call/);
  });

  test('the last 10,000 calls are remembered: a result 10,000 calls after its own is matched, one 10,001 after is kept as text', () => {
    const calls = Array.from({ length: 10_001 }, (_, i) => ({ type: 'tool_call' as const, id: `c${i}`, name: 'Bash', arguments: {}, timestamp: T }));
    const result = (id: string) => ({ type: 'tool_result' as const, id, content: 'out', is_error: false, timestamp: T });
    const { records, warnings } = mapAll([...calls, result('c1'), result('c0')]);
    expect(msg(records.at(-2)!).content).toEqual([{ type: 'tool_result', tool_use_id: 'c1', content: 'out', is_error: false }]);
    expect(msg(records.at(-1)!).content).toBe('[Tool result for call c0; no matching tool call was recorded]\nout');
    expect(warnings).toEqual(['tool_result "c0" matches no earlier tool_call; kept as user text']);
  });

  test('images become base64 image blocks after the text', () => {
    const { records } = mapAll([{ type: 'user', text: 'look', images: [{ media_type: 'image/png', data: 'iVBO' }], timestamp: T }]);
    expect(msg(records[0]!).content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
    ]);
  });

  test('tool_result image parts are kept inside the result', () => {
    const { records } = mapAll([
      { type: 'tool_call', id: 's', name: 'Screenshot', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 's', content: [{ type: 'image', media_type: 'image/png', data: 'AA' }], is_error: false, timestamp: T },
    ]);
    expect(msg(records[1]!).content[0].content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } }]);
  });

  test('a user event with neither text nor images is not written', () => {
    const { records, warnings } = mapAll([{ type: 'user', text: '', timestamp: T }]);
    expect(records).toEqual([]);
    expect(warnings[0]).toMatch(/empty/);
  });

  test('a last-prompt checkpoint names the current leaf', () => {
    const m = mapper();
    expect(m.lastPrompt()).toBeUndefined();
    m.map({ type: 'user', text: 'x', timestamp: T });
    expect(m.lastPrompt()).toEqual({ type: 'last-prompt', leafUuid: 'u1', sessionId: 'S' });
  });
});

describe('encodeProjectDir', () => {
  test('every character that is not ASCII alphanumeric becomes a dash', () => {
    expect(encodeProjectDir('/tmp/asyncai-resume-edge_x.y')).toBe('-tmp-asyncai-resume-edge-x-y');
    expect(encodeProjectDir('/home/ü ser/p')).toBe('-home---ser-p');
  });

  test('a name of exactly 200 characters is kept whole', () => {
    const cwd = `/${'a'.repeat(199)}`;
    expect(encodeProjectDir(cwd)).toBe(`-${'a'.repeat(199)}`);
  });

  test('a longer name is cut to 200 and suffixed with the base-36 hash of the original cwd', () => {
    const cwd = `/${'d'.repeat(250)}`;
    let h = 0;
    for (const c of cwd) h = ((h << 5) - h + c.charCodeAt(0)) | 0;
    expect(encodeProjectDir(cwd)).toBe(`-${'d'.repeat(199)}-${Math.abs(h).toString(36)}`);
  });

  test('two long cwds that share their first 200 characters get different names', () => {
    const base = `/${'x'.repeat(220)}`;
    expect(encodeProjectDir(`${base}/one`)).not.toBe(encodeProjectDir(`${base}/two`));
  });
});

describe('calls as Claude Code recorded them (native)', () => {
  test('a call whose native is Claude Code\'s is written with its name and input; its result matches by id', () => {
    const { records } = mapAll([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'tool_call', id: 'a', name: 'shell', arguments: { cmd: 'ls' }, native: { format: 'claude-code-cli', name: 'Bash', arguments: { command: 'ls', description: 'list' } }, timestamp: T },
      { type: 'tool_result', id: 'a', content: 'a.txt', is_error: false, timestamp: T },
    ]);
    expect(msg(records[1]!).content).toEqual([{ type: 'tool_use', id: 'a', name: 'Bash', input: { command: 'ls', description: 'list' } }]);
    expect(msg(records[2]!).content).toMatchObject([{ type: 'tool_result', tool_use_id: 'a' }]);
  });

  test('a call whose native names another agent is written with the generic name and input', () => {
    const { records } = mapAll([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'tool_call', id: 'a', name: 'Bash', arguments: { command: 'ls' }, native: { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls' } }, timestamp: T },
    ]);
    expect(msg(records[1]!).content).toEqual([{ type: 'tool_use', id: 'a', name: 'Bash', input: { command: 'ls' } }]);
  });
});
