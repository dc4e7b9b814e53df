// The `opencode-run-json` input format (`opencode run --format json`) with literal lines: text, reasoning,
// finished tool calls with their results, each step's usage on its last reply or call, errors, detection from
// the first line; and the captured runs map to their golden events.
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { InputError } from '../../../lib/input/types.js';
import { fixtureValues, goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';

const FORMAT = 'opencode-run-json';
const MS = Date.parse('2026-12-03T10:00:00.000Z');
const at = (offset: number) => new Date(MS + offset).toISOString();
const S = 'ses_dc244aac8ffed13qao20MuEDVF';
const line = (type: string, part: object, offset = 0) => ({ type, timestamp: MS + offset, sessionID: S, part: { sessionID: S, messageID: 'msg_1', ...part } });
const start = line('step_start', { id: 'prt_0', type: 'step-start' });
const say = (text: string, offset = 0) => line('text', { id: `prt_t${offset}`, type: 'text', text, time: { start: MS + offset, end: MS + offset + 5 } }, offset);
const think = (text: string) => line('reasoning', { id: 'prt_r', type: 'reasoning', text, time: { start: MS, end: MS + 1 } });
const tool = (callID: string, name: string, state: object, offset = 0) =>
  line('tool_use', { id: `prt_${callID}`, type: 'tool', tool: name, callID, state: { time: { start: MS + offset, end: MS + offset + 10 }, ...state } }, offset);
const finish = (input: number, output: number, extra: object = {}) =>
  line('step_finish', { id: 'prt_f', type: 'step-finish', reason: 'stop', tokens: { total: input + output, input, output, reasoning: 0, cache: { write: 0, read: 0 }, ...extra }, cost: 0 });
const read = (values: unknown[]) => mapValues(FORMAT, values);

describe('opencode run --format json fixtures', () => {
  test.each(goldenCases(FORMAT))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile(FORMAT, file)).toEqual(golden);
  });
});

describe('opencode-run-json mapping', () => {
  test('text is a reply at its start time; the step\'s usage goes on it', () => {
    const { events, warnings } = read([start, say('Hello.'), finish(100, 10)]);
    expect(warnings).toEqual([]);
    expect(events).toEqual([{ type: 'assistant', text: 'Hello.', timestamp: at(0), usage: { input_tokens: 100, output_tokens: 10 } }]);
  });

  test('reasoning is unsigned thinking; reasoning tokens count as output, cache reads and writes apart', () => {
    const { events } = read([start, think('Let me see.'), say('Seen.'), finish(100, 10, { reasoning: 5, cache: { read: 40, write: 3 } })]);
    expect(events).toEqual([
      { type: 'thinking', text: 'Let me see.', timestamp: at(0) },
      { type: 'assistant', text: 'Seen.', timestamp: at(0),
        usage: { input_tokens: 100, output_tokens: 15, cache_read_input_tokens: 40, cache_creation_input_tokens: 3 } },
    ]);
  });

  test('a finished tool part is its call and its result; an error state is an error result', () => {
    const { events } = read([
      start,
      tool('call_ok', 'bash', { status: 'completed', input: { command: 'ls' }, output: 'a\nb\n', metadata: { exit: 0 } }),
      tool('call_bad', 'read', { status: 'error', input: { filePath: '/p/missing' }, error: 'File not found: /p/missing' }, 20),
    ]);
    expect(events).toEqual([
      { type: 'tool_call', id: 'call_ok', name: 'bash', arguments: { command: 'ls' }, timestamp: at(0) },
      { type: 'tool_result', id: 'call_ok', content: 'a\nb\n', is_error: false, timestamp: at(10) },
      { type: 'tool_call', id: 'call_bad', name: 'read', arguments: { filePath: '/p/missing' }, timestamp: at(20) },
      { type: 'tool_result', id: 'call_bad', content: 'File not found: /p/missing', is_error: true, timestamp: at(30) },
    ]);
  });

  test('images a finished call attached (a read of an image) are image parts of its result', () => {
    const png = 'iVBORw0KGgo=';
    const attachments = [{ type: 'file', mime: 'image/png', url: `data:image/png;base64,${png}` }];
    const { events } = read([tool('call_img', 'read', { status: 'completed', input: { filePath: '/p/a.png' }, output: 'Image read', attachments })]);
    expect(events[1]).toMatchObject({ type: 'tool_result', id: 'call_img', is_error: false,
      content: [{ type: 'text', text: 'Image read' }, { type: 'image', media_type: 'image/png', data: png }] });
  });

  test('each step\'s usage goes on its last reply or tool call, once', () => {
    const done = { status: 'completed', input: {}, output: 'ok' };
    const { events } = read([
      start, say('Listing.'), tool('call_1', 'bash', done), finish(100, 10),
      start, say('First.', 1), say('Last.', 2), finish(300, 30),
    ]);
    expect(events.map((e) => [e.type, (e as { usage?: { input_tokens: number } }).usage?.input_tokens])).toEqual([
      ['assistant', undefined], ['tool_call', 100], ['tool_result', undefined], ['assistant', undefined], ['assistant', 300],
    ]);
  });

  test('a step cut off before its step_finish still writes what it held', () => {
    const { events } = read([start, say('Half a step.')]);
    expect(events).toEqual([{ type: 'assistant', text: 'Half a step.', timestamp: at(0) }]);
  });

  test('text OpenCode marks ignored is not written', () => {
    const ignored = line('text', { id: 'prt_i', type: 'text', text: 'not sent', ignored: true });
    expect(read([start, ignored, finish(1, 1)]).events).toEqual([]);
  });

  test('an error line is a warning; a line without its part is rejected; an unknown type is skipped with one warning', () => {
    const error = { type: 'error', timestamp: MS, sessionID: S, error: { name: 'APIError', data: { message: 'rate limited', statusCode: 429 } } };
    expect(read([start, error]).warnings).toEqual(['line 2: opencode error: rate limited']);
    expect(read([{ ...error, error: { name: 'UnknownError' } }]).warnings).toEqual(['line 1: opencode error: UnknownError']);
    expect(() => read([{ type: 'text', sessionID: S }])).toThrow(InputError);
    expect(() => read([line('tool_use', { type: 'tool', tool: 'ls' })])).toThrow(/callID/);
    const odd = { type: 'file', timestamp: MS, sessionID: S, part: {} };
    expect(read([odd, odd]).warnings).toEqual(['line 1: unknown opencode run event type "file"; skipped (further ones silently)']);
  });
});

describe('opencode-run-json detection', () => {
  test('is detected from its first line, a step_start (or an error when the run fails at once), and from every line of a run', () => {
    expect(detectInputFormat(start)?.name).toBe(FORMAT);
    const error = { type: 'error', timestamp: MS, sessionID: S, error: { name: 'APIError', data: { message: 'x' } } };
    expect(detectInputFormat(error)?.name).toBe(FORMAT);
    for (const name of ['run', 'thinking']) {
      expect(fixtureValues(FORMAT, name).map((value) => detectInputFormat(value)?.name)).toEqual(fixtureValues(FORMAT, name).map(() => FORMAT));
    }
  });

  test('lines without a session id or a part are not taken for it', () => {
    expect(detectInputFormat({ type: 'text', timestamp: MS, part: { type: 'text', text: 'x' } })?.name).not.toBe(FORMAT);
    expect(detectInputFormat({ type: 'text', sessionID: S, text: 'x' })?.name).not.toBe(FORMAT);
    expect(detectInputFormat({ type: 'error', sessionID: S, message: 'x' })?.name).not.toBe(FORMAT);
  });

  test('other formats\' first lines are not taken for it', () => {
    const firsts = [
      { type: 'system', subtype: 'init', cwd: '/p', session_id: 's', model: 'claude-sonnet-4-5', tools: [] },
      { type: 'thread.started', thread_id: 't' },
      { type: 'error', message: 'codex exec error' },
      { type: 'session_meta', payload: { id: 'x' } },
      { type: 'init', timestamp: at(0), session_id: 's', model: 'gemini-2.5-flash' },
      { info: { id: 'ses_1', directory: '/p' }, messages: [] },
      { type: 'assistant', text: 'hi' },
    ];
    expect(firsts.map((value) => detectInputFormat(value)?.name)).not.toContain(FORMAT);
  });
});
