import { describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../lib/input/types.js';
import { startMockAnthropic } from '../../support/mock-anthropic.js';
import { claudeBinary, cleanEnv, FIXTURES, resumeWithClaude, run, runBin, sessionOf, tempDir } from '../../support/run.js';
import { blocksOf, fixtureValues, goldenCases, mapFixtureFile, mapValues, resultText } from '../../input/support.js';

const FORMAT = 'claude-stream-json';
const SESSION = 'cf62a3fe-ac20-44a0-bcc5-86b7316b9e31';
const usage = { input_tokens: 10, output_tokens: 5 };
const assistant = (id: string, block: object, extra: object = {}) => ({
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [block], stop_reason: null, usage },
  parent_tool_use_id: null, session_id: SESSION, uuid: 'u', timestamp: '2026-11-29T10:00:00.000Z', ...extra,
});
const user = (content: unknown, extra: object = {}) => ({
  type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: SESSION, timestamp: '2026-11-29T10:00:01.000Z', ...extra,
});

describe('claude stream-json fixtures', () => {
  test.each(goldenCases('claude-stream-json', 'input-'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile(FORMAT, file)).toEqual(golden);
  });
});

describe('claude stream-json mapping', () => {
  test('system/init gives the project directory', () => {
    const { adapter } = mapValues(FORMAT, [{ type: 'system', subtype: 'init', cwd: '/home/user/project', session_id: SESSION }]);
    expect(adapter.facts()).toEqual({ cwd: '/home/user/project' });
  });

  test('the blocks of one response follow each other, thinking keeps its signature and model, usage comes once', () => {
    const { events } = mapValues(FORMAT, [
      assistant('msg_1', { type: 'thinking', thinking: 'plan', signature: 'sig-1' }),
      assistant('msg_1', { type: 'text', text: 'first' }),
      assistant('msg_1', { type: 'text', text: 'second' }),
      assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }),
    ]);
    expect(events).toEqual([
      { type: 'thinking', text: 'plan', signature: 'sig-1', model: 'claude-opus-5-5', timestamp: '2026-11-29T10:00:00.000Z' },
      { type: 'assistant', text: 'first', model: 'claude-opus-5-5', usage, timestamp: '2026-11-29T10:00:00.000Z' },
      { type: 'assistant', text: 'second', model: 'claude-opus-5-5', timestamp: '2026-11-29T10:00:00.000Z' },
      { type: 'tool_call', id: 'toolu_1', name: 'Bash', arguments: { command: 'ls' }, model: 'claude-opus-5-5', timestamp: '2026-11-29T10:00:00.000Z' },
    ]);
  });

  test('tool results keep their id, error flag, text and images', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } };
    const { events } = mapValues(FORMAT, [user([{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [{ type: 'text', text: 'shot' }, image] }])]);
    expect(events).toEqual([{
      type: 'tool_result', id: 'toolu_1', is_error: true, timestamp: '2026-11-29T10:00:01.000Z',
      content: [{ type: 'text', text: 'shot' }, { type: 'image', media_type: 'image/png', data: 'iVBORw0=' }],
    }]);
  });

  test('a user line with text is a user turn', () => {
    expect(mapValues(FORMAT, [user('hello')]).events).toMatchObject([{ type: 'user', text: 'hello' }]);
  });

  test('a response without text carries its usage on its first tool call', () => {
    const { events } = mapValues(FORMAT, [
      assistant('msg_2', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }),
      assistant('msg_2', { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: {} }),
    ]);
    expect(events.map((e) => 'usage' in e)).toEqual([true, false]);
  });

  test('subagent lines are marked with their agent id, so the main conversation leaves them out', () => {
    const { events } = mapValues(FORMAT, [
      user([{ type: 'text', text: 'sub task' }], { parent_tool_use_id: 'toolu_agent', agent_id: 'a3dd217' }),
      assistant('msg_s', { type: 'text', text: 'sub reply' }, { parent_tool_use_id: 'toolu_agent' }),
    ]);
    expect(events).toMatchObject([
      { type: 'user', text: 'sub task', agent_id: 'a3dd217' },
      { type: 'assistant', text: 'sub reply', agent_id: 'toolu_agent' },
    ]);
  });

  test('an API error line is reported, not written as a model turn', () => {
    const line = assistant('e', { type: 'text', text: 'Prompt is too long' }, { is_api_error_message: true, api_error_status: 400 });
    line.message.model = '<synthetic>';
    const { events, warnings } = mapValues(FORMAT, [line]);
    expect(events).toMatchObject([{ type: 'context', kind: 'synthetic', subtype: 'api_error', text: 'Prompt is too long' }]);
    expect(warnings).toEqual(['line 1: claude API error 400: Prompt is too long']);
  });

  test('Claude Code\'s synthetic replies are context, not model turns', () => {
    const line = assistant('s', { type: 'text', text: 'No response requested.' });
    line.message.model = '<synthetic>';
    expect(mapValues(FORMAT, [line])).toMatchObject({ events: [{ type: 'context', kind: 'synthetic', text: 'No response requested.' }], warnings: [] });
  });

  test('an error result is reported and a successful one is silent', () => {
    const { events, warnings } = mapValues(FORMAT, [
      { type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: SESSION },
      { type: 'result', subtype: 'error_max_turns', is_error: true, errors: ['too many turns'], session_id: SESSION },
    ]);
    expect(events).toEqual([]);
    expect(warnings).toEqual(['line 2: claude run ended with an error (error_max_turns): too many turns']);
  });

  test('partial-message stream events are skipped silently', () => {
    expect(mapValues(FORMAT, [{ type: 'stream_event', event: { type: 'message_start' }, session_id: SESSION }])).toMatchObject({ events: [], warnings: [] });
  });

  test('an unknown system subtype is reported once', () => {
    const line = { type: 'system', subtype: 'hologram', session_id: SESSION };
    expect(mapValues(FORMAT, [line, line]).warnings).toHaveLength(1);
  });

  test('an unknown assistant block type is reported once and the other blocks are kept', () => {
    const { events, warnings } = mapValues(FORMAT, [
      assistant('m', { type: 'redacted_thinking', data: 'x' }), assistant('m', { type: 'redacted_thinking', data: 'y' }),
      assistant('m', { type: 'text', text: 'visible' }),
    ]);
    expect(events).toMatchObject([{ type: 'assistant', text: 'visible' }]);
    expect(warnings).toHaveLength(1);
  });

  test('an assistant line without a message is rejected', () => {
    expect(() => mapValues(FORMAT, [{ type: 'assistant', session_id: SESSION }])).toThrow(InputError);
  });
});

describe('claude stream-json on the command line', () => {
  test('an API error stream reports the error on stderr, writes no model turn and keeps no empty session', async () => {
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], {
      input: readFileSync(join(FIXTURES, 'claude-stream-json', 'input-api-error.jsonl')),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('asyncai-log: stdin:2: claude API error 400: Prompt is too long');
    expect(existsSync(sessionOf(r).session_file)).toBe(false);
    expect(r.stderr).toContain(`asyncai-log: no events to write, so session ${sessionOf(r).session_id} was not kept (removed ${sessionOf(r).session_file})\n`);
  });

  test('a subagent\'s lines stay out of the transcript, and its report arrives as the Agent tool\'s result', async () => {
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: readFileSync(join(FIXTURES, 'claude-stream-json', 'input-subagent.jsonl')) });
    expect(r.code).toBe(0);
    const records = readFileSync(sessionOf(r).session_file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(records.map((x) => x.message.content[0].type)).toEqual(['tool_use', 'tool_result', 'text']);
    expect(JSON.stringify(records)).not.toContain('toolu_input_sub');
    expect(r.stderr).toContain('agent_id');
  });

  test('the stream\'s own cwd decides where the session goes', async () => {
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: fixtureValues('claude-stream-json', 'input-tools').map((v) => JSON.stringify(v)).join('\n') });
    expect(r.code).toBe(0);
    expect(sessionOf(r).session_file).toContain(join(root, 'projects', '-home-user-project'));
  });
});

describe('real claude stream-json through the bin, resumed by the real claude', () => {
  test('the prompt, signed thinking, parallel calls, their results and the reply all reach the model', async () => {
    const base = tempDir();
    const project = join(base, 'project');
    mkdirSync(project);
    const anthropic = await startMockAnthropic();
    try {
      anthropic.script(
        [
          { type: 'thinking', thinking: 'Run both at once.', signature: 'c2lnLWUyZQ==' },
          { type: 'text', text: 'Running both.' },
          { type: 'tool_use', id: 'toolu_e2e_a', name: 'Bash', input: { command: 'echo a', description: 'a' } },
          { type: 'tool_use', id: 'toolu_e2e_b', name: 'Bash', input: { command: 'echo b; exit 2', description: 'b' } },
        ],
        [{ type: 'text', text: 'a printed; b failed.' }],
      );
      const env = cleanEnv({
        CLAUDE_CONFIG_DIR: join(base, 'first'), ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: 'sk-ant-test',
        DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
      });
      const prompt = 'Print a and fail b, in parallel.';
      const streamed = await run(claudeBinary(), ['-p', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--', prompt], { cwd: project, env });
      expect(streamed.code).toBe(0);
      const config = join(base, 'second');
      const piped = await runBin(['--session-dir', `claude-code-cli=${config}`, '--prompt', prompt], { input: streamed.stdout, cwd: base });
      expect(piped.code).toBe(0);
      const resumed = await resumeWithClaude({ configDir: config, cwd: project, session: sessionOf(piped).session_id, baseUrl: anthropic.url });
      expect(resumed.code).toBe(0);
      const messages = anthropic.requests.at(-1)!.body.messages as any[];
      const blocks = blocksOf(anthropic.requests.at(-1)!.body);
      expect(blocks[0]).toEqual({ role: 'user', block: expect.objectContaining({ text: prompt }) });
      // One assistant message holds the thinking, the text and both calls: the parallel calls stayed one turn.
      const turn = messages.find((m) => Array.isArray(m.content) && m.content.some((b: any) => b.type === 'tool_use'));
      expect(turn.content.map((b: any) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
      expect(turn.content[0]).toMatchObject({ thinking: 'Run both at once.', signature: 'c2lnLWUyZQ==' });
      const results = blocks.filter((b) => b.block.type === 'tool_result').map((b) => b.block);
      expect(results.map((r) => [r.tool_use_id, resultText(r), r.is_error === true])).toEqual([
        ['toolu_e2e_a', 'a', false], ['toolu_e2e_b', 'Exit code 2\nb', true],
      ]);
      expect(blocks).toContainEqual({ role: 'assistant', block: expect.objectContaining({ type: 'text', text: 'a printed; b failed.' }) });
    } finally {
      await anthropic.close();
    }
  });
});
