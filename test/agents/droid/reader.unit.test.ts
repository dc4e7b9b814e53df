// The `droid-session` and `droid-stream-json` input formats: detected from the first line (droid's stream-json
// init not taken for Claude Code's), the captured files against their goldens, droid's own context left out,
// compactions, and what the writer's mapper wrote reads back.
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { DroidRecordMapper } from '../../../lib/agents/droid/records.js';
import type { GenericEvent } from '../../../lib/events.js';
import { fixtureValues, goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';

const T = '2026-11-29T10:00:00.000Z';
const header = { type: 'session_start', id: 'S', title: 't', owner: '', cwd: '/p' };
const msg = (id: string, role: string, content: unknown, extra: object = {}) => ({ type: 'message', id, timestamp: T, message: { role, content, ...extra } });

describe('droid-session', () => {
  test('is detected from the header of a captured session; a header without title and owner is not one', () => {
    expect(detectInputFormat(fixtureValues('droid', 'session')[0])?.name).toBe('droid-session');
    expect(detectInputFormat({ type: 'session_start', id: 'S', cwd: '/p' })?.name).not.toBe('droid-session');
  });

  test.each(goldenCases('droid').filter(([name]) => name !== 'stream-json'))('%s reads as its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('droid-session', file)).toEqual(golden);
  });

  test('droid\'s injected context is left out; the header gives the project directory', () => {
    const { events, adapter } = mapValues('droid-session', [
      header,
      msg('context-x', 'user', [{ type: 'text', text: '<system-reminder>tools</system-reminder>' }], { visibility: 'llm_only' }),
      msg('x', 'user', 'hi'),
    ]);
    expect(events).toEqual([{ type: 'user', text: 'hi', timestamp: T }]);
    expect(adapter.facts()).toEqual({ cwd: '/p' });
  });

  test('a compaction_state is a compaction with its summary, in place', () => {
    const { events } = mapValues('droid-session', [header, msg('a', 'user', 'old'),
      { type: 'compaction_state', id: 'c', timestamp: T, summaryText: 'sum', anchorMessage: { id: 'a', index: 0 }, removedCount: 1 }, msg('b', 'user', 'new')]);
    expect(events.map((e) => e.type)).toEqual(['user', 'compaction', 'user']);
    expect(events[1]).toEqual({ type: 'compaction', summary: 'sum', timestamp: T });
  });

  test('what the writer\'s mapper writes reads back as the same events', () => {
    const input: GenericEvent[] = [
      { type: 'user', text: 'go', images: [{ media_type: 'image/png', data: 'AAAA' }], timestamp: T },
      { type: 'thinking', text: 'hmm', timestamp: T },
      { type: 'assistant', text: 'running', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Execute', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'out', is_error: true, timestamp: T },
      { type: 'compaction', summary: 'sum', timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ];
    const m = new DroidRecordMapper({ sessionId: 'S', cwd: '/p' });
    for (const event of input) m.map(event);
    m.end();
    const { events, warnings } = mapValues('droid-session', JSON.parse(JSON.stringify(m.drain(true))));
    expect(warnings).toEqual([]);
    expect(events).toEqual(input);
  });
});

describe('droid-stream-json', () => {
  test('droid exec -o stream-json is detected from its init line, not taken for Claude Code\'s stream-json', () => {
    expect(detectInputFormat(fixtureValues('droid', 'stream-json')[0])?.name).toBe('droid-stream-json');
  });

  test('the captured run reads as its golden events: reasoning once, calls, results and the error flag', () => {
    const [[, file, golden]] = goldenCases('droid', 'stream-json');
    expect(mapFixtureFile('droid-stream-json', file!)).toEqual(golden);
    expect((golden as any).events.map((e: any) => e.type)).toEqual(['user', 'thinking', 'assistant', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant']);
    expect((golden as any).events.filter((e: any) => e.is_error).map((e: any) => e.id)).toEqual(['call_missing']);
  });
});
