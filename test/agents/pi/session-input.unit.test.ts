// The `pi-session` input format with literal lines and the captured fixtures: detection from the header, the
// branch that ends at the last entry, compactions, pi's tools as the generic ones (native kept), errors, images,
// thinking unsigned, failed responses left out, notifications back as monitor events; the writer's own output read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import type { GenericEvent } from '../../../lib/events.js';
import { PiRecordMapper } from '../../../lib/agents/pi/records.js';
import { piSession } from '../../../lib/agents/pi/session-input.js';
import { goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';
import { FIXTURES } from '../../support/run.js';

const T = '2026-11-29T10:00:00.000Z';
const HEADER = { type: 'session', version: 3, id: 'feedface-0000-4000-8000-000000000001', timestamp: T, cwd: '/home/user/proj' };
const USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
const read = (values: unknown[]) => mapValues('pi-session', values);
const msg = (id: string, parentId: string | null, message: object) => ({ type: 'message', id, parentId, timestamp: T, message });
const texts = (events: any[]) => events.map((e) => e.text ?? e.type);

describe('pi-session', () => {
  test.each(goldenCases('pi'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('pi-session', file)).toEqual(golden);
  });

  test('is detected from the session header, and the other formats\' first lines are not', () => {
    expect(detectInputFormat(HEADER)?.name).toBe('pi-session');
    expect(detectInputFormat({ type: 'session_meta', payload: {} })?.name).not.toBe('pi-session');
    expect(detectInputFormat({ type: 'session' })?.name).not.toBe('pi-session');
  });

  test('the reference\'s hand-written session: user text as a string, a bash call and its result, the answer', () => {
    const { events } = read(readFileSync(join(FIXTURES, 'pi', 'hand-minimal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
    expect(events.map((e: any) => e.type)).toEqual(['user', 'assistant', 'tool_call', 'tool_result', 'assistant']);
    expect(events[2]).toMatchObject({ name: 'Bash', arguments: { command: 'echo MARK_HARG' }, native: { format: 'pi', name: 'bash', arguments: { command: 'echo MARK_HARG' } } });
  });

  test('only the branch ending at the last entry is read', () => {
    const { events } = read([
      HEADER,
      msg('a', null, { role: 'user', content: 'root' }),
      msg('b', 'a', { role: 'assistant', content: [{ type: 'text', text: 'abandoned' }], usage: USAGE }),
      msg('c', 'a', { role: 'assistant', content: [{ type: 'text', text: 'kept' }], usage: USAGE }),
    ]);
    expect(texts(events)).toEqual(['root', 'kept']);
  });

  test('a compaction: what is before its first kept entry becomes its summary', () => {
    const { events } = read([
      HEADER,
      msg('a', null, { role: 'user', content: 'gone' }),
      msg('b', 'a', { role: 'user', content: 'kept' }),
      { type: 'compaction', id: 'c', parentId: 'b', timestamp: T, summary: 'we talked', firstKeptEntryId: 'b', tokensBefore: 50 },
      msg('d', 'c', { role: 'user', content: 'after' }),
    ]);
    expect(events.map((e: any) => e.text ?? e.summary)).toEqual(['gone', 'we talked', 'kept', 'after']);
    expect(events[1]).toMatchObject({ type: 'compaction', pre_tokens: 50 });
  });

  test('pi\'s read, write and edit become Read, Write and Edit, keeping pi\'s call as native', () => {
    const { events } = read([
      HEADER,
      msg('a', null, { role: 'assistant', usage: USAGE, content: [
        { type: 'toolCall', id: 'r', name: 'read', arguments: { path: 'x', limit: 3 } },
        { type: 'toolCall', id: 'w', name: 'write', arguments: { path: 'x', content: 'y' } },
        { type: 'toolCall', id: 'e', name: 'edit', arguments: { path: 'x', edits: [{ oldText: 'a', newText: 'b' }] } },
        { type: 'toolCall', id: 'g', name: 'grep', arguments: { pattern: 'p' } },
      ] }),
    ]);
    expect(events.map((e: any) => [e.name, e.arguments, e.native?.name])).toEqual([
      ['Read', { file_path: 'x', limit: 3 }, 'read'],
      ['Write', { file_path: 'x', content: 'y' }, 'write'],
      ['Edit', { file_path: 'x', old_string: 'a', new_string: 'b' }, 'edit'],
      ['grep', { pattern: 'p' }, undefined],
    ]);
  });

  test('thinking is unsigned; usage in the Messages API\'s terms goes on the first text or call', () => {
    const { events } = read([
      HEADER,
      msg('a', null, { role: 'assistant', model: 'mock-think', usage: { input: 5, output: 2, cacheRead: 1, cacheWrite: 0, totalTokens: 8 }, content: [
        { type: 'thinking', thinking: 'hm', thinkingSignature: 'reasoning_content' }, { type: 'text', text: 'ok' },
      ] }),
    ]);
    expect(events).toEqual([
      { type: 'thinking', text: 'hm', model: 'mock-think', timestamp: T },
      { type: 'assistant', text: 'ok', usage: { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 1, cache_creation_input_tokens: 0 }, timestamp: T },
    ]);
  });

  test('a failed response is left out, as pi leaves it out on resume', () => {
    const { events, warnings } = read([
      HEADER,
      msg('a', null, { role: 'user', content: 'hi' }),
      msg('b', 'a', { role: 'assistant', stopReason: 'error', usage: USAGE, content: [{ type: 'text', text: 'half' }] }),
    ]);
    expect(texts(events)).toEqual(['hi']);
    expect(warnings).toHaveLength(1);
  });

  test('what the writer wrote reads back: texts, calls, results with their error flag, images, notifications', () => {
    const PNG = 'iVBORw0KGgo=';
    const input: GenericEvent[] = [
      { type: 'user', text: 'look', images: [{ media_type: 'image/png', data: PNG }], timestamp: T },
      { type: 'assistant', text: 'running', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'boom', is_error: true, timestamp: T },
      { type: 'monitor_event', event: 'build ok', description: 'watch', task_id: 't1', timestamp: T },
      { type: 'monitor_end', exit_code: 0, description: 'watch', task_id: 't1', timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ];
    const m = new PiRecordMapper({ sessionId: 'feedface-0000-4000-8000-000000000001', cwd: '/p', startedAt: T });
    const lines: unknown[] = [m.header()];
    for (const event of input) m.map(event);
    m.closeOpen();
    lines.push(...m.drain());
    const { events } = read(lines);
    expect(events).toEqual([
      input[0],
      { ...input[1], usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
      input[2],
      input[3],
      input[4],
      input[5],
      { ...input[6], usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
    ]);
  });

  test('a grown file extends its earlier conversion only when the earlier branch is where the branch now starts', () => {
    const extends_ = (earlier: unknown[], later: unknown[]) => {
      const adapter = piSession.create();
      for (const value of earlier) adapter.map(value, T, () => {});
      adapter.earlierEnd!();
      for (const value of later) adapter.map(value, T, () => {});
      adapter.end(T, () => {});
      return adapter.extendsEarlier!();
    };
    const first = [HEADER, msg('a', null, { role: 'user', content: 'one' }), msg('b', 'a', { role: 'user', content: 'two' })];
    expect(extends_(first, [msg('c', 'b', { role: 'user', content: 'three' })])).toBe(true);
    // pi forked from an earlier entry: the branch read before is not where it starts.
    expect(extends_(first, [msg('c', 'a', { role: 'user', content: 'other' })])).toBe(false);
    // A compaction keeping entries read before sends them after its summary: the events are not a continuation.
    expect(extends_(first, [{ type: 'compaction', id: 'c', parentId: 'b', timestamp: T, summary: 's', firstKeptEntryId: 'b', tokensBefore: 1 }])).toBe(false);
    expect(extends_(first, [{ type: 'compaction', id: 'c', parentId: 'b', timestamp: T, summary: 's', firstKeptEntryId: 'c', tokensBefore: 1 }])).toBe(true);
  });
});
