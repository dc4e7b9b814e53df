// Round trip: generic events -> the codex-cli harness (the built bin) -> the codex-rollout input adapter
// (what `--from codex-rollout` reads) -> generic events. What a rollout can carry comes back as it went in;
// what it cannot (thinking, is_error, monitor events) comes back as documented.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { findInputFormat } from '../../../lib/agents/input-formats.js';
import { runBin, sessionOf, tempDir } from '../../support/run.js';
import { ev, writeCodexSession } from './support.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const at = (s: number) => `2026-11-29T10:00:${String(s).padStart(2, '0')}.000Z`;

/** Write `events` with the bin, read the rollout back with the codex-rollout adapter. */
async function roundTrip(events: GenericEvent[]): Promise<{ events: GenericEvent[]; warnings: string[]; file: string }> {
  const { file } = await writeCodexSession(events.map(ev).join(''), '/home/user/project', tempDir());
  const adapter = findInputFormat('codex-rollout')!.create();
  const warnings: string[] = [];
  const out: GenericEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line !== '') out.push(...adapter.map(JSON.parse(line), '2000-01-01T00:00:00.000Z', (m) => warnings.push(m)));
  }
  out.push(...adapter.end('2000-01-01T00:00:00.000Z', (m) => warnings.push(m)));
  return { events: out, warnings, file };
}

describe('events -> codex-cli -> codex-rollout -> events', () => {
  test('user turns, images, assistant text, tool calls and results, turn usage and compaction come back unchanged', async () => {
    const usage = (input: number, read: number, output: number) => ({
      input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: 0, output_tokens: output,
    });
    const events: GenericEvent[] = [
      { type: 'user', text: 'List the files.', timestamp: at(1) },
      { type: 'assistant', text: 'Listing them.', timestamp: at(2) },
      { type: 'tool_call', id: 'call_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(3) },
      { type: 'tool_result', id: 'call_ls', content: 'a.txt\nb.txt', is_error: false, timestamp: at(4) },
      { type: 'assistant', text: 'Two files.', usage: usage(10, 100, 5), timestamp: at(5) },
      { type: 'user', text: 'Look at the page.', images: [{ media_type: 'image/png', data: PNG }], timestamp: at(6) },
      { type: 'tool_call', id: 'call_shot', name: 'mcp__browser__screenshot', arguments: { url: 'http://localhost:3000' }, timestamp: at(7) },
      { type: 'tool_result', id: 'call_shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: false, timestamp: at(8) },
      { type: 'assistant', text: 'It renders.', usage: usage(20, 0, 2), timestamp: at(9) },
      { type: 'user', text: 'Summarise.', timestamp: at(10) },
      { type: 'compaction', summary: 'We listed files and looked at the page.', timestamp: at(11) },
      { type: 'assistant', text: 'Summarised.', timestamp: at(12) },
    ];
    const back = await roundTrip(events);
    expect(back.warnings).toEqual([]);
    expect(back.events).toEqual(events);
  });

  test('thinking is not written, is_error is lost, and a monitor event comes back as the developer context the model saw', async () => {
    const back = await roundTrip([
      { type: 'user', text: 'Run it.', timestamp: at(1) },
      { type: 'thinking', text: 'I will run it.', signature: 'sig', timestamp: at(2) },
      { type: 'tool_call', id: 'call_x', name: 'Bash', arguments: { command: 'false' }, timestamp: at(3) },
      { type: 'tool_result', id: 'call_x', content: 'failed', is_error: true, timestamp: at(4) },
      { type: 'monitor_event', event: 'build ok', description: 'watch', task_id: 'bk3v9q2xa', timestamp: at(5) },
    ]);
    expect(back.events).toEqual([
      { type: 'user', text: 'Run it.', timestamp: at(1) },
      { type: 'tool_call', id: 'call_x', name: 'Bash', arguments: { command: 'false' }, timestamp: at(3) },
      { type: 'tool_result', id: 'call_x', content: 'failed', is_error: false, timestamp: at(4) },
      {
        type: 'context', kind: 'instructions', subtype: 'developer', timestamp: at(5),
        text: `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<summary>Monitor event: "watch"</summary>\n<event>build ok</event>\n</task-notification>`,
      },
    ]);
  });

  test('the model a written turn_context names does not come back (Codex model names are not passed on)', async () => {
    const events: GenericEvent[] = [
      { type: 'user', text: 'q', timestamp: at(1) },
      { type: 'assistant', text: 'a', model: 'model-a', timestamp: at(2) },
    ];
    const back = await roundTrip(events);
    expect(readFileSync(back.file, 'utf8')).toContain('"type":"turn_context"');
    expect(back.events).toEqual([events[0], { type: 'assistant', text: 'a', timestamp: at(2) }]);
  });

  test('the bin reads a written rollout with --from codex-rollout without a complaint, into the session cwd', async () => {
    const { file } = await writeCodexSession([
      ev({ type: 'user', text: 'q' }),
      ev({ type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' } }),
      ev({ type: 'tool_result', id: 'c1', content: 'a' }),
      ev({ type: 'assistant', text: 'a', usage: { input_tokens: 1, output_tokens: 1 } }),
    ].join(''), '/home/user/project', tempDir());
    const claudeRoot = tempDir();
    const r = await runBin(['--from', 'codex-rollout', '--session-dir', `claude-code-cli=${claudeRoot}`], { input: readFileSync(file) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sessionOf(r).session_file).toContain('/projects/-home-user-project/');
  });
});
