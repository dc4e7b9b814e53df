// The Codex rollout reader keeps a call it renames as Codex recorded it (`native`), so a Codex writer can write
// it back; a call it keeps as it is carries no `native` (issue 36).
import { describe, expect, test } from 'vitest';
import { mapValues } from '../../input/support.js';

const FORMAT = 'codex-rollout';
const call = (payload: object) => ({ timestamp: '2026-11-29T10:00:00.000Z', type: 'response_item', payload: { type: 'function_call', ...payload } });

describe('codex rollout calls as Codex recorded them', () => {
  test('exec_command read as Bash keeps every argument Codex gave it in native', () => {
    const args = { cmd: 'make', workdir: '/p', yield_time_ms: 1000, max_output_tokens: 6000 };
    const { events } = mapValues(FORMAT, [call({ name: 'exec_command', arguments: JSON.stringify(args), call_id: 'c1' })]);
    expect(events).toEqual([{
      type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'make', workdir: '/p' },
      native: { format: 'codex-cli', name: 'exec_command', arguments: args }, timestamp: '2026-11-29T10:00:00.000Z',
    }]);
  });

  test.each(['shell', 'shell_command', 'container.exec'])('the older %s tool read as Bash keeps its own name and argv in native', (name) => {
    const args = { command: ['bash', '-lc', 'ls -la'], workdir: '/p' };
    const { events } = mapValues(FORMAT, [call({ name, arguments: JSON.stringify(args), call_id: 'c' })]);
    expect(events[0]).toMatchObject({ name: 'Bash', arguments: { command: 'ls -la' }, native: { format: 'codex-cli', name, arguments: args } });
  });

  test('update_plan read as TodoWrite keeps its plan in native', () => {
    const args = { explanation: 'why', plan: [{ step: 'write', status: 'in_progress' }] };
    const { events } = mapValues(FORMAT, [call({ name: 'update_plan', arguments: JSON.stringify(args), call_id: 'p' })]);
    expect(events[0]).toMatchObject({ name: 'TodoWrite', native: { format: 'codex-cli', name: 'update_plan', arguments: args } });
  });

  test('a call kept as it is has no native', () => {
    const { events } = mapValues(FORMAT, [call({ name: 'view_image', arguments: '{"path":"a.png"}', call_id: 'v' })]);
    expect(events[0]).toEqual({ type: 'tool_call', id: 'v', name: 'view_image', arguments: { path: 'a.png' }, timestamp: '2026-11-29T10:00:00.000Z' });
  });

  test('a namespaced MCP call has no native: it has no place for the namespace, and the joined name is written back', () => {
    const { events } = mapValues(FORMAT, [call({ namespace: 'mcp__demo', name: 'echo', arguments: '{"text":"x"}', call_id: 'm' })]);
    expect(events[0]).not.toHaveProperty('native');
  });

  test('a command result keeps Codex\'s own output text, which a Codex writer writes back as it was', () => {
    const output = 'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nhi\n';
    const { events } = mapValues(FORMAT, [
      call({ name: 'exec_command', arguments: '{"cmd":"echo hi"}', call_id: 'c' }),
      { timestamp: '2026-11-29T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c', output } },
    ]);
    expect(events[1]).toMatchObject({ type: 'tool_result', id: 'c', content: output });
  });
});
