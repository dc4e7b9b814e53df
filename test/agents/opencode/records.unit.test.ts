// The OpenCode writer's mapping of tool calls with literal events: a call that came from an OpenCode session
// (`native` naming `opencode`) is written as OpenCode recorded it (issue 36).
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../../lib/events.js';
import { OPENCODE } from '../../../lib/agents/opencode/index.js';
import { IdMinter } from '../../../lib/opencode-store/ids.js';
import { OpencodeMapper } from '../../../lib/opencode-store/records.js';

const T = '2026-11-29T10:00:00.000Z';

/** The tool parts `events` map to, through one fresh mapper. */
function toolParts(events: GenericEvent[]): any[] {
  const mapper = new OpencodeMapper({
    flavour: OPENCODE, sessionId: 'ses_1', directory: '/p', worktree: '/p', userModel: { providerID: 'opencode', modelID: 'm' }, ids: new IdMinter(() => 1796118000000),
  });
  for (const event of events) mapper.map(event);
  return JSON.parse(JSON.stringify(mapper.drain())).flatMap((m: any) => m.parts).filter((p: any) => p.type === 'tool');
}

describe('calls as OpenCode recorded them (native)', () => {
  test('a call whose native is OpenCode\'s is written with its tool name and input; its result matches by callID', () => {
    const parts = toolParts([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native: { format: 'opencode', name: 'bash', arguments: { command: 'ls', description: 'list' } }, timestamp: T },
      { type: 'tool_result', id: 'c1', content: 'a.txt', is_error: false, timestamp: T },
    ]);
    expect(parts).toMatchObject([{ tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'ls', description: 'list' }, output: 'a.txt', title: 'bash' } }]);
  });

  test('a call whose native names another agent is written with the generic name and input', () => {
    const parts = toolParts([
      { type: 'user', text: 'go', timestamp: T },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' }, native: { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls' } }, timestamp: T },
    ]);
    expect(parts).toMatchObject([{ tool: 'Bash', state: { input: { command: 'ls' } } }]);
  });
});
