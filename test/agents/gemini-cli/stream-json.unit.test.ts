// The `gemini-stream-json` input format (`gemini -p --output-format stream-json`) with literal lines: streamed
// reply chunks joined, tool calls and results, errors, the run's usage, detection from the first line only;
// and the captured run maps to its golden events.
import { describe, expect, test } from 'vitest';
import { NO_OUTPUT } from '../../../lib/agents/gemini-cli/stream-json.js';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { InputError } from '../../../lib/input/types.js';
import { fixtureValues, goldenCases, mapFixtureFile, mapValues } from '../../input/support.js';

const FORMAT = 'gemini-stream-json';
const T = '2026-12-03T10:00:00.000Z';
const INIT = { type: 'init', timestamp: T, session_id: '5636cebf-5b7b-4a25-acb3-634cc8abbbb9', model: 'gemini-2.5-flash' };
const say = (content: string) => ({ type: 'message', timestamp: T, role: 'assistant', content, delta: true });
const STATS = { total_tokens: 330, input_tokens: 200, output_tokens: 20, cached: 50, input: 150, duration_ms: 9, tool_calls: 1, models: {} };
const read = (values: unknown[]) => mapValues(FORMAT, values);

describe('gemini stream-json fixtures', () => {
  test.each(goldenCases(FORMAT))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile(FORMAT, file)).toEqual(golden);
  });
});

describe('gemini-stream-json mapping', () => {
  test('the prompt is the user turn; consecutive deltas are one reply, with the model from init', () => {
    const { events, warnings } = read([
      INIT,
      { type: 'message', timestamp: T, role: 'user', content: 'Say hello' },
      say('Hel'), say('lo, '), say('world.'),
      { type: 'result', timestamp: T, status: 'success', stats: STATS },
    ]);
    expect(warnings).toEqual([]);
    expect(events).toEqual([
      { type: 'user', text: 'Say hello', timestamp: T },
      expect.objectContaining({ type: 'assistant', text: 'Hello, world.', model: 'gemini-2.5-flash', timestamp: T }),
    ]);
  });

  test('a tool call and its results: an error result carries the error message, an empty success says it has no output', () => {
    const { events } = read([
      INIT,
      say('Reading.'),
      { type: 'tool_use', timestamp: T, tool_name: 'read_file', tool_id: 'read_file_1', parameters: { file_path: 'a.txt' } },
      { type: 'tool_use', timestamp: T, tool_name: 'read_file', tool_id: 'read_file_2', parameters: { file_path: 'b.txt' } },
      { type: 'tool_result', timestamp: T, tool_id: 'read_file_1', status: 'success', output: '' },
      { type: 'tool_result', timestamp: T, tool_id: 'read_file_2', status: 'error', output: 'File not found.',
        error: { type: 'file_not_found', message: 'File not found: /p/b.txt' } },
      { type: 'tool_use', timestamp: T, tool_name: 'run_shell_command', tool_id: 'sh_1', parameters: { command: 'echo hi' } },
      { type: 'tool_result', timestamp: T, tool_id: 'sh_1', status: 'success', output: 'hi' },
      say('Done.'),
    ]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'assistant', text: 'Reading.' }),
      { type: 'tool_call', id: 'read_file_1', name: 'read_file', arguments: { file_path: 'a.txt' }, timestamp: T },
      { type: 'tool_call', id: 'read_file_2', name: 'read_file', arguments: { file_path: 'b.txt' }, timestamp: T },
      { type: 'tool_result', id: 'read_file_1', content: NO_OUTPUT, is_error: false, timestamp: T },
      { type: 'tool_result', id: 'read_file_2', content: 'File not found: /p/b.txt', is_error: true, timestamp: T },
      { type: 'tool_call', id: 'sh_1', name: 'run_shell_command', arguments: { command: 'echo hi' }, timestamp: T },
      { type: 'tool_result', id: 'sh_1', content: 'hi', is_error: false, timestamp: T },
      expect.objectContaining({ type: 'assistant', text: 'Done.' }),
    ]);
  });

  test('deltas on either side of a tool call are two replies', () => {
    const { events } = read([
      INIT, say('One'), say(' two.'),
      { type: 'tool_use', timestamp: T, tool_name: 'ls', tool_id: 'ls_1', parameters: {} },
      say('Three.'),
    ]);
    expect(events.filter((e) => e.type === 'assistant').map((e) => (e as { text: string }).text)).toEqual(['One two.', 'Three.']);
  });

  test('the run\'s usage goes on the last reply only, with cached input counted apart and thoughts as output', () => {
    const { events } = read([INIT, say('first'), { type: 'tool_use', tool_name: 'ls', tool_id: 'ls_1', parameters: {} }, say('last'),
      { type: 'result', timestamp: T, status: 'success', stats: STATS }]);
    expect(events[0]).not.toHaveProperty('usage');
    expect(events.at(-1)).toMatchObject({ text: 'last', usage: { input_tokens: 150, cache_read_input_tokens: 50, output_tokens: 130 } });
  });

  test('a run whose reply stays unfinished at the end of input still writes it', () => {
    const { events } = read([INIT, say('cut sh')]);
    expect(events).toEqual([expect.objectContaining({ type: 'assistant', text: 'cut sh' })]);
  });

  test('an error line and a failed result are warnings; the reply before them is kept', () => {
    const { events, warnings } = read([
      INIT, say('Trying.'),
      { type: 'error', timestamp: T, severity: 'warning', message: 'Loop detected, stopping execution' },
      { type: 'result', timestamp: T, status: 'error', error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns' }, stats: STATS },
    ]);
    expect(warnings).toEqual([
      'line 3: gemini warning: Loop detected, stopping execution',
      'line 4: gemini run failed: Reached max session turns',
    ]);
    expect(events).toEqual([expect.objectContaining({ type: 'assistant', text: 'Trying.' })]);
  });

  test('a line that is not an event is rejected; an unknown type is skipped with one warning', () => {
    expect(() => read([INIT, ['x']])).toThrow(InputError);
    expect(() => read([INIT, { type: 'tool_use', tool_name: 'ls' }])).toThrow(/tool_id/);
    const { events, warnings } = read([INIT, { type: 'thought', text: 'x' }, { type: 'thought', text: 'y' }]);
    expect(events).toEqual([]);
    expect(warnings).toEqual(['line 2: unknown gemini stream-json event type "thought"; skipped (further ones silently)']);
  });
});

describe('gemini-stream-json detection', () => {
  test('is detected from the init line, and only from it', () => {
    expect(detectInputFormat(INIT)?.name).toBe(FORMAT);
    expect(detectInputFormat(fixtureValues(FORMAT, 'run')[0])?.name).toBe(FORMAT);
    expect(detectInputFormat({ type: 'init', session_id: 7 })?.name).not.toBe(FORMAT);
    expect(detectInputFormat({ type: 'message', role: 'user', content: 'hi' })?.name).not.toBe(FORMAT);
  });

  test('other formats\' first lines are not taken for it', () => {
    const firsts = [
      { type: 'system', subtype: 'init', cwd: '/p', session_id: 's', model: 'claude-sonnet-4-5', tools: [] },
      { type: 'thread.started', thread_id: 't' },
      { type: 'session_meta', payload: { id: 'x' } },
      { sessionId: 's', projectHash: 'h', startTime: T, messages: [] },
      { type: 'step_start', timestamp: 1, sessionID: 'ses_1', part: { type: 'step-start' } },
      { type: 'user', text: 'hi' },
    ];
    expect(firsts.map((value) => detectInputFormat(value)?.name)).not.toContain(FORMAT);
  });
});
