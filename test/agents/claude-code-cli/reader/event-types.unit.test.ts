// The generic event types the reader added (compaction, context, agent_id, tool_call usage): validation,
// and how the Claude Code mapper writes them.
import { describe, expect, test } from 'vitest';
import { normalizeEvent, type GenericEvent } from '../../../../lib/events.js';
import type { ClaudeRecord } from '../../../../lib/agents/claude-code-cli/records.js';
import { mapEvents as mapAll } from '../../../support/claude-mapper.js';

const T = '2026-11-29T10:00:00.000Z';

describe('compaction and context events', () => {
  test('a compaction event keeps its summary, trigger and pre_tokens', () => {
    expect(normalizeEvent({ type: 'compaction', summary: 'S', trigger: 'auto', pre_tokens: 1200, timestamp: T }, T))
      .toEqual({ ok: true, event: { type: 'compaction', summary: 'S', trigger: 'auto', pre_tokens: 1200, timestamp: T } });
  });

  test('a compaction event without a summary is rejected', () => {
    expect(normalizeEvent({ type: 'compaction' }, T)).toEqual({ ok: false, error: 'missing "summary"' });
  });

  test('pre_tokens must be a non-negative integer', () => {
    expect(normalizeEvent({ type: 'compaction', summary: '', pre_tokens: -1 }, T).ok).toBe(false);
    expect(normalizeEvent({ type: 'compaction', summary: '', pre_tokens: '5' }, T).ok).toBe(false);
  });

  test('a context event keeps kind, subtype, text and data', () => {
    expect(normalizeEvent({ type: 'context', kind: 'system', subtype: 'turn_duration', text: 't', data: { a: 1 }, timestamp: T }, T))
      .toEqual({ ok: true, event: { type: 'context', kind: 'system', subtype: 'turn_duration', text: 't', data: { a: 1 }, timestamp: T } });
  });

  test('a context event needs a kind and an object for data', () => {
    expect(normalizeEvent({ type: 'context' }, T)).toEqual({ ok: false, error: 'missing "kind"' });
    expect(normalizeEvent({ type: 'context', kind: 'x', data: [1] }, T)).toEqual({ ok: false, error: '"data" must be an object' });
  });

  test('the enum spelling of the new types is accepted', () => {
    expect(normalizeEvent({ Compaction: { summary: 's', timestamp: T } }, T))
      .toEqual({ ok: true, event: { type: 'compaction', summary: 's', timestamp: T } });
    expect(normalizeEvent({ Context: { kind: 'attachment', timestamp: T } }, T))
      .toEqual({ ok: true, event: { type: 'context', kind: 'attachment', timestamp: T } });
  });

  test('agent_id is kept on any event type and must be a string', () => {
    expect(normalizeEvent({ type: 'user', text: 'hi', agent_id: 'a1', timestamp: T }, T))
      .toEqual({ ok: true, event: { type: 'user', text: 'hi', agent_id: 'a1', timestamp: T } });
    expect(normalizeEvent({ type: 'user', text: 'hi', agent_id: 5 }, T)).toEqual({ ok: false, error: '"agent_id" must be a string, got a number' });
  });

  test('a tool_call may carry usage', () => {
    expect(normalizeEvent({ type: 'tool_call', id: 'c', name: 'Bash', usage: { output_tokens: 3 }, timestamp: T }, T))
      .toEqual({ ok: true, event: { type: 'tool_call', id: 'c', name: 'Bash', arguments: {}, usage: { output_tokens: 3 }, timestamp: T } });
  });
});

describe('Claude mapper: the new types', () => {
  test('a compaction is a compact_boundary starting a new root, then the isCompactSummary user record', () => {
    const { records } = mapAll([
      { type: 'user', text: 'hi', timestamp: T },
      { type: 'compaction', summary: 'We said hi.', trigger: 'manual', pre_tokens: 15, timestamp: T },
      { type: 'user', text: 'again', timestamp: T },
    ]);
    expect(records.map((r) => [r.type, r.parentUuid, r.uuid])).toEqual([
      ['user', null, 'u1'], ['system', null, 'u2'], ['user', 'u2', 'u3'], ['user', 'u3', 'u4'],
    ]);
    expect(records[1]).toMatchObject({
      type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info',
      logicalParentUuid: 'u1', compactMetadata: { trigger: 'manual', preTokens: 15 }, timestamp: T, sessionId: 'S',
    });
    expect(records[2]).toMatchObject({
      isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'We said hi.' },
    });
  });

  test('compactMetadata holds only what the event gave', () => {
    const { records } = mapAll([{ type: 'compaction', summary: 's', timestamp: T }]);
    expect(records[0]!.compactMetadata).toEqual({});
  });

  test('an empty summary writes the boundary alone', () => {
    const { records } = mapAll([{ type: 'compaction', summary: ' ', timestamp: T }]);
    expect(records.map((r) => r.type)).toEqual(['system']);
  });

  test('the assistant block after a compaction starts a new message id', () => {
    const { records } = mapAll([
      { type: 'assistant', text: 'a', timestamp: T },
      { type: 'compaction', summary: 's', timestamp: T },
      { type: 'assistant', text: 'b', timestamp: T },
    ]);
    const ids = records.filter((r) => r.type === 'assistant').map((r) => (r.message as any).id);
    expect(ids[0]).not.toBe(ids[1]);
  });

  test('a context event writes nothing and warns about nothing', () => {
    expect(mapAll([{ type: 'context', kind: 'system', text: 'x', timestamp: T }])).toEqual({ records: [], warnings: [] });
  });

  test('events of a subagent are not written, with one warning for all of them', () => {
    const { records, warnings } = mapAll([
      { type: 'user', text: 'sub', agent_id: 'a1', timestamp: T },
      { type: 'assistant', text: 'sub reply', agent_id: 'a1', timestamp: T },
      { type: 'user', text: 'main', timestamp: T },
    ]);
    expect(records.map((r) => (r.message as any).content)).toEqual(['main']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/agent_id/);
  });

  test('a tool_call usage is written on its record', () => {
    const { records } = mapAll([{ type: 'tool_call', id: 'c', name: 'Bash', arguments: {}, usage: { input_tokens: 4, output_tokens: 2 }, timestamp: T }]);
    expect((records[0]!.message as any).usage).toEqual({ input_tokens: 4, output_tokens: 2 });
  });
});
