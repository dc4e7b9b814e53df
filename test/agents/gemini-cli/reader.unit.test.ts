// The `gemini-chat` input format with literal lines: replaced and rewound messages, history rewrites, tool
// calls with results and errors, thoughts, images, tokens, context and UI notes; and what the writer wrote reads back.
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { fixtureValues, mapValues } from '../../input/support.js';
import { GeminiRecordMapper } from '../../../lib/agents/gemini-cli/records.js';
import { PNG } from './support.js';

const T = '2026-11-29T10:00:00.000Z';
const META = { sessionId: '11111111-2222-4333-8444-555555555555', projectHash: 'x' };
const read = (values: unknown[]) => mapValues('gemini-chat', values);

describe('gemini-chat', () => {
  test('is detected from the metadata line', () => {
    expect(detectInputFormat(META)?.name).toBe('gemini-chat');
    expect(detectInputFormat({ sessionId: 'a', type: 'user' })?.name).not.toBe('gemini-chat');
  });

  test('the reference minimal chat: text, a tool call with its result, the answer', () => {
    const { events, warnings } = read([
      META,
      { id: 'u1', type: 'user', content: 'what is in notes.txt?', timestamp: T },
      { id: 'g1', type: 'gemini', content: 'let me read it', timestamp: T, toolCalls: [{ id: 'c1', name: 'read_file', args: { file_path: 'notes.txt' }, result: 'notes say hi' }] },
      { id: 'g2', type: 'gemini', content: 'the notes say hi', timestamp: T },
    ]);
    expect(warnings).toEqual([]);
    expect(events).toEqual([
      { type: 'user', text: 'what is in notes.txt?', timestamp: T },
      { type: 'assistant', text: 'let me read it', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'read_file', arguments: { file_path: 'notes.txt' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'notes say hi', is_error: false, timestamp: T },
      { type: 'assistant', text: 'the notes say hi', timestamp: T },
    ]);
  });

  test('a repeated id replaces in place, $rewindTo drops from there, $set.messages replaces all', () => {
    const ids = (values: unknown[]) => read(values).events.map((e) => (e as any).text);
    expect(ids([META, { id: 'a', type: 'user', content: 'one' }, { id: 'b', type: 'user', content: 'two' }, { id: 'a', type: 'user', content: 'ONE' }])).toEqual(['ONE', 'two']);
    expect(ids([META, { id: 'a', type: 'user', content: 'one' }, { id: 'b', type: 'user', content: 'two' }, { $rewindTo: 'b' }, { id: 'c', type: 'user', content: 'three' }])).toEqual(['one', 'three']);
    expect(ids([META, { id: 'a', type: 'user', content: 'one' }, { $set: { messages: [{ id: 'z', type: 'user', content: 'new' }], lastUpdated: T } }])).toEqual(['new']);
  });

  test('thoughts, tokens, model, images, errors and cancelled calls; session context and UI notes are context', () => {
    const { events, adapter } = read([
      META,
      { id: 'u0', type: 'user', content: [{ text: '<session_context>\n- **Workspace Directories:**\n  - /home/user/project\n</session_context>' }], timestamp: T },
      { id: 'u1', type: 'user', content: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: PNG } }], timestamp: T },
      { id: 'g1', type: 'gemini', content: '', model: 'gemini-2.5-flash', timestamp: T,
        thoughts: [{ subject: 'Plan', description: 'look closer', timestamp: T }],
        tokens: { input: 100, output: 5, cached: 40, thoughts: 3, tool: 0, total: 108 },
        toolCalls: [
          { id: 'c1', name: 'shot', args: {}, status: 'success', timestamp: T, result: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'got' } } }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
          { id: 'c2', name: 'Bash', args: { command: 'x' }, status: 'error', timestamp: T, result: [{ functionResponse: { id: 'c2', name: 'Bash', response: { error: 'boom' } } }] },
          { id: 'c3', name: 'Bash', args: {}, status: 'cancelled', timestamp: T, result: [{ functionResponse: { id: 'c3', name: 'Bash', response: { error: '[Operation Cancelled]' } } }] },
        ] },
      { id: 'g1_response', type: 'user', content: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'got' } } }], timestamp: T },
      { id: 'i1', type: 'info', content: 'Request cancelled.', timestamp: T },
    ]);
    expect(adapter.facts()).toEqual({ cwd: '/home/user/project' });
    expect(events).toEqual([
      { type: 'context', kind: 'system', subtype: 'session_context', text: expect.stringContaining('/home/user/project'), timestamp: T },
      { type: 'user', text: 'look', images: [{ media_type: 'image/png', data: PNG }], timestamp: T },
      { type: 'thinking', text: '**Plan** look closer', model: 'gemini-2.5-flash', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'shot', arguments: {}, model: 'gemini-2.5-flash', usage: { input_tokens: 60, output_tokens: 8, cache_read_input_tokens: 40 }, timestamp: T },
      { type: 'tool_call', id: 'c2', name: 'Bash', arguments: { command: 'x' }, model: 'gemini-2.5-flash', timestamp: T },
      { type: 'tool_call', id: 'c3', name: 'Bash', arguments: {}, model: 'gemini-2.5-flash', timestamp: T },
      { type: 'tool_result', id: 'c1', content: [{ type: 'text', text: 'got' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: false, timestamp: T },
      { type: 'tool_result', id: 'c2', content: 'boom', is_error: true, timestamp: T },
      { type: 'tool_result', id: 'c3', content: '[Operation Cancelled]', is_error: true, timestamp: T },
      { type: 'context', kind: 'ui', subtype: 'info', text: 'Request cancelled.', timestamp: T },
    ]);
  });

  test('a legacy chat on one line (every message inside the metadata object) reads the same', () => {
    const { events } = read([{ ...META, startTime: T, lastUpdated: T, messages: [{ id: 'u1', type: 'user', content: 'hi', timestamp: T }, { id: 'g1', type: 'gemini', content: 'hello', timestamp: T }] }]);
    expect(events.map((e) => e.type)).toEqual(['user', 'assistant']);
  });

  test('what the writer wrote reads back as the events it was given', () => {
    let n = 0;
    const m = new GeminiRecordMapper({ sessionId: META.sessionId, projectHash: 'x', startedAt: T, newId: () => `m${n += 1}` });
    const given = [
      { type: 'user', text: 'go', timestamp: T },
      { type: 'thinking', text: 'hmm', timestamp: T },
      { type: 'assistant', text: 'ok', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'a', is_error: false, timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ] as const;
    for (const e of given) m.map(e as any);
    const lines = JSON.parse(JSON.stringify([m.metadata(), ...m.drain(), m.closing(T)]));
    expect(read(lines).events).toEqual(given);
  });
  test('a chat the CLI rewrote on a resume in a later minute: each call once with its own result, each thought once', () => {
    // fixtures/gemini-cli/resumed-later.jsonl: the real CLI resumed a chat named an hour earlier and rewrote
    // the history (thought and call parts beside `thoughts` and `toolCalls`, every response in each call's result).
    const { events, warnings } = read(fixtureValues('gemini-cli', 'resumed-later'));
    expect(warnings).toEqual([]);
    const calls = events.filter((e) => e.type === 'tool_call') as { id: string; arguments: { file_path: string } }[];
    expect(calls.map((c) => c.arguments.file_path)).toEqual(['notes.txt', 'missing.txt']);
    const results = events.filter((e) => e.type === 'tool_result') as { id: string; content: string; is_error: boolean }[];
    expect(results.map((r) => r.id)).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => [r.content, r.is_error])).toEqual([
      ['the notes say hi\n', false],
      ['File not found: /home/user/project/missing.txt', true],
    ]);
    expect(events.filter((e) => e.type === 'thinking').map((e) => (e as { text: string }).text)).toEqual(['**Reading the notes** I will read both files.']);
    expect(events.map((e) => e.type)).toEqual(['context', 'user', 'thinking', 'assistant', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant', 'user', 'assistant']);
  });
});
