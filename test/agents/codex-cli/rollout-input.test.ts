import { describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../lib/input/types.js';
import { startMockAnthropic } from '../../support/mock-anthropic.js';
import { startMockOpenAI, writeCodexConfig } from '../../support/mock-openai.js';
import { resumeWithClaude, runBin, runCodex, sessionOf, tempDir } from '../../support/run.js';
import { blocksOf, goldenCases, mapFixtureFile, mapValues, resultText } from '../../input/support.js';

const FORMAT = 'codex-rollout';
let clock = 0;
/** One rollout line, with increasing timestamps. */
const line = (type: string, payload: object) => ({
  timestamp: new Date(Date.UTC(2026, 10, 29, 10, 0, clock++)).toISOString(), type, payload,
});
const item = (payload: object) => line('response_item', payload);
const msg = (payload: object) => line('event_msg', payload);
const meta = line('session_meta', { id: '01a2295c-0000-7000-8000-000000000001', timestamp: '2026-11-29T10:00:00.000Z', cwd: '/home/user/project', originator: 'codex_exec', cli_version: '0.171.0' });
const userText = (text: string, kinds?: string[]) => item({
  type: 'message', role: 'user', content: [{ type: 'input_text', text }],
  ...(kinds ? { internal_chat_message_metadata_passthrough: { content_item_kinds: kinds } } : {}),
});
const total = (input: number, output: number) => msg({
  type: 'token_count',
  info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output } },
});
const reply = (text: string) => item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

describe('codex rollout fixtures', () => {
  test.each(goldenCases('codex-rollout'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile(FORMAT, file)).toEqual(golden);
  });
});

describe('codex rollout mapping', () => {
  test('session_meta gives the project directory', () => {
    expect(mapValues(FORMAT, [meta]).adapter.facts()).toEqual({ cwd: '/home/user/project' });
  });

  test('every event keeps the timestamp of its rollout line', () => {
    const input = reply('hi');
    expect(mapValues(FORMAT, [input]).events[0]!.timestamp).toBe(input.timestamp);
  });

  test('developer messages and environment context become context events; what the user typed is the user turn', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>...' }] }),
      userText('<environment_context>\n  <cwd>/p</cwd>\n</environment_context>'),
      userText('<environment_context>labelled</environment_context>', ['environments.environment_context']),
      // A label wins over the text: this one is what the user typed, though it looks like context.
      userText('<environment_context> is a tag I want explained', ['user.text']),
      userText('# AGENTS.md instructions for /p\n<INSTRUCTIONS>be nice</INSTRUCTIONS>'),
      userText('fix the bug', ['user.text']),
    ]);
    expect(events.map((e) => (e.type === 'context' ? `context:${e.kind}` : `${e.type}:${(e as { text: string }).text}`))).toEqual([
      'context:instructions', 'context:environment', 'context:environment',
      'user:<environment_context> is a tag I want explained', 'context:environment', 'user:fix the bug',
    ]);
  });

  test('a user image given as a data URL becomes an image of the user turn', () => {
    const { events } = mapValues(FORMAT, [item({
      type: 'message', role: 'user',
      content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0=' }],
    })]);
    expect(events[0]).toMatchObject({ type: 'user', text: 'look', images: [{ media_type: 'image/png', data: 'iVBORw0=' }] });
  });

  test('exec_command becomes Bash, and its output is an error when the process exited non-zero', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"make","workdir":"/p"}', call_id: 'call_1' }),
      item({ type: 'function_call_output', call_id: 'call_1', output: 'Chunk ID: 1\nProcess exited with code 2\nOutput:\nboom\n' }),
    ]);
    expect(events).toMatchObject([
      { type: 'tool_call', id: 'call_1', name: 'Bash', arguments: { command: 'make', workdir: '/p' } },
      { type: 'tool_result', id: 'call_1', is_error: true },
    ]);
  });

  test('the older shell tool with an argv command becomes one Bash command line', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'ls -la'] }), call_id: 'c' }),
      item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['grep', '-r', 'a b', '.'] }), call_id: 'd' }),
    ]);
    expect(events.map((e) => (e as { arguments: { command: string } }).arguments.command)).toEqual(['ls -la', "grep -r 'a b' ."]);
  });

  test('older JSON-wrapped command output is unwrapped and its exit code decides the error flag', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'c' }),
      item({ type: 'function_call_output', call_id: 'c', output: JSON.stringify({ output: 'nope', metadata: { exit_code: 1, duration_seconds: 0 } }) }),
    ]);
    expect(events[1]).toMatchObject({ type: 'tool_result', content: 'nope', is_error: true });
  });

  test('update_plan becomes TodoWrite with the plan\'s steps', () => {
    const { events } = mapValues(FORMAT, [item({
      type: 'function_call', name: 'update_plan', call_id: 'p',
      arguments: JSON.stringify({ plan: [{ step: 'write', status: 'in_progress' }, { step: 'test', status: 'pending' }] }),
    })]);
    expect(events[0]).toMatchObject({
      name: 'TodoWrite',
      arguments: { todos: [{ content: 'write', status: 'in_progress', activeForm: 'write' }, { content: 'test', status: 'pending', activeForm: 'test' }] },
    });
  });

  test('a custom apply_patch call keeps its patch text as input', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', call_id: 'x' }),
      item({ type: 'custom_tool_call_output', call_id: 'x', output: 'Success.' }),
    ]);
    expect(events).toMatchObject([
      { type: 'tool_call', name: 'apply_patch', arguments: { input: '*** Begin Patch\n*** End Patch' } },
      { type: 'tool_result', id: 'x', content: 'Success.', is_error: false },
    ]);
  });

  test('a namespaced MCP call is named mcp__server__tool and Codex\'s failed status marks its output', () => {
    const { events } = mapValues(FORMAT, [
      item({ type: 'function_call', namespace: 'mcp__demo', name: 'echo', arguments: '{"text":"x"}', call_id: 'm' }),
      msg({ type: 'item_completed', item: { type: 'McpToolCall', id: 'm', status: 'failed' } }),
      item({ type: 'function_call_output', call_id: 'm', output: [{ type: 'input_text', text: 'refused' }] }),
    ]);
    expect(events).toMatchObject([
      { type: 'tool_call', name: 'mcp__demo__echo', arguments: { text: 'x' } },
      { type: 'tool_result', content: [{ type: 'text', text: 'refused' }], is_error: true },
    ]);
  });

  test('a web search call becomes a WebSearch call with a result saying the results were not kept', () => {
    const { events } = mapValues(FORMAT, [item({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } })]);
    expect(events).toMatchObject([
      { type: 'tool_call', id: 'ws_1', name: 'WebSearch', arguments: { query: 'q' } },
      { type: 'tool_result', id: 'ws_1', is_error: false },
    ]);
  });

  test('reasoning summaries become unsigned thinking', () => {
    const { events } = mapValues(FORMAT, [item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: 'b' }], encrypted_content: 'gAAA' })]);
    expect(events).toMatchObject([{ type: 'thinking', text: 'a\n\nb' }]);
    expect(events[0]).not.toHaveProperty('signature');
  });

  test('each turn\'s usage is the difference of the running totals, on the turn\'s last reply', () => {
    const { events } = mapValues(FORMAT, [
      userText('one'), reply('r1'), total(100, 10), msg({ type: 'task_complete' }),
      userText('two'), reply('r2a'), total(150, 15), reply('r2b'), total(250, 25), msg({ type: 'task_complete' }),
    ]);
    const usages = events.filter((e) => e.type === 'assistant').map((e) => (e as { usage?: { input_tokens: number } }).usage?.input_tokens);
    expect(usages).toEqual([100, undefined, 150]);
  });

  test('a compacted line becomes a compaction with Codex\'s summary', () => {
    const { events } = mapValues(FORMAT, [line('compacted', { message: 'We fixed the parser; tests pass.' })]);
    expect(events).toMatchObject([{ type: 'compaction', summary: 'We fixed the parser; tests pass.' }]);
  });

  test('a turn that failed is reported with Codex\'s message', () => {
    const { warnings } = mapValues(FORMAT, [msg({ type: 'task_complete', error: { message: 'context window exceeded' } })]);
    expect(warnings).toEqual(['line 1: codex turn failed: context window exceeded']);
  });

  test('UI notifications that repeat response items write nothing', () => {
    const { events, warnings } = mapValues(FORMAT, [
      msg({ type: 'user_message', message: 'hi', images: [] }), msg({ type: 'agent_message', message: 'hello' }),
      line('turn_context', { cwd: '/p' }), line('world_state', {}), line('token_usage_record', {}),
    ]);
    expect(events).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test('an unknown line type is reported once per type', () => {
    const { warnings } = mapValues(FORMAT, [line('hologram', {}), line('hologram', {}), line('mirage', {})]);
    expect(warnings).toHaveLength(2);
  });

  test('a line with an unreadable timestamp is rejected', () => {
    expect(() => mapValues(FORMAT, [{ timestamp: 'yesterday', type: 'response_item', payload: {} }])).toThrow(InputError);
  });
});

function rolloutOf(codexHome: string): string {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  return walk(join(codexHome, 'sessions')).find((f) => f.endsWith('.jsonl'))!;
}

describe('a real Codex rollout through the bin, resumed by the real claude', () => {
  test('both turns of a resumed Codex session reach the model, with the shell calls and their outputs', async () => {
    const base = tempDir();
    const project = join(base, 'project');
    const codexHome = join(base, 'codex');
    const config = join(base, 'claude');
    mkdirSync(project);
    const openai = await startMockOpenAI();
    const anthropic = await startMockAnthropic();
    try {
      writeCodexConfig(codexHome, openai.url);
      openai.script(
        [{ type: 'function_call', call_id: 'call_make', name: 'exec_command', arguments: { cmd: 'printf x > a.txt && ls' } }],
        [{ type: 'message', text: 'Created a.txt.' }],
        [{ type: 'function_call', call_id: 'call_cat', name: 'exec_command', arguments: { cmd: 'cat a.txt' } }],
        [{ type: 'message', text: 'a.txt holds x.' }],
      );
      const first = await runCodex({ codexHome, cwd: project, args: ['--dangerously-bypass-approvals-and-sandbox', 'Create a.txt holding x.'] });
      const thread = JSON.parse(first.stdout.split('\n')[0]!).thread_id as string;
      const second = await runCodex({ codexHome, cwd: project, args: ['--dangerously-bypass-approvals-and-sandbox', 'resume', thread, 'Show it.'] });
      expect([first.code, second.code]).toEqual([0, 0]);
      // The rollout names its own cwd, so the session lands there without --cwd, wherever the bin runs.
      const piped = await runBin(['--session-dir', `claude-code-cli=${config}`, '--from', 'codex-rollout'], { input: readFileSync(rolloutOf(codexHome)), cwd: base });
      expect(piped.code).toBe(0);
      const resumed = await resumeWithClaude({ configDir: config, cwd: project, session: sessionOf(piped).session_id, baseUrl: anthropic.url });
      expect(resumed.code).toBe(0);
      const blocks = blocksOf(anthropic.requests.at(-1)!.body);
      const texts = blocks.filter((b) => b.block.type === 'text').map((b) => `${b.role}: ${b.block.text}`);
      expect(texts).toEqual(expect.arrayContaining(['user: Create a.txt holding x.', 'assistant: Created a.txt.', 'user: Show it.', 'assistant: a.txt holds x.']));
      expect(texts.some((t) => t.includes('environment_context'))).toBe(false);
      const calls = blocks.filter((b) => b.block.type === 'tool_use').map((b) => b.block);
      expect(calls.map((c) => [c.name, c.input.command])).toEqual([['Bash', 'printf x > a.txt && ls'], ['Bash', 'cat a.txt']]);
      const results = blocks.filter((b) => b.block.type === 'tool_result').map((b) => b.block);
      expect(results.map((r) => r.tool_use_id)).toEqual(calls.map((c) => c.id));
      expect(resultText(results[1])).toMatch(/Output:\nx$/);
    } finally {
      await openai.close();
      await anthropic.close();
    }
  });
});
