// The `qwen-chat` input format: detected from the first record (and no Claude Code record taken for one),
// the captured chats against their goldens, the chain from the last conversation record, compactions, and
// what the writer's mapper wrote reads back.
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { QwenRecordMapper } from '../../../lib/agents/qwen-code/records.js';
import type { GenericEvent } from '../../../lib/events.js';
import { fixtureValues, goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';

const T = '2026-11-29T10:00:00.000Z';
const S = 'a5a5a5a5-0000-4000-8000-00000000beef';
const read = (values: unknown[]) => mapValues('qwen-chat', values);
const rec = (uuid: string, parentUuid: string | null, type: string, rest: object) => ({ uuid, parentUuid, sessionId: S, timestamp: T, type, cwd: '/p', ...rest });

describe('qwen-chat', () => {
  test('is detected from the first record of a captured chat, a system record too', () => {
    expect(detectInputFormat(fixtureValues('qwen-code', 'session')[0])?.name).toBe('qwen-chat');
    expect(detectInputFormat(rec('u', null, 'system', { subtype: 'at_command', systemPayload: {} }))?.name).toBe('qwen-chat');
  });

  test('a Claude Code transcript record is not taken for one, nor one of these for Claude\'s', () => {
    const claude = { type: 'user', parentUuid: null, sessionId: 's', uuid: 'u', timestamp: T, message: { role: 'user', content: 'hi' } };
    expect(detectInputFormat(claude)?.name).toBe('claude-transcript');
    expect(detectInputFormat(rec('u', null, 'user', { message: { role: 'user', parts: [{ text: 'hi' }] } }))?.name).toBe('qwen-chat');
  });

  test.each(goldenCases('qwen-code').filter(([name]) => name !== 'stream-json'))('%s reads as its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('qwen-chat', file)).toEqual(golden);
  });

  test('what qwen -p --output-format stream-json prints is Claude Code\'s stream-json: read as claude-stream-json, calls, results and errors whole', () => {
    expect(detectInputFormat(fixtureValues('qwen-code', 'stream-json')[0])?.name).toBe('claude-stream-json');
    const [[, file, golden]] = goldenCases('qwen-code', 'stream-json');
    expect(mapFixtureFile('claude-stream-json', file!)).toEqual(golden);
    expect((golden as any).events.map((e: any) => e.type)).toEqual(['thinking', 'assistant', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant']);
  });

  test('the history is the chain back from the last conversation record: another branch is left out', () => {
    const { events } = read([
      rec('a', null, 'user', { message: { role: 'user', parts: [{ text: 'one' }] } }),
      rec('b', 'a', 'assistant', { message: { role: 'model', parts: [{ text: 'abandoned' }] } }),
      rec('c', 'a', 'assistant', { message: { role: 'model', parts: [{ text: 'kept' }] } }),
      rec('d', 'c', 'system', { subtype: 'ui_telemetry', systemPayload: {} }),
    ]);
    expect(events.map((e) => (e as any).text)).toEqual(['one', 'kept']);
  });

  test('a compression checkpoint replaces what came before it with its summary', () => {
    const { events } = read([
      rec('a', null, 'user', { message: { role: 'user', parts: [{ text: 'old' }] } }),
      rec('b', 'a', 'system', { subtype: 'chat_compression', systemPayload: { compressedHistory: [{ role: 'user', parts: [{ text: 'summary' }] }] } }),
      rec('c', 'b', 'user', { message: { role: 'user', parts: [{ text: 'new' }] } }),
    ]);
    expect(events).toEqual([{ type: 'compaction', summary: 'summary', timestamp: T }, { type: 'user', text: 'new', timestamp: T }]);
  });

  test('a missing parent is warned about and the history starts after it', () => {
    const { events, warnings } = read([rec('c', 'gone', 'user', { message: { role: 'user', parts: [{ text: 'x' }] } })]);
    expect(events).toHaveLength(1);
    expect(warnings.join('\n')).toMatch(/"gone" named as a parent is not in the chat/);
  });

  test('what the writer mapped reads back as the same events', () => {
    let n = 0;
    const m = new QwenRecordMapper({ sessionId: S, cwd: '/p', newId: () => `r${n += 1}` });
    const input: GenericEvent[] = [
      { type: 'user', text: 'go', timestamp: T },
      { type: 'thinking', text: 'plan', timestamp: T },
      { type: 'assistant', text: 'running', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'bad', is_error: true, timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ];
    for (const e of input) m.map(e);
    m.end();
    const { events } = read(JSON.parse(JSON.stringify(m.drain(true))));
    expect(events).toEqual(input);
  });
});
