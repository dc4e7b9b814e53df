// The Droid session mapper with literal events: the header (title, owner, cwd), messages with ids, parents and
// timestamps, how a response's thinking, text and calls share one assistant message (held while it has calls),
// results in one user message, notifications, compactions and the fidelity account; and the folder names.
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { DroidRecordMapper } from '../../../lib/agents/droid/records.js';
import { lastMessageId } from '../../../lib/agents/droid/harness.js';
import { droidRoot, projectDirName, sessionsDir } from '../../../lib/agents/droid/paths.js';

const T = '2026-11-29T10:00:00.000Z';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function mapper(options: { provenance?: Record<string, unknown>; headerWritten?: boolean } = {}): DroidRecordMapper {
  let n = 0;
  return new DroidRecordMapper({ sessionId: 'S', cwd: '/p', newId: () => `m${n += 1}`, ...options });
}

function map(m: DroidRecordMapper, events: Partial<GenericEvent>[]): string[] {
  return events.flatMap((e) => m.map({ timestamp: T, ...e } as GenericEvent));
}

const drained = (m: DroidRecordMapper, all = false): any[] => JSON.parse(JSON.stringify(m.drain(all)));

describe('lines', () => {
  test('the header comes first, with the id, the first prompt as title, an owner and the project; messages chain by parentId', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: '  fix\n the   build ' }, { type: 'assistant', text: 'done' }]);
    const out = drained(m);
    expect(out[0]).toEqual({ type: 'session_start', id: 'S', title: 'fix the build', owner: '', version: 2, cwd: '/p' });
    expect(out.slice(1)).toEqual([
      { type: 'message', id: 'm1', timestamp: T, message: { role: 'user', content: [{ type: 'text', text: '  fix\n the   build ' }] } },
      { type: 'message', id: 'm2', parentId: 'm1', timestamp: T, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
    ]);
  });

  test('nothing is drained before there is a message; a reopened session writes no second header', () => {
    const m = mapper();
    expect(m.drain()).toEqual([]);
    const again = mapper({ headerWritten: true });
    map(again, [{ type: 'user', text: 'a' }]);
    expect(drained(again).map((l) => l.type)).toEqual(['message']);
  });

  test('the provenance of a converted session is on its header', () => {
    const m = mapper({ provenance: { asyncaiLog: { convertedFrom: 'x', source: '/a' } } });
    map(m, [{ type: 'user', text: 'a' }]);
    expect(drained(m)[0].asyncaiLog).toEqual({ convertedFrom: 'x', source: '/a' });
  });

  test('a later drain chains onto the last message, or onto the one another process appended', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'a' }]);
    drained(m);
    m.chainOnto('foreign');
    map(m, [{ type: 'user', text: 'b' }]);
    expect(drained(m)[0].parentId).toBe('foreign');
  });

  test('a response\'s thinking, text and calls are one assistant message, held until its results; parallel results share a user message', () => {
    const m = mapper();
    map(m, [
      { type: 'user', text: 'go' },
      { type: 'thinking', text: 'hmm' },
      { type: 'assistant', text: 'running' },
      { type: 'tool_call', id: 'c1', name: 'Execute', arguments: { command: 'ls' } },
    ]);
    expect(drained(m).map((l) => l.message?.role)).toEqual([undefined, 'user']);
    map(m, [{ type: 'tool_call', id: 'c2', name: 'Read', arguments: { file_path: 'x' } }]);
    expect(m.pending).toBe(false);
    map(m, [
      { type: 'tool_result', id: 'c1', content: 'a\nb', is_error: false },
      { type: 'tool_result', id: 'c2', content: [{ type: 'text', text: 'nope' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: true },
    ]);
    const out = drained(m);
    expect(out.map((l) => l.message.content)).toEqual([
      [{ type: 'thinking', signature: 'reasoning_content', signatureProvider: 'generic-chat-completion-api', thinking: 'hmm' }, { type: 'text', text: 'running' },
        { type: 'tool_use', id: 'c1', name: 'Execute', input: { command: 'ls' } }, { type: 'tool_use', id: 'c2', name: 'Read', input: { file_path: 'x' } }],
      [{ type: 'tool_result', tool_use_id: 'c1', is_error: false, content: 'a\nb' },
        { type: 'tool_result', tool_use_id: 'c2', is_error: true, content: [{ type: 'text', text: 'nope' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }],
    ]);
    const account = m.fidelity.toJSON();
    expect(account.error_flag?.dropped).toEqual({ 'kept in the session, but droid sends results without an error flag': 1 });
    expect(account.reasoning?.dropped).toEqual({ 'kept in the session, but droid sends no reasoning back': 1 });
  });

  test('a user turn\'s images are image blocks after its text; an empty turn is not written', () => {
    const m = mapper();
    expect(map(m, [{ type: 'user', text: ' ' }])).toEqual(['user event with empty text not written (the CLI does not resume empty turns)']);
    map(m, [{ type: 'user', text: 'see', images: [{ media_type: 'image/png', data: PNG }] }]);
    expect(drained(m)[1].message.content).toEqual([{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);
  });

  test('a result with no call is kept as user text, and counted', () => {
    const m = mapper();
    const warnings = map(m, [{ type: 'tool_result', id: 'zz', content: 'out', is_error: true }]);
    expect(warnings[0]).toMatch(/matches no earlier tool_call/);
    expect(drained(m)[1].message.content[0].text).toBe('[Tool result for call zz (error); no matching tool call was recorded]\nout');
  });

  test('a call left without a result is written at the end and counted', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'go' }, { type: 'tool_call', id: 'c1', name: 'Execute', arguments: {} }]);
    m.end();
    expect(drained(m, true).at(-1).message.content[0].type).toBe('tool_use');
    expect(m.fidelity.toJSON().tool_call?.dropped).toBeDefined();
  });

  test('a monitor event is a user message holding the notification text', () => {
    const m = mapper();
    map(m, [{ type: 'monitor_event', description: 'npm run watch', event: 'build ok' } as Partial<GenericEvent>]);
    const text = drained(m)[1].message.content[0].text as string;
    expect(text.startsWith(PRE)).toBe(true);
    expect(text).toContain('<event>build ok</event>');
  });

  test('a compaction is droid\'s compaction_state, anchored on the last message before it', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'a' }, { type: 'assistant', text: 'b' }, { type: 'compaction', summary: 'so far' }, { type: 'user', text: 'c' }]);
    const out = drained(m);
    expect(out[3]).toEqual({ type: 'compaction_state', id: 'm3', timestamp: T, summaryText: 'so far', summaryTokens: 2, summaryKind: 'llm_summary',
      anchorMessage: { id: 'm2', index: 1 }, removedCount: 2 });
    expect(out[4].parentId).toBe('m2');
  });

  test('a subagent\'s events are not written, said once', () => {
    const m = mapper();
    expect(map(m, [{ type: 'user', text: 'a', agent_id: 'x' }, { type: 'user', text: 'b', agent_id: 'x' }])).toHaveLength(1);
    expect(m.pending).toBe(false);
  });
});

describe('paths', () => {
  test('the folder is the project directory with each "/" as "-", nothing else replaced', () => {
    expect(projectDirName('/a/My_Proj.v2 x@y')).toBe('-a-My_Proj.v2 x@y');
    expect(projectDirName('/a\0b\nc')).toBe('-a-b\nc');
    expect(sessionsDir('/r', '/home/u/p')).toBe('/r/sessions/-home-u-p');
  });

  test('the root is $FACTORY_HOME_OVERRIDE/.factory, else ~/.factory', () => {
    expect(droidRoot({}, '/home/u')).toBe('/home/u/.factory');
    expect(droidRoot({ FACTORY_HOME_OVERRIDE: '/o' }, '/home/u')).toBe('/o/.factory');
  });

  test('the last whole message line of appended bytes is what later messages chain onto', () => {
    const text = '{"type":"message","id":"a"}\n{"type":"agent_turn_outcome","turnId":"t"}\n{"type":"message","id":"b"}\n{"type":"message","id":"cut';
    expect(lastMessageId(text)).toBe('b');
    expect(lastMessageId('{"type":"session_start","id":"s"}\n')).toBeUndefined();
  });
});
