import { describe, expect, test } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { unwrapShell } from '../../../lib/agents/codex-cli/input-common.js';
import { InputError } from '../../../lib/input/types.js';
import { startMockAnthropic } from '../../support/mock-anthropic.js';
import { startMockOpenAI, writeCodexConfig } from '../../support/mock-openai.js';
import { resumeWithClaude, runBin, runCodex, sessionOf, tempDir } from '../../support/run.js';
import { blocksOf, goldenCases, mapFixtureFile, mapValues, resultText } from '../../input/support.js';

const FORMAT = 'codex-exec-json';
const item = (phase: string, body: object) => ({ type: `item.${phase}`, item: body });
const usage = (input: number, output: number, cached = 0) => ({
  type: 'turn.completed',
  usage: { input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0 },
});
const cmd = (id: string, phase: string, command: string, extra: object = {}) =>
  item(phase, { id, type: 'command_execution', command, aggregated_output: '', exit_code: null, status: 'in_progress', ...extra });

describe('codex exec --json fixtures', () => {
  test.each(goldenCases('codex-exec-json'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile(FORMAT, file)).toEqual(golden);
  });
});

describe('codex exec --json mapping', () => {
  test('a command execution becomes a Bash call with the unwrapped script and its output as the result', () => {
    const { events } = mapValues(FORMAT, [
      { type: 'turn.started' },
      cmd('item_1', 'started', "/bin/bash -lc 'echo hi'"),
      cmd('item_1', 'completed', "/bin/bash -lc 'echo hi'", { aggregated_output: 'hi\n', exit_code: 0, status: 'completed' }),
    ]);
    expect(events).toMatchObject([
      { type: 'tool_call', id: 'codex_1_item_1', name: 'Bash', arguments: { command: 'echo hi' } },
      { type: 'tool_result', id: 'codex_1_item_1', content: 'hi\n', is_error: false },
    ]);
  });

  test('a non-zero exit code marks the result as an error and leads it, as Claude Code writes Bash failures', () => {
    const { events } = mapValues(FORMAT, [
      cmd('item_1', 'completed', 'false', { aggregated_output: 'nope\n', exit_code: 1, status: 'failed' }),
    ]);
    expect(events[1]).toMatchObject({ type: 'tool_result', content: 'Exit code 1\nnope\n', is_error: true });
  });

  test('a completed item that never started still gives the call before its result', () => {
    const { events } = mapValues(FORMAT, [cmd('item_3', 'completed', 'ls', { aggregated_output: 'a', exit_code: 0, status: 'completed' })]);
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
  });

  test('call ids stay unique when a later turn reuses the item ids of an earlier one', () => {
    const done = { aggregated_output: '', exit_code: 0, status: 'completed' };
    const { events } = mapValues(FORMAT, [
      { type: 'turn.started' }, cmd('item_1', 'completed', 'a', done), usage(1, 1),
      { type: 'turn.started' }, cmd('item_1', 'completed', 'b', done), usage(2, 2),
    ]);
    const ids = events.filter((e) => e.type === 'tool_call').map((e) => (e as { id: string }).id);
    expect(new Set(ids).size).toBe(2);
  });

  test('turn usage is attached once, to the turn\'s last reply, with cached input counted apart', () => {
    const { events } = mapValues(FORMAT, [
      { type: 'turn.started' },
      item('completed', { id: 'item_1', type: 'agent_message', text: 'first' }),
      item('completed', { id: 'item_2', type: 'agent_message', text: 'last' }),
      usage(100, 10, 40),
    ]);
    expect(events).toEqual([
      expect.not.objectContaining({ usage: expect.anything() }),
      expect.objectContaining({ text: 'last', usage: { input_tokens: 60, cache_read_input_tokens: 40, cache_creation_input_tokens: 0, output_tokens: 10 } }),
    ]);
  });

  test('each turn gets the difference of Codex\'s cumulative totals', () => {
    const { events } = mapValues(FORMAT, [
      { type: 'turn.started' }, item('completed', { id: 'item_1', type: 'agent_message', text: 'one' }), usage(100, 10),
      { type: 'turn.started' }, item('completed', { id: 'item_1', type: 'agent_message', text: 'two' }), usage(300, 30),
    ]);
    expect(events.map((e) => (e as { usage?: { input_tokens: number } }).usage?.input_tokens)).toEqual([100, 200]);
  });

  test('a total lower than the one before is ignored instead of giving negative usage', () => {
    const { events } = mapValues(FORMAT, [
      { type: 'turn.started' }, item('completed', { id: 'item_1', type: 'agent_message', text: 'one' }), usage(100, 10),
      { type: 'turn.started' }, item('completed', { id: 'item_1', type: 'agent_message', text: 'two' }), usage(0, 0),
    ]);
    expect(events[1]).not.toHaveProperty('usage');
  });

  test('reasoning becomes unsigned thinking', () => {
    const { events } = mapValues(FORMAT, [item('completed', { id: 'item_1', type: 'reasoning', text: 'hmm' })]);
    expect(events).toEqual([{ type: 'thinking', text: 'hmm', timestamp: expect.any(String) }]);
  });

  test('a file change becomes an apply_patch call answered with apply_patch\'s own summary', () => {
    const change = { id: 'item_2', type: 'file_change', changes: [{ path: '/p/a.txt', kind: 'add' }, { path: '/p/b.txt', kind: 'update' }] };
    const { events } = mapValues(FORMAT, [item('started', { ...change, status: 'in_progress' }), item('completed', { ...change, status: 'completed' })]);
    expect(events).toMatchObject([
      { type: 'tool_call', name: 'apply_patch', arguments: { changes: change.changes } },
      { type: 'tool_result', content: 'Success. Updated the following files:\nA /p/a.txt\nM /p/b.txt', is_error: false },
    ]);
  });

  test('an MCP call is named as Claude Code names MCP tools, and its error becomes an error result', () => {
    const call = { id: 'item_4', type: 'mcp_tool_call', server: 'demo', tool: 'echo', arguments: { text: 'x' }, result: null };
    const { events } = mapValues(FORMAT, [item('completed', { ...call, error: { message: 'server gone' }, status: 'failed' })]);
    expect(events).toMatchObject([
      { type: 'tool_call', name: 'mcp__demo__echo', arguments: { text: 'x' } },
      { type: 'tool_result', content: 'server gone', is_error: true },
    ]);
  });

  test('a web search becomes a WebSearch call with its query', () => {
    const { events } = mapValues(FORMAT, [item('completed', { id: 'ws_1', type: 'web_search', query: 'node streams' })]);
    expect(events[0]).toMatchObject({ type: 'tool_call', name: 'WebSearch', arguments: { query: 'node streams' } });
    expect(events[1]).toMatchObject({ type: 'tool_result', id: (events[0] as { id: string }).id });
  });

  test('a todo list becomes TodoWrite calls, one per change of the list', () => {
    const list = (done: boolean) => ({ id: 'item_7', type: 'todo_list', items: [{ text: 'write tests', completed: done }] });
    const { events } = mapValues(FORMAT, [
      item('started', list(false)), item('updated', list(false)), item('completed', list(true)),
    ]);
    const calls = events.filter((e) => e.type === 'tool_call') as { id: string; name: string; arguments: any }[];
    expect(calls.map((c) => c.arguments.todos[0].status)).toEqual(['pending', 'completed']);
    expect(calls[0]).toMatchObject({ name: 'TodoWrite', arguments: { todos: [{ content: 'write tests', activeForm: 'write tests' }] } });
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e as { id: string }).id)).toEqual(calls.map((c) => c.id));
  });

  test('a call still open when the turn fails gets an error result, and the failure is reported', () => {
    const { events, warnings } = mapValues(FORMAT, [
      { type: 'turn.started' }, cmd('item_1', 'started', 'sleep 100'), { type: 'turn.failed', error: { message: 'stream lost' } },
    ]);
    expect(events[1]).toMatchObject({ type: 'tool_result', id: (events[0] as { id: string }).id, is_error: true });
    expect(warnings).toEqual(['line 3: codex turn failed: stream lost']);
  });

  test('error items and error events are reported on stderr, not written', () => {
    const { events, warnings } = mapValues(FORMAT, [
      item('completed', { id: 'item_0', type: 'error', message: 'metadata missing' }),
      { type: 'error', message: 'reconnecting' },
    ]);
    expect(events).toEqual([]);
    expect(warnings).toEqual(['line 1: codex: metadata missing', 'line 2: codex error: reconnecting']);
  });

  test('an unknown item type is reported once, however often it comes', () => {
    const { events, warnings } = mapValues(FORMAT, [
      item('completed', { id: 'item_1', type: 'hologram' }), item('completed', { id: 'item_2', type: 'hologram' }),
    ]);
    expect(events).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"hologram"');
  });

  test('a line that is not an event object is rejected', () => {
    expect(() => mapValues(FORMAT, [[1, 2]])).toThrow(InputError);
  });

  test('the shell wrapper is removed only when it is exactly one quoted script', () => {
    expect(unwrapShell(`/bin/bash -lc 'echo '\\''quoted'\\'''`)).toBe("echo 'quoted'");
    expect(unwrapShell('bash -lc ls')).toBe('bash -lc ls');
  });
});

describe('codex exec --json through the bin, resumed by the real claude', () => {
  test('the resumed conversation holds the prompt, the shell call, its output and the reply', async () => {
    const base = tempDir();
    const project = join(base, 'project');
    const config = join(base, 'claude');
    mkdirSync(project);
    const openai = await startMockOpenAI();
    const anthropic = await startMockAnthropic();
    try {
      writeCodexConfig(join(base, 'codex'), openai.url);
      openai.script(
        [{ type: 'function_call', call_id: 'call_hi', name: 'exec_command', arguments: { cmd: 'echo hi' } }],
        [{ type: 'message', text: 'The command printed hi.' }],
      );
      const codex = await runCodex({ codexHome: join(base, 'codex'), cwd: project, args: ['--dangerously-bypass-approvals-and-sandbox', 'Run echo hi.'] });
      expect(codex.code).toBe(0);
      const piped = await runBin(['--session-dir', `claude-code-cli=${config}`, '--prompt', 'Run echo hi.'], { input: codex.stdout, cwd: project });
      expect(piped.code).toBe(0);
      const resumed = await resumeWithClaude({ configDir: config, cwd: project, session: sessionOf(piped).session_id, baseUrl: anthropic.url });
      expect(resumed.code).toBe(0);
      const blocks = blocksOf(anthropic.requests.at(-1)!.body);
      const call = blocks.find((b) => b.block.type === 'tool_use');
      expect(blocks[0]).toEqual({ role: 'user', block: expect.objectContaining({ text: 'Run echo hi.' }) });
      expect(call?.block).toMatchObject({ name: 'Bash', input: { command: 'echo hi' } });
      const result = blocks.find((b) => b.block.type === 'tool_result');
      expect(result?.block.tool_use_id).toBe(call?.block.id);
      expect(resultText(result!.block)).toBe('hi\n');
      expect(blocks).toContainEqual({ role: 'assistant', block: expect.objectContaining({ type: 'text', text: 'The command printed hi.' }) });
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });
});
