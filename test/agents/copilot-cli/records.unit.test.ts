// The Copilot CLI mapper (no process): the session.start header, each element as the event the CLI resumes,
// an assistant message holding its calls until the response ends, the envelope of every drained event, and the
// fidelity account (reasoning and error flags kept in the file, never sent back).
import { describe, expect, test } from 'vitest';
import { CopilotEventMapper } from '../../../lib/agents/copilot-cli/records.js';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';

const T = '2026-11-29T10:00:00.000Z';
const S = 'a5a5a5a5-0000-4000-8000-00000000beef';
const PNG = { media_type: 'image/png', data: 'iVBORw0KGgo=' };

function ids(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(n += 1).padStart(12, '0')}`;
}

function mapper(): CopilotEventMapper {
  return new CopilotEventMapper({ sessionId: S, cwd: '/home/user/proj', newId: ids() });
}

/** Map every event, then end and drain everything. */
function mapAll(m: CopilotEventMapper, events: GenericEvent[]): { out: any[]; warnings: string[] } {
  const warnings = events.flatMap((e) => m.map({ timestamp: T, ...e } as GenericEvent));
  m.end();
  return { out: m.drain(true), warnings };
}

describe('CopilotEventMapper', () => {
  test('the header is session.start with every field the CLI requires, the first event of the chain', () => {
    const m = mapper();
    expect(m.header(T)).toEqual({
      type: 'session.start',
      data: { sessionId: S, version: 1, producer: 'asyncai-log', copilotVersion: '1.0.102', startTime: T, context: { cwd: '/home/user/proj' } },
      id: '00000000-0000-4000-8000-000000000001', timestamp: T, parentId: null,
    });
    const [user] = mapAll(m, [{ type: 'user', text: 'hi' } as GenericEvent]).out;
    expect(user).toMatchObject({ type: 'user.message', parentId: '00000000-0000-4000-8000-000000000001', timestamp: T });
  });

  test('a user turn with an image: its text and an inline blob attachment', () => {
    const { out } = mapAll(mapper(), [{ type: 'user', text: 'look', images: [PNG] } as GenericEvent]);
    expect(out.map((e) => e.data)).toEqual([{ content: 'look', attachments: [{ type: 'blob', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] }]);
  });

  test('reasoning, text and calls of one response are one assistant.message; results follow as tool.execution_complete', () => {
    const m = mapper();
    const { out, warnings } = mapAll(m, [
      { type: 'thinking', text: 'pondering' },
      { type: 'assistant', text: 'running', model: 'm1' },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' } },
      { type: 'tool_call', id: 'c2', name: 'Read', arguments: { file_path: 'x' } },
      { type: 'tool_result', id: 'c2', content: 'ENOENT', is_error: true },
      { type: 'tool_result', id: 'c1', content: 'a\nb', is_error: false },
      { type: 'assistant', text: 'done' },
    ] as GenericEvent[]);
    expect(warnings).toEqual([expect.stringContaining('thinking is kept in the session file')]);
    expect(out.map((e) => e.type)).toEqual(['assistant.message', 'tool.execution_complete', 'tool.execution_complete', 'assistant.message']);
    expect(out[0].data).toEqual({
      messageId: expect.any(String), content: 'running', model: 'm1', reasoningText: 'pondering',
      toolRequests: [
        { toolCallId: 'c1', name: 'Bash', arguments: { command: 'ls' }, type: 'function' },
        { toolCallId: 'c2', name: 'Read', arguments: { file_path: 'x' }, type: 'function' },
      ],
    });
    expect(out[1].data).toEqual({ toolCallId: 'c2', success: false, error: { message: 'ENOENT', code: 'failure' } });
    expect(out[2].data).toEqual({ toolCallId: 'c1', success: true, result: { content: 'a\nb' } });
    expect(out[3].data).toMatchObject({ content: 'done' });
    const account = m.fidelity.toJSON();
    expect(account.reasoning?.dropped).toEqual({ 'kept in the file, but copilot sends no reasoning back on resume': 1 });
    expect(account.error_flag?.dropped).toEqual({ 'kept in the file, but copilot sends results without an error flag': 1 });
  });

  test('every event has the envelope: a UUID id, the one before as parentId, a zoned timestamp', () => {
    const m = mapper();
    m.header(T);
    const { out } = mapAll(m, [{ type: 'user', text: 'a' }, { type: 'assistant', text: 'b' }, { type: 'user', text: 'c' }] as GenericEvent[]);
    let parent = '00000000-0000-4000-8000-000000000001';
    for (const event of out) {
      expect(Object.keys(event)).toEqual(['type', 'data', 'id', 'timestamp', 'parentId']);
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(event.parentId).toBe(parent);
      parent = event.id;
    }
  });

  test('an assistant message holding calls waits for the response to end; one without calls is drained at once', () => {
    const m = mapper();
    m.map({ type: 'assistant', text: 'text only', timestamp: T });
    expect(m.pending).toBe(true);
    expect(m.drain().map((e) => e.type)).toEqual(['assistant.message']);
    m.map({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: {}, timestamp: T });
    expect(m.pending).toBe(false);
    expect(m.drain()).toEqual([]);
    m.map({ type: 'tool_result', id: 'c1', content: 'ok', is_error: false, timestamp: T });
    expect(m.drain().map((e) => e.type)).toEqual(['assistant.message', 'tool.execution_complete']);
  });

  test('a second text of one response starts a message of its own (the CLI sends each as one chat message)', () => {
    const { out } = mapAll(mapper(), [{ type: 'assistant', text: 'one' }, { type: 'assistant', text: 'two' }] as GenericEvent[]);
    expect(out.map((e) => e.data.content)).toEqual(['one', 'two']);
  });

  test('a result that answers no call is kept as user text, counted as changed', () => {
    const m = mapper();
    const { out, warnings } = mapAll(m, [{ type: 'tool_result', id: 'nope', content: 'late', is_error: true } as GenericEvent]);
    expect(out[0]).toMatchObject({ type: 'user.message', data: { content: '[Tool result for call nope (error); no matching tool call was recorded]\nlate' } });
    expect(warnings).toEqual(['tool_result "nope" matches no earlier tool_call; kept as user text']);
    expect(m.fidelity.toJSON().tool_result?.changed).toEqual({ 'no matching call: kept as user text': 1 });
  });

  test('a monitor notification is a user message holding the notification text', () => {
    const { out } = mapAll(mapper(), [{ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 't1' } as GenericEvent]);
    expect(out[0].type).toBe('user.message');
    expect(out[0].data.content.startsWith(`${PRE}\n\n`)).toBe(true);
    expect(out[0].data.content).toContain('<event>build ok</event>');
  });

  test('a compaction is session.compaction_complete with its summary; an empty one is not written and counted', () => {
    const m = mapper();
    const { out, warnings } = mapAll(m, [
      { type: 'compaction', summary: 'the summary', pre_tokens: 1200 },
      { type: 'compaction', summary: ' ' },
    ] as GenericEvent[]);
    expect(out).toEqual([expect.objectContaining({ type: 'session.compaction_complete', data: { success: true, summaryContent: 'the summary', preCompactionTokens: 1200 } })]);
    expect(warnings).toHaveLength(1);
    expect(m.fidelity.toJSON().compaction?.dropped).toEqual({ 'an empty summary: not written, the history before it is sent whole': 1 });
  });

  test('a call with no result by the end is counted: the CLI sends it with its own "interrupted" result', () => {
    const m = mapper();
    mapAll(m, [{ type: 'tool_call', id: 'c1', name: 'Bash', arguments: {} } as GenericEvent]);
    expect(m.fidelity.toJSON().tool_call?.changed).toEqual({ 'no result came: copilot sends it with its own "interrupted" result': 1 });
  });

  test('a tool result\'s images are counted as dropped: the CLI sends its text only', () => {
    const m = mapper();
    mapAll(m, [
      { type: 'tool_call', id: 'c1', name: 'view', arguments: {} },
      { type: 'tool_result', id: 'c1', content: [{ type: 'text', text: 'shot' }, { type: 'image', ...PNG }], is_error: false },
    ] as GenericEvent[]);
    expect(m.fidelity.toJSON().image?.dropped).toEqual({ "copilot sends a tool result's text only": 1 });
  });
});
