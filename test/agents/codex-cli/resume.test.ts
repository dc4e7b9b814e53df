// The tests that prove the Codex harness: the real `codex` resumes the rollouts the built bin wrote (by id,
// and with --last from the session's cwd) and sends the conversation to a loopback Responses API mock; one
// stream into both harnesses leaves two sessions that resume in their own CLIs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PRE } from '../../../lib/monitor/notification.js';
import { codexCli } from '../../../lib/agents/codex-cli/harness.js';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { startMockOpenAI, type MockOpenAI } from '../../support/mock-openai.js';
import { FIXTURES, cleanEnv, flatten, resumeWithClaude, runBin, sessionOf, tempDir } from '../../support/run.js';
import {
  PROMPT_ITEM, codexHome, conversation, ev, resumeWithCodex, rolloutLines, writeCodexSession,
} from './support.js';

let openai: MockOpenAI;
let anthropic: MockAnthropic;
beforeAll(async () => {
  openai = await startMockOpenAI();
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const TOOL_TURN = [
  ev({ type: 'user', text: 'List the files.' }),
  ev({ type: 'tool_call', id: 'call_ls', name: 'exec_command', arguments: { cmd: 'ls' } }),
  ev({ type: 'tool_result', id: 'call_ls', content: 'a.txt\nb.txt' }),
  ev({ type: 'assistant', text: 'There are two files.' }),
].join('');

const TOOL_TURN_ITEMS = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
  { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_ls' },
  { type: 'function_call_output', call_id: 'call_ls', output: 'a.txt\nb.txt' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'There are two files.' }] },
];

describe('real codex exec resume', () => {
  test('resuming by id sends the user text, the function call, its output and the assistant text, then the prompt', async () => {
    const cwd = tempDir();
    const home = codexHome(openai);
    const { session } = await writeCodexSession(TOOL_TURN, cwd, home);
    const { input, events } = await resumeWithCodex(openai, home, cwd, [session, 'Reply with exactly: resumed-ok']);
    expect(conversation(input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
    expect(events[0]).toEqual({ type: 'thread.started', thread_id: session });
  });

  test('an unknown tool name, image results, user images and monitor notifications all reach the model in place', async () => {
    const cwd = tempDir();
    const home = codexHome(openai);
    const { session } = await writeCodexSession([
      ev({ type: 'user', text: 'Look at the page.', images: [{ media_type: 'image/png', data: PNG }] }),
      ev({ type: 'tool_call', id: 'toolu_shot', name: 'mcp__browser__screenshot', arguments: { url: 'http://localhost:3000' } }),
      ev({ type: 'tool_result', id: 'toolu_shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', media_type: 'image/png', data: PNG }] }),
      ev({ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 'bk3v9q2xa' }),
      ev({ type: 'assistant', text: 'The page renders.' }),
    ].join(''), cwd, home);
    const { input } = await resumeWithCodex(openai, home, cwd, [session, 'Reply with exactly: resumed-ok']);
    expect(conversation(input)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look at the page.' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
      { type: 'function_call', name: 'mcp__browser__screenshot', arguments: '{"url":"http://localhost:3000"}', call_id: 'toolu_shot' },
      { type: 'function_call_output', call_id: 'toolu_shot', output: [{ type: 'input_text', text: 'captured' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: `${PRE}\n\n<task-notification>\n<task-id>bk3v9q2xa</task-id>\n<summary>Monitor event: "npm run watch"</summary>\n<event>build ok</event>\n</task-notification>` }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The page renders.' }] },
      PROMPT_ITEM,
    ]);
  });

  test('the golden conversation resumes from its compaction summary on, with its token totals', async () => {
    const cwd = tempDir();
    const home = codexHome(openai);
    const { session } = await writeCodexSession(readFileSync(join(FIXTURES, 'codex-cli', 'conversation.events.ndjson'), 'utf8'), cwd, home);
    const { input, events } = await resumeWithCodex(openai, home, cwd, [session, 'Reply with exactly: resumed-ok']);
    expect(conversation(input)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'The user asked what is in the project; it holds README.md and package.json.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And the image?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '[Tool result for call toolu_gone (error); no matching tool call was recorded]\nlate output' }] },
      { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"false"}', call_id: 'call_fail' },
      { type: 'function_call_output', call_id: 'call_fail', output: 'exit 1' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A screenshot of the app.' }] },
      PROMPT_ITEM,
    ]);
    // Codex reports the thread's running totals: the mock's 100 input / 10 output tokens on top of ours.
    const usage = events.find((e) => e.type === 'turn.completed').usage;
    expect(usage).toMatchObject({ input_tokens: 2770 + 100, cached_input_tokens: 2200, output_tokens: 90 + 10 });
  });

  test('codex reads the turn_context back: a session of another model makes it say the model switched, one of its own model does not', async () => {
    const cwd = tempDir();
    const home = codexHome(openai);
    /** Whether codex told its model that the session was another model's (it does so from the last turn_context it read). */
    const switched = (input: any[]) => input.some((item) => item.role === 'developer' && JSON.stringify(item.content).includes('<model_switch>'));
    const other = await writeCodexSession(TOOL_TURN, cwd, home, ['--model', 'gpt-5.1-codex']);
    expect(rolloutLines(other.file).filter((l) => l.type === 'turn_context').map((l) => l.payload.model)).toEqual(['gpt-5.1-codex']);
    const fromOther = await resumeWithCodex(openai, home, cwd, [other.session, 'Reply with exactly: resumed-ok']);
    expect(switched(fromOther.input)).toBe(true);
    expect(conversation(fromOther.input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
    // The config's model (mock-model) named by the events themselves: nothing switched.
    const own = await writeCodexSession(TOOL_TURN.replace('"type":"assistant"', '"type":"assistant","model":"mock-model"'), cwd, home);
    expect(rolloutLines(own.file).filter((l) => l.type === 'turn_context').map((l) => l.payload.model)).toEqual(['mock-model']);
    const fromOwn = await resumeWithCodex(openai, home, cwd, [own.session, 'Reply with exactly: resumed-ok']);
    expect(switched(fromOwn.input)).toBe(false);
    expect(conversation(fromOwn.input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
  });

  test('a converted log is filed under its first event\'s local date and time, names its model, and resume --last finds it', async () => {
    const cwd = tempDir();
    const home = codexHome(openai);
    // A session of the same directory started (today) after the converted one (2025), but last written an hour
    // ago: --last picks the session written last, not the one started last.
    const live = await writeCodexSession(ev({ type: 'user', text: 'A live session written first.' }), cwd, home);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(live.file, anHourAgo, anHourAgo);
    const log = join(tempDir(), 'agent.ndjson');
    writeFileSync(log, TOOL_TURN.split('\n').filter((l) => l !== '')
      .map((l, i) => ev({ ...JSON.parse(l), timestamp: `2025-03-04T23:30:0${i}.000Z` })).join(''));
    const r = await runBin(['convert', log, '--cwd', cwd, '--session-format', 'codex-cli', '--session-dir', `codex-cli=${home}`, '--model', 'gpt-5.1-codex'], {
      env: cleanEnv({ TZ: 'Asia/Tokyo' }),
    });
    expect(r.code).toBe(0);
    const { session_id: session, session_file: file } = JSON.parse(r.stdout.trim()).harnesses[0];
    // 23:30 UTC on March 4th is 08:30 on March 5th in Tokyo, where Codex would have filed it.
    expect(relative(home, file)).toBe(join('sessions', '2025', '03', '05', `rollout-2025-03-05T08-30-00-${session}.jsonl`));
    const lines = rolloutLines(file);
    expect(lines[0]).toMatchObject({ type: 'session_meta', timestamp: '2025-03-04T23:30:00.000Z', payload: { id: session, timestamp: '2025-03-04T23:30:00.000Z' } });
    expect(lines.filter((l) => l.type === 'turn_context').map((l) => l.payload.model)).toEqual(['gpt-5.1-codex']);
    const { input, events } = await resumeWithCodex(openai, home, cwd, ['--last', 'Reply with exactly: resumed-ok']);
    expect(events[0]).toEqual({ type: 'thread.started', thread_id: session });
    expect(conversation(input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
  });

  test('resume --last run from a session cwd finds the session written for that directory', async () => {
    const home = codexHome(openai);
    const cwd = tempDir();
    const other = tempDir();
    await writeCodexSession(TOOL_TURN, cwd, home);
    await writeCodexSession(ev({ type: 'user', text: 'A newer session in another directory.' }), other, home);
    const { input } = await resumeWithCodex(openai, home, cwd, ['--last', 'Reply with exactly: resumed-ok']);
    expect(conversation(input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
    const fromOther = await resumeWithCodex(openai, home, other, ['--last', 'Reply with exactly: resumed-ok']);
    expect(conversation(fromOther.input)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'A newer session in another directory.' }] },
      PROMPT_ITEM,
    ]);
  });

  test('a resume while the session is still written: later lines follow the resumed turn, and the next resume sees all', async () => {
    const home = codexHome(openai);
    const cwd = tempDir();
    const warnings: string[] = [];
    const harness = codexCli.create({ root: home, cwd, warn: (m) => warnings.push(m) });
    const T = '2026-11-29T10:00:00.000Z';
    harness.add({ type: 'user', text: 'First question.', timestamp: T }, 'stdin:1');
    harness.add({ type: 'assistant', text: 'First answer.', timestamp: T }, 'stdin:2');
    harness.flush();
    await resumeWithCodex(openai, home, cwd, [harness.sessionId, 'Reply with exactly: resumed-ok']);
    harness.add({ type: 'user', text: 'Second question.', timestamp: T }, 'stdin:3');
    harness.add({ type: 'assistant', text: 'Second answer.', usage: { input_tokens: 5, output_tokens: 1 }, timestamp: T }, 'stdin:4');
    harness.flush();
    harness.add({ type: 'user', text: 'Third question.', timestamp: T }, 'stdin:5');
    harness.finish();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn session\.foreign_append: /);
    const { input, events } = await resumeWithCodex(openai, home, cwd, [harness.sessionId, 'Reply with exactly: resumed-ok']);
    const said = (role: string, text: string) => ({ type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
    expect(conversation(input)).toEqual([
      said('user', 'First question.'), said('assistant', 'First answer.'),
      PROMPT_ITEM, said('assistant', 'resumed-ok'),
      said('user', 'Second question.'), said('assistant', 'Second answer.'),
      said('user', 'Third question.'),
      PROMPT_ITEM,
    ]);
    // Our total went on from the first resume's (100 in, 10 out), then the second resume added its own.
    expect(events.find((e) => e.type === 'turn.completed').usage).toMatchObject({ input_tokens: 100 + 5 + 100, output_tokens: 10 + 1 + 10 });
    expect(rolloutLines(harness.sessionFile).every((l) => typeof l.timestamp === 'string')).toBe(true);
  });
});

describe('one stream into both harnesses', () => {
  test('the Claude session resumes in claude and the Codex session in codex, each with the whole conversation', async () => {
    const cwd = tempDir();
    const claudeRoot = tempDir();
    const home = codexHome(openai);
    const run = await runBin([
      '--session-format', 'claude-code-cli', '--session-format', 'codex-cli',
      '--session-dir', `claude-code-cli=${claudeRoot}`, '--session-dir', `codex-cli=${home}`, '--cwd', cwd,
    ], { input: TOOL_TURN });
    expect(run.code).toBe(0);
    const line = sessionOf(run);
    expect(line.harnesses.map((h) => h.format)).toEqual(['claude-code-cli', 'codex-cli']);
    const [claude, codex] = line.harnesses as [typeof line.harnesses[0], typeof line.harnesses[0]];
    expect(codex.session_id).not.toBe(claude.session_id);

    const before = anthropic.requests.length;
    const resumed = await resumeWithClaude({ configDir: claudeRoot, cwd, session: claude.session_id, baseUrl: anthropic.url });
    expect(resumed.stdout.trim()).toBe('resumed-ok');
    expect(anthropic.requests.length).toBeGreaterThan(before);
    const blocks = flatten(anthropic.requests.at(-1)!.body.messages).flatMap((m) => m.blocks.map((b: any) => ({ role: m.role, ...b })));
    expect(blocks).toEqual(expect.arrayContaining([
      expect.objectContaining({ role: 'user', type: 'text', text: 'List the files.' }),
      expect.objectContaining({ role: 'assistant', type: 'tool_use', id: 'call_ls', name: 'exec_command', input: { cmd: 'ls' } }),
      expect.objectContaining({ role: 'user', type: 'tool_result', tool_use_id: 'call_ls', content: 'a.txt\nb.txt' }),
      expect.objectContaining({ role: 'assistant', type: 'text', text: 'There are two files.' }),
    ]));

    const { input } = await resumeWithCodex(openai, home, cwd, [codex.session_id, 'Reply with exactly: resumed-ok']);
    expect(conversation(input)).toEqual([...TOOL_TURN_ITEMS, PROMPT_ITEM]);
  });
});
