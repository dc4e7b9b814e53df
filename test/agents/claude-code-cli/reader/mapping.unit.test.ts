// How Claude Code records become generic events: turns, model and usage once per response, thinking,
// tool calls and results, images, Monitor notifications, context (--events), state and unknown records.
import { describe, expect, test } from 'vitest';
import { parseMonitorNotification } from '../../../../lib/monitor/task-notification.js';
import {
  assistant, attachment, MODEL, readAll, shape, system, text, toolResult, toolUse, user, writeTranscript,
} from './support.js';

const PNG = 'iVBORw0KGgo=';
const image = (data = PNG) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });

describe('turns', () => {
  test('user text, assistant text and timestamps are carried', async () => {
    const records = [user('u1', null, 'hi'), assistant('a1', 'u1', [text('hello')])];
    const { events } = await readAll(writeTranscript(records));
    expect(events).toEqual([
      { type: 'user', text: 'hi', timestamp: records[0]!.timestamp },
      { type: 'assistant', text: 'hello', model: MODEL, usage: { input_tokens: 10, output_tokens: 5 }, timestamp: records[1]!.timestamp },
    ]);
  });

  test('model and usage are given once per response, on its first assistant or tool_call event', async () => {
    const usage = { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 100 };
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'go'),
      assistant('a1', 'u1', [text('first')], { id: 'm1', usage }),
      assistant('a2', 'a1', [toolUse('c1')], { id: 'm1', usage }),
      user('r1', 'a2', [toolResult('c1')]),
      assistant('a3', 'r1', [toolUse('c2')], { id: 'm2', usage }),
    ]));
    const fields = events.map((e) => [e.type, 'model' in e ? e.model : undefined, 'usage' in e ? e.usage : undefined]);
    expect(fields).toEqual([
      ['user', undefined, undefined],
      ['assistant', MODEL, usage],
      ['tool_call', undefined, undefined],
      ['tool_result', undefined, undefined],
      ['tool_call', MODEL, usage],
    ]);
  });

  test('a thinking block carries its signature and, first in its response, the model', async () => {
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'go'),
      assistant('t1', 'u1', [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }], { id: 'm1' }),
      assistant('a1', 't1', [text('answer')], { id: 'm1' }),
    ]));
    expect(events[1]).toEqual({ type: 'thinking', text: 'hmm', signature: 'sig', model: MODEL, timestamp: expect.any(String) });
    expect(events[2]).toEqual({ type: 'assistant', text: 'answer', usage: { input_tokens: 10, output_tokens: 5 }, timestamp: expect.any(String) });
  });

  test('an unsigned thinking block is read without a signature', async () => {
    const { events } = await readAll(writeTranscript([assistant('t1', null, [{ type: 'thinking', thinking: 'hmm', signature: '' }])]));
    expect(events[0]).not.toHaveProperty('signature');
  });

  test('the placeholder usage a writer puts on records without usage is not reported', async () => {
    const { events } = await readAll(writeTranscript([assistant('a1', null, [text('x')], { usage: { input_tokens: 0, output_tokens: 0 } })]));
    expect(events[0]).not.toHaveProperty('usage');
  });

  test('whitespace-only assistant text is skipped and the response\'s model and usage go to the next block', async () => {
    const { events } = await readAll(writeTranscript([
      assistant('a1', null, [text('\n\n')], { id: 'm1' }), assistant('a2', 'a1', [toolUse('c1')], { id: 'm1' }),
    ]));
    expect(events).toEqual([expect.objectContaining({ type: 'tool_call', model: MODEL, usage: { input_tokens: 10, output_tokens: 5 } })]);
  });

  test('tool calls keep id, name and input as arguments', async () => {
    const { events } = await readAll(writeTranscript([assistant('a1', null, [toolUse('c1', 'Bash', { command: 'ls -la' })])]));
    expect(events[0]).toMatchObject({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls -la' } });
  });

  test('tool results keep string content and is_error', async () => {
    const { events } = await readAll(writeTranscript([user('r1', null, [toolResult('c1', 'Exit code 3', true)])]));
    expect(events).toEqual([{ type: 'tool_result', id: 'c1', content: 'Exit code 3', is_error: true, timestamp: expect.any(String) }]);
  });

  test('a tool result without is_error is not an error', async () => {
    const { events } = await readAll(writeTranscript([user('r1', null, [{ type: 'tool_result', tool_use_id: 'c1', content: 'x' }])]));
    expect(events[0]).toMatchObject({ is_error: false });
  });

  test('tool result parts keep text and images (flattened)', async () => {
    const { events } = await readAll(writeTranscript([user('r1', null, [toolResult('c1', [text('see'), image()])])]));
    expect(events[0]).toMatchObject({ content: [{ type: 'text', text: 'see' }, { type: 'image', media_type: 'image/png', data: PNG }] });
  });

  test('user images become the user event\'s images', async () => {
    const { events } = await readAll(writeTranscript([user('u1', null, [text('look'), image()])]));
    expect(events).toEqual([{ type: 'user', text: 'look', images: [{ media_type: 'image/png', data: PNG }], timestamp: expect.any(String) }]);
  });

  test('a user record holding tool results and text yields the results, then the text', async () => {
    const { events } = await readAll(writeTranscript([user('r1', null, [toolResult('c1'), text('[Request interrupted by user]')])]));
    expect(shape(events)).toEqual([['tool_result', 'c1'], ['user', '[Request interrupted by user]']]);
  });

  test('a content part with no generic form is skipped with one warning per part type', async () => {
    const { events, warnings } = await readAll(writeTranscript([
      assistant('a1', null, [{ type: 'redacted_thinking', data: 'x' }, text('hi')], { id: 'm' }),
      assistant('a2', 'a1', [{ type: 'redacted_thinking', data: 'y' }], { id: 'm' }),
    ]));
    expect(shape(events)).toEqual([['assistant', 'hi']]);
    expect(warnings.map((w) => w.message)).toEqual(['assistant content of type "redacted_thinking" has no generic event; skipped (reported once)']);
  });
});

describe('context and state records', () => {
  const withContext = () => [
    user('u1', null, 'hi'),
    attachment('x1', 'u1', { type: 'date', date: '2026-01-02' }, { rendered: [{ content: "Today's date is 2026-01-02." }] }),
    system('s1', 'x1', 'turn_duration', { content: 'took 2s' }),
    user('m1', 's1', '<local-command-caveat>caveat</local-command-caveat>', { isMeta: true }),
    assistant('a1', 'm1', [text('hello')]),
    assistant('e1', 'a1', [text('API Error: 529')], { model: '<synthetic>', extra: { isApiErrorMessage: true } }),
    { type: 'queue-operation', operation: 'enqueue', sessionId: 's' }, { type: 'file-history-snapshot', messageId: 'x' },
    { type: 'mode', mode: 'normal' }, { type: 'cost-state' }, { type: 'bridge-session' }, { type: 'atis-latch' },
  ];

  test('without --events only turns are read, and state records are skipped silently', async () => {
    const { events, warnings } = await readAll(writeTranscript(withContext()));
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'hello']]);
    expect(warnings).toEqual([]);
  });

  test('with --events system, attachment, meta and synthetic records are context events', async () => {
    const { events } = await readAll(writeTranscript(withContext()), { includeEvents: true });
    expect(events.filter((e) => e.type === 'context')).toEqual([
      { type: 'context', kind: 'attachment', subtype: 'date', text: "Today's date is 2026-01-02.", timestamp: expect.any(String) },
      { type: 'context', kind: 'system', subtype: 'turn_duration', text: 'took 2s', timestamp: expect.any(String) },
      { type: 'context', kind: 'meta', text: '<local-command-caveat>caveat</local-command-caveat>', timestamp: expect.any(String) },
      { type: 'context', kind: 'synthetic', subtype: 'api_error', text: 'API Error: 529', timestamp: expect.any(String) },
    ]);
  });

  test('context written after the leaf belongs to the branch with --events', async () => {
    const { events } = await readAll(writeTranscript([user('u1', null, 'hi'), system('s1', 'u1', 'turn_duration')]), { includeEvents: true });
    expect(shape(events)).toEqual([['user', 'hi'], ['context', 'system/turn_duration']]);
  });

  test('an unknown record type is skipped with one warning per type', async () => {
    const { events, warnings } = await readAll(writeTranscript([
      { type: 'hologram', uuid: 'h1', parentUuid: null }, user('u1', 'h1', 'hi'), { type: 'hologram' }, { type: 'teleport' },
    ]));
    expect(shape(events)).toEqual([['user', 'hi']]);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [1, 'unknown record type "hologram" skipped (reported once per type)'],
      [4, 'unknown record type "teleport" skipped (reported once per type)'],
    ]);
  });

  test('an unknown record type in the chain does not break the branch', async () => {
    const { events } = await readAll(writeTranscript([user('u1', null, 'a'), { type: 'progress', uuid: 'p', parentUuid: 'u1' }, user('u2', 'p', 'b')]));
    expect(shape(events)).toEqual([['user', 'a'], ['user', 'b']]);
  });
});

describe('Monitor notifications', () => {
  const event = '<task-notification>\n<task-id>b1x2y3z4w</task-id>\n<summary>Monitor event: "ticks &amp; &lt;tocks&gt;"</summary>\n<event>tick &lt;1&gt;</event>\n</task-notification>';
  const end = (summary: string, status = 'completed') =>
    `<task-notification>\n<task-id>b1x2y3z4w</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<output-file>/x/y.output</output-file>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>`;

  test('a notification between turns (a user record) is a monitor event', async () => {
    const { events } = await readAll(writeTranscript([user('n1', null, event, { origin: { kind: 'task-notification' } })]));
    expect(events).toEqual([{ type: 'monitor_event', event: 'tick <1>', description: 'ticks & <tocks>', task_id: 'b1x2y3z4w', timestamp: expect.any(String) }]);
  });

  test('a notification absorbed mid-turn (a queued_command attachment) is a monitor event', async () => {
    const { events } = await readAll(writeTranscript([
      attachment('q1', null, { type: 'queued_command', prompt: event, commandMode: 'task-notification' }),
    ]));
    expect(shape(events)).toEqual([['monitor_event', 'tick <1>']]);
  });

  test('a watch notice\'s note after the event is kept', () => {
    const xml = event.replace('</event>\n', '</event>\nreply exactly NO_REPLY\n');
    expect(parseMonitorNotification(xml)).toMatchObject({ kind: 'event', note: 'reply exactly NO_REPLY' });
  });

  test('the terminal notifications give the exit code, or stopped', () => {
    expect(parseMonitorNotification(end('Monitor "ticks" stream ended'))).toEqual({ kind: 'end', taskId: 'b1x2y3z4w', description: 'ticks', exitCode: 0 });
    expect(parseMonitorNotification(end('Monitor "ticks" script failed (exit 3)', 'failed'))).toMatchObject({ exitCode: 3 });
    expect(parseMonitorNotification(end('Monitor "ticks" ended without producing output (exit 0)'))).toMatchObject({ exitCode: 0 });
    expect(parseMonitorNotification(end('Monitor "ticks" stopped', 'killed'))).toMatchObject({ exitCode: -1, stopped: true });
  });

  test('a task notification that is not a Monitor\'s stays a user turn', async () => {
    const agent = end('Agent "Count files" finished');
    const { events } = await readAll(writeTranscript([user('n1', null, agent)]));
    expect(shape(events)).toEqual([['user', agent]]);
  });
});
