// The `copilot-events` input format (no process): detected from the first line of a session file and of the
// print mode's JSON output, the captured fixtures against their goldens, images from binary assets, and what
// the writer's mapper wrote reads back as the events it was given.
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { CopilotEventMapper } from '../../../lib/agents/copilot-cli/records.js';
import type { GenericEvent } from '../../../lib/events.js';
import { fixtureValues, goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';

const T = '2026-11-29T10:00:00.000Z';
const read = (values: unknown[]) => mapValues('copilot-events', values);
let n = 0;
const ev = (type: string, data: object, extra: object = {}) => ({ type, data, id: `00000000-0000-4000-8000-${String(n += 1).padStart(12, '0')}`, timestamp: T, parentId: null, ...extra });

describe('copilot-events', () => {
  test('is detected from the first line of a session file and of copilot -p --output-format json', () => {
    expect(detectInputFormat(fixtureValues('copilot-cli', 'session')[0])?.name).toBe('copilot-events');
    expect(detectInputFormat(fixtureValues('copilot-cli', 'json-run')[0])?.name).toBe('copilot-events');
  });

  test('a generic event or another agent\'s record is not taken for one', () => {
    expect(detectInputFormat({ type: 'user', text: 'hi' })?.name).toBe('events');
    expect(detectInputFormat({ type: 'session', version: 3, id: 'x', timestamp: T, cwd: '/p' })?.name).not.toBe('copilot-events');
  });

  test.each(goldenCases('copilot-cli'))('%s reads as its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('copilot-events', file)).toEqual(golden);
  });

  test('the resumed session reads as both conversations, the new prompt as typed (not with the CLI\'s date)', () => {
    const [[, file]] = goldenCases('copilot-cli', 'resumed');
    const texts = (mapFixtureFile('copilot-events', file!).events as GenericEvent[]).filter((e) => e.type === 'user').map((e) => (e as any).text);
    expect(texts).toEqual(['Read missing.txt and notes.txt, and look at the image', 'Anything else?']);
  });

  test('an attachment naming a binary asset gets the asset\'s image; an unknown asset is said and left out', () => {
    const { events, warnings } = read([
      ev('session.binary_asset', { assetId: 'sha256:aa', type: 'image', mimeType: 'image/png', byteLength: 3, data: 'AAA=' }),
      ev('user.message', { content: 'see', attachments: [{ type: 'file', path: '/p/a.png', mimeType: 'image/png', assetId: 'sha256:aa' }, { type: 'file', path: '/p/b.png', mimeType: 'image/png', assetId: 'sha256:bb' }] }),
    ]);
    expect(events).toEqual([{ type: 'user', text: 'see', images: [{ media_type: 'image/png', data: 'AAA=' }], timestamp: T }]);
    expect(warnings).toEqual(['line 2: attachment asset "sha256:bb" is not in the session: the image is left out']);
  });

  test('ephemeral events and the last result line of the print mode give nothing; a line of no event is rejected', () => {
    const adapter = read([]).adapter;
    expect(adapter.map(ev('assistant.message_delta', { deltaContent: 'x' }, { ephemeral: true }), T, () => {})).toEqual([]);
    expect(adapter.map({ type: 'result', timestamp: T, sessionId: 's', exitCode: 0, usage: {} }, T, () => {})).toEqual([]);
    expect(() => adapter.map({ type: 'user.message', data: {} }, T, () => {})).toThrow(/not a Copilot CLI session event/);
  });

  test('what the writer\'s mapper wrote reads back as the events it was given (monitor notifications and compactions too)', () => {
    const given: GenericEvent[] = [
      { type: 'user', text: 'look', images: [{ media_type: 'image/png', data: 'AAA=' }], timestamp: T },
      { type: 'thinking', text: 'hmm', timestamp: T },
      { type: 'assistant', text: 'running', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'nope', is_error: true, timestamp: T },
      { type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 't1', timestamp: T },
      { type: 'monitor_end', exit_code: 0, description: 'npm run watch', task_id: 't1', timestamp: T },
      { type: 'compaction', summary: 'so far', timestamp: T },
      { type: 'assistant', text: 'done', timestamp: T },
    ];
    const m = new CopilotEventMapper({ sessionId: 's', cwd: '/p' });
    const lines: unknown[] = [m.header(T)];
    for (const e of given) m.map(e);
    m.end();
    lines.push(...m.drain(true));
    const { events, adapter } = read(lines);
    expect(adapter.facts()).toEqual({ cwd: '/p' });
    expect(events).toEqual(given);
  });
});
