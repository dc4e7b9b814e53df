// The conversation the OpenCode and Kilo resume tests write with the bin and have the real CLI continue
// (test/agents/opencode/resume.test.ts, test/agents/kilo/kilo.test.ts): a turn with thinking, usage, two parallel
// calls (one failing), a monitor event, and a call left without a result; and what the CLI must send of it, in
// order, as the StoreCli's `conversation` gives it.
import { PRE } from '../../lib/monitor/notification.js';
import { ev } from './growing-source.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, second)).toISOString();

export const STREAM = [
  ev({ type: 'user', text: 'Check the build please.', timestamp: at(0) }),
  ev({ type: 'thinking', text: 'I will read the log and list the files.', timestamp: at(1) }),
  ev({ type: 'assistant', text: 'Checking.', usage: { input_tokens: 120, output_tokens: 8 }, timestamp: at(1) }),
  ev({ type: 'tool_call', id: 'c_read', name: 'Read', arguments: { file_path: 'build.log' }, timestamp: at(2) }),
  ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(2) }),
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt', timestamp: at(3) }),
  ev({ type: 'tool_result', id: 'c_read', content: 'ENOENT: build.log', is_error: true, timestamp: at(3) }),
  ev({ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 'bk3v9q2xa', timestamp: at(4) }),
  ev({ type: 'assistant', text: 'The log is missing; there are two files.', timestamp: at(5) }),
  ev({ type: 'user', text: 'Run the tests.', timestamp: at(6) }),
  ev({ type: 'tool_call', id: 'c_hang', name: 'Bash', arguments: { command: 'npm test' }, timestamp: at(7) }),
].join('');

const NOTIFICATION = `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<summary>Monitor event: "npm run watch"</summary>\n<event>build ok</event>\n</task-notification>`;

export const EXPECTED = [
  { role: 'user', text: 'Check the build please.' },
  { role: 'assistant', text: 'Checking.', reasoning: 'I will read the log and list the files.',
    calls: [['c_read', 'Read', { file_path: 'build.log' }], ['c_ls', 'Bash', { command: 'ls' }]] },
  { role: 'tool', text: 'ENOENT: build.log', result: 'c_read' },
  { role: 'tool', text: 'a.txt\nb.txt', result: 'c_ls' },
  { role: 'user', text: NOTIFICATION },
  { role: 'assistant', text: 'The log is missing; there are two files.' },
  { role: 'user', text: 'Run the tests.' },
  { role: 'assistant', calls: [['c_hang', 'Bash', { command: 'npm test' }]] },
  { role: 'tool', text: '[Tool execution was interrupted]', result: 'c_hang' },
  { role: 'user', text: 'Reply with exactly: resumed-ok' },
];
