// Real client: sessions holding monitor events are resumed by the real `claude` against the loopback mock;
// the request it sends carries each notification, rendered as Claude Code renders it, after the right turn.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRE } from '../../lib/monitor/notification.js';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { resumeWithClaude, runBin, sessionOf, tempDir } from '../support/run.js';
import { args, ev, start, story, until } from './live-bin.js';

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

/** Every text block of the last request, in order, with its role (string contents count as one block). */
function blocks(): { role: string; text: string }[] {
  const body = mock.requests.at(-1)!.body;
  return body.messages.flatMap((m: any) => (typeof m.content === 'string'
    ? [{ role: m.role, text: m.content }]
    : m.content.filter((b: any) => b.type === 'text').map((b: any) => ({ role: m.role, text: b.text }))));
}

/** The reminder Claude Code sends for one notification: the normal preamble and the XML. */
const reminder = (xml: string) => `<system-reminder>\n${PRE}\n\n${xml}\n</system-reminder>`;

/** Index of the block equal to `text` (a trailing newline Claude adds when it merges blocks is ignored). */
function indexOf(list: { role: string; text: string }[], text: string): number {
  return list.findIndex((b) => b.text.replace(/\n$/, '') === text);
}

async function resume(root: string, session: string) {
  const cwd = tempDir();
  // Resume by path: the session was written for /home/user/project, which does not exist here.
  const r = await resumeWithClaude({ configDir: root, cwd, session: session, baseUrl: mock.url });
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe('resumed-ok');
  return blocks();
}

describe('resuming sessions with monitor events in the real claude', () => {
  test('notifications from the event stream are sent after the turn they followed, before the next one', async () => {
    const root = tempDir();
    const r = await runBin(args(root), { input: [
      ev({ type: 'user', text: 'Start watching the build.' }),
      ev({ type: 'assistant', text: 'Watching it.' }),
      ev({ type: 'monitor_event', event: 'step 1 & <ok>', description: 'build', task_id: 'bbuild001' }),
      ev({ type: 'monitor_end', exit_code: 2, description: 'build', task_id: 'bbuild001' }),
      ev({ type: 'user', text: 'And now?' }),
      ev({ type: 'assistant', text: 'It failed.' }),
      ev({ type: 'monitor_event', event: 'late line', description: 'deploy', task_id: 'bdeploy01', note: 'Reply exactly NO_REPLY' }),
    ].join('') });
    const list = await resume(root, sessionOf(r).session_file);
    const at = (text: string) => indexOf(list, text);
    const e1 = at(reminder('<task-notification>\n<task-id>bbuild001</task-id>\n<summary>Monitor event: "build"</summary>\n<event>step 1 &amp; &lt;ok&gt;</event>\n</task-notification>'));
    const end = at(reminder('<task-notification>\n<task-id>bbuild001</task-id>\n<status>failed</status>\n<summary>Monitor "build" script failed (exit 2)</summary>\n</task-notification>'));
    const e2 = at(reminder('<task-notification>\n<task-id>bdeploy01</task-id>\n<summary>Monitor event: "deploy"</summary>\n<event>late line</event>\nReply exactly NO_REPLY\n</task-notification>'));
    const order = [at('Start watching the build.'), at('Watching it.'), e1, end, at('And now?'), at('It failed.'), e2, at('Reply with exactly: resumed-ok')];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect([e1, end, e2].map((i) => list[i]!.role)).toEqual(['user', 'user', 'user']);
  });

  test('a session written by --monitor with a real command resumes with its events and its end', async () => {
    const root = tempDir();
    const dir = tempDir();
    const live = start(args(root, '--monitor', 'while [ ! -f go ]; do sleep 0.02; done; echo "tests passed: 12"', '--monitor-description', 'npm test'), dir);
    const file = await live.session;
    live.child.stdin.write(ev({ type: 'user', text: 'Run the tests in the background.' }) + ev({ type: 'assistant', text: 'Started them.' }));
    await until(() => story(file).includes('assistant:Started them.'));
    writeFileSync(join(dir, 'go'), '');
    await until(() => story(file).some((l) => l.startsWith('end:')));
    live.child.stdin.end();
    expect((await live.exit).code).toBe(0);

    const list = await resume(root, file);
    const event = list.findIndex((b) => b.text.includes('<summary>Monitor event: "npm test"</summary>\n<event>tests passed: 12</event>'));
    const end = list.findIndex((b) => b.text.includes('<status>completed</status>\n<summary>Monitor "npm test" stream ended</summary>'));
    expect(indexOf(list, 'Started them.')).toBeLessThan(event);
    expect(event).toBeLessThan(end);
    expect(end).toBeLessThan(indexOf(list, 'Reply with exactly: resumed-ok'));
    expect(list[event]!.text.startsWith(`<system-reminder>\n${PRE}\n\n<task-notification>\n<task-id>b`)).toBe(true);
  });
});
