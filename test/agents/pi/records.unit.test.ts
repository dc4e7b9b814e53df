// The pi writer's mapper with literal events: the header, the parentId chain, assistant messages held until
// their results (text and toolCall blocks in one), usage with totalTokens on every assistant message, images,
// notifications as custom messages, compactions that keep nothing before them, thinking left out and counted;
// and the paths (project folder, file name, UUIDv7).
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { lastEntryId } from '../../../lib/agents/pi/harness.js';
import { projectFolder, sessionFileName, uuidV7 } from '../../../lib/agents/pi/paths.js';
import { PiRecordMapper, toPiUsage } from '../../../lib/agents/pi/records.js';

const T = '2026-11-29T10:00:00.000Z';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function mapper(model?: string): PiRecordMapper {
  return new PiRecordMapper({ sessionId: '01a242c7-a9cf-7079-918f-69250b916c75', cwd: '/home/user/proj', startedAt: T, ...(model ? { model } : {}) });
}

/** Map one event: the entries it queued, and its warnings. */
function step(m: PiRecordMapper, event: GenericEvent): { entries: any[]; warnings: string[] } {
  const warnings = m.map(event);
  return { entries: m.drain(), warnings };
}

/** Every entry the events give, the held message closed at the end. */
function entries(events: GenericEvent[], m = mapper()): any[] {
  const out: any[] = [];
  for (const event of events) m.map(event);
  m.closeOpen();
  out.push(...m.drain());
  return out;
}

describe('PiRecordMapper', () => {
  test('the header is version 3 with the session id and cwd, and has no parentId', () => {
    expect(mapper().header()).toEqual({ type: 'session', version: 3, id: '01a242c7-a9cf-7079-918f-69250b916c75', timestamp: T, cwd: '/home/user/proj' });
  });

  test('entries chain by parentId from null, with 8 hex ids', () => {
    const out = entries([{ type: 'user', text: 'one', timestamp: T }, { type: 'assistant', text: 'two', timestamp: T }, { type: 'user', text: 'three', timestamp: T }]);
    expect(out.map((e) => e.parentId)).toEqual([null, out[0].id, out[1].id]);
    for (const e of out) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
  });

  test('text and tool calls of one response are one assistant message, written when the first result comes', () => {
    const m = mapper();
    expect(step(m, { type: 'assistant', text: 'looking', usage: { input_tokens: 10, output_tokens: 2 }, timestamp: T }).entries).toEqual([]);
    expect(step(m, { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, usage: { output_tokens: 3 }, timestamp: T }).entries).toEqual([]);
    const [assistant, result] = step(m, { type: 'tool_result', id: 'c1', content: 'a\nb', is_error: true, timestamp: T }).entries as any[];
    expect(assistant.message).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'looking' }, { type: 'toolCall', id: 'c1', name: 'Bash', arguments: { command: 'ls' } }],
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'toolUse',
      timestamp: Date.parse(T),
    });
    expect(result.message).toEqual({ role: 'toolResult', toolCallId: 'c1', toolName: 'Bash', content: [{ type: 'text', text: 'a\nb' }], isError: true, timestamp: Date.parse(T) });
    expect(result.parentId).toBe(assistant.id);
    // Kept in the file, but not sent: the chat request has no error flag.
    expect(m.fidelity.toJSON().error_flag).toEqual({ read: 1, written: 0, dropped: { 'pi sends results without an error flag': 1 } });
  });

  test('every assistant message has usage with totalTokens, zeros when the events had none', () => {
    const [, assistant] = entries([{ type: 'user', text: 'hi', timestamp: T }, { type: 'assistant', text: 'hello', timestamp: T }]);
    expect(assistant.message.usage.totalTokens).toBe(0);
  });

  test('usage: the Messages API and OpenAI shapes both become pi\'s input without the cache reads', () => {
    expect(toPiUsage({ input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7, output_tokens: 3 }))
      .toMatchObject({ input: 5, cacheRead: 100, cacheWrite: 7, output: 3, totalTokens: 115 });
    expect(toPiUsage({ input_tokens: 105, cached_input_tokens: 100, output_tokens: 3 })).toMatchObject({ input: 5, cacheRead: 100, output: 3, totalTokens: 108 });
  });

  test('the model: the event\'s, else the last one named (thinking too), else the session\'s; a new model starts a new message', () => {
    const out = entries([
      { type: 'assistant', text: 'z', timestamp: T },
      { type: 'user', text: 'u', timestamp: T },
      { type: 'thinking', text: 't', model: 'm1', timestamp: T },
      { type: 'assistant', text: 'a', timestamp: T },
      { type: 'assistant', text: 'b', model: 'm2', timestamp: T },
      { type: 'user', text: 'u', timestamp: T },
      { type: 'assistant', text: 'c', timestamp: T },
    ], mapper('fallback'));
    expect(out.map((e) => [e.message.role, e.message.model])).toEqual([
      ['assistant', 'fallback'], ['user', undefined], ['assistant', 'm1'], ['assistant', 'm2'], ['user', undefined], ['assistant', 'm2'],
    ]);
  });

  test('a user turn keeps its images as pi\'s image blocks', () => {
    const [user] = entries([{ type: 'user', text: 'see', images: [{ media_type: 'image/png', data: PNG }], timestamp: T }]);
    expect(user.message.content).toEqual([{ type: 'text', text: 'see' }, { type: 'image', data: PNG, mimeType: 'image/png' }]);
  });

  test('a result image stays in the toolResult content', () => {
    const out = entries([
      { type: 'tool_call', id: 'c', name: 'read', arguments: {}, timestamp: T },
      { type: 'tool_result', id: 'c', content: [{ type: 'text', text: 'img' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: false, timestamp: T },
    ]);
    expect(out[1].message.content).toEqual([{ type: 'text', text: 'img' }, { type: 'image', data: PNG, mimeType: 'image/png' }]);
  });

  test('a call from a pi session is written as pi recorded it (native)', () => {
    const [assistant] = entries([{ type: 'tool_call', id: 'c', name: 'Bash', arguments: { command: 'ls' }, native: { format: 'pi', name: 'bash', arguments: { command: 'ls' } }, timestamp: T }]);
    expect(assistant.message.content[0]).toEqual({ type: 'toolCall', id: 'c', name: 'bash', arguments: { command: 'ls' } });
  });

  test('a result that answers no call becomes user text, counted as changed', () => {
    const m = mapper();
    const { entries: out, warnings } = step(m, { type: 'tool_result', id: 'nope', content: 'x', is_error: true, timestamp: T });
    expect((out[0] as any).message.role).toBe('user');
    expect((out[0] as any).message.content[0].text).toContain('no matching tool call');
    expect(warnings).toHaveLength(1);
    expect(m.fidelity.toJSON().tool_result?.changed).toEqual({ 'no matching call: kept as user text': 1 });
  });

  test('thinking is left out, said once, and counted as dropped', () => {
    const m = mapper();
    expect(step(m, { type: 'thinking', text: 'hm', timestamp: T }).warnings).toHaveLength(1);
    expect(step(m, { type: 'thinking', text: 'hm', timestamp: T })).toEqual({ entries: [], warnings: [] });
    expect(m.fidelity.toJSON().reasoning).toEqual({ read: 2, written: 0, dropped: { "pi sends another model's thinking as said text": 2 } });
  });

  test('a monitor event is a custom message holding the shared notification text', () => {
    const [entry] = entries([{ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 't1', timestamp: T }]);
    expect(entry).toMatchObject({ type: 'custom_message', customType: 'task-notification', display: true });
    expect(entry.content[0].text.startsWith(`${PRE}\n\n<task-notification>`)).toBe(true);
    expect(entry.content[0].text).toContain('<event>build ok</event>');
  });

  test('a compaction keeps nothing before it: its firstKeptEntryId is its own id', () => {
    const out = entries([{ type: 'user', text: 'old', timestamp: T }, { type: 'compaction', summary: 'we talked', pre_tokens: 900, timestamp: T }]);
    expect(out[1]).toMatchObject({ type: 'compaction', parentId: out[0].id, summary: 'we talked', tokensBefore: 900 });
    expect(out[1].firstKeptEntryId).toBe(out[1].id);
  });

  test('the first queued entry chains onto a given id (a resuming pi\'s last entry), the next ones onto it', () => {
    const m = mapper();
    m.map({ type: 'user', text: 'a', timestamp: T });
    m.map({ type: 'user', text: 'b', timestamp: T });
    m.chainQueueOnto('f0f0f0f0');
    const [a, b] = m.drain();
    expect([a!.parentId, b!.parentId]).toEqual(['f0f0f0f0', a!.id]);
  });

  test('entries after chainOnto chain onto the given id (a reopened file\'s last entry)', () => {
    const m = mapper();
    step(m, { type: 'user', text: 'a', timestamp: T });
    m.chainOnto('f0f0f0f0');
    expect((step(m, { type: 'user', text: 'b', timestamp: T }).entries[0] as any).parentId).toBe('f0f0f0f0');
  });

  test('subagent events and context are not written, and counted', () => {
    const m = mapper();
    expect(step(m, { type: 'user', text: 'sub', agent_id: 'a1', timestamp: T }).entries).toEqual([]);
    expect(step(m, { type: 'context', kind: 'system', text: 's', timestamp: T }).entries).toEqual([]);
    expect(m.fidelity.toJSON().user_text?.dropped).toEqual({ 'belongs to a subagent session': 1 });
  });
});

describe('pi paths', () => {
  test('the project folder is the cwd with / \\ : as -, between -- and --', () => {
    expect(projectFolder('/home/user/proj')).toBe('--home-user-proj--');
    expect(projectFolder('/a/My_Proj.v2')).toBe('--a-My_Proj.v2--');
    expect(projectFolder('C:\\work\\x')).toBe('--C--work-x--');
  });

  test('a cwd pi could name no folder for still gets one that fits, without NUL', () => {
    for (const cwd of ['/a\0b', `/${'é'.repeat(300)}`, `/${'x'.repeat(10_000)}`]) {
      const name = projectFolder(cwd);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(name.includes('\0') || name.includes('/')).toBe(false);
    }
  });

  test('the file name is the ISO start with : and . as -, then the id', () => {
    expect(sessionFileName(new Date('2026-12-03T14:53:59.678Z'), 'id')).toBe('2026-12-03T14-53-59-678Z_id.jsonl');
  });

  test('session ids are UUIDv7 carrying the start time', () => {
    const id = uuidV7(new Date('2026-12-03T14:53:59.678Z'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse('2026-12-03T14:53:59.678Z'));
  });

  test('lastEntryId takes the last whole entry line, not the header or a torn tail', () => {
    expect(lastEntryId('{"type":"session","id":"s"}\n{"type":"message","id":"a1","parentId":null}\n{"type":"mess')).toBe('a1');
    expect(lastEntryId('{"type":"session","id":"s"}\n')).toBeUndefined();
  });
});
