// The tests that prove the product: the real `claude` resumes what the bin wrote and sends the whole
// conversation to a loopback mock of the Messages API.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { BIN, cleanEnv, resumeWithClaude, runBin, sessionOf, tempDir, until } from '../support/run.js';

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

const ev = (o: object) => `${JSON.stringify(o)}\n`;
// A 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Write `input` with the bin for `cwd`, resume with the real claude, return the conversation it sent. */
async function writeAndResume(input: string, cwd: string): Promise<{ messages: any[]; session: string; root: string }> {
  const root = tempDir();
  const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd], { input });
  expect(r.code).toBe(0);
  const session = sessionOf(r).session_id;
  const before = mock.requests.length;
  const resumed = await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url });
  expect(resumed.stderr).toBe('');
  expect(resumed.stdout.trim()).toBe('resumed-ok');
  expect(resumed.code).toBe(0);
  expect(mock.requests.length).toBeGreaterThan(before);
  return { messages: mock.requests.at(-1)!.body.messages, session, root };
}

/** The conversation part of a request: drop the trailing system-reminder-only user message and prompt. */
function blocksOf(messages: any[]): { role: string; type: string; value: unknown }[] {
  const out: { role: string; type: string; value: unknown }[] = [];
  for (const m of messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === 'text' && String(b.text).startsWith('<system-reminder>')) continue;
      const value = b.type === 'text' ? b.text
        : b.type === 'tool_use' ? { id: b.id, name: b.name, input: b.input }
        : b.type === 'tool_result' ? { id: b.tool_use_id, content: b.content, is_error: b.is_error }
        : b.type === 'image' ? b.source
        : b.type === 'thinking' ? b.thinking : b;
      out.push({ role: m.role, type: b.type, value });
    }
  }
  return out;
}

describe('real claude --resume', () => {
  test('sends user text, assistant text, tool_use and tool_result in order', async () => {
    const cwd = tempDir();
    const { messages } = await writeAndResume([
      ev({ type: 'user', text: 'List the files.' }),
      ev({ type: 'assistant', text: 'Listing them.' }),
      ev({ type: 'tool_call', id: 'toolu_ls', name: 'Bash', arguments: { command: 'ls' } }),
      ev({ type: 'tool_result', id: 'toolu_ls', content: 'a.txt\nb.txt' }),
      ev({ type: 'assistant', text: 'There are two files.' }),
    ].join(''), cwd);
    expect(blocksOf(messages).slice(0, 5)).toEqual([
      { role: 'user', type: 'text', value: 'List the files.' },
      { role: 'assistant', type: 'text', value: 'Listing them.' },
      { role: 'assistant', type: 'tool_use', value: { id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } } },
      { role: 'user', type: 'tool_result', value: { id: 'toolu_ls', content: 'a.txt\nb.txt', is_error: false } },
      { role: 'assistant', type: 'text', value: 'There are two files.' },
    ]);
    expect(blocksOf(messages).at(-1)).toEqual({ role: 'user', type: 'text', value: 'Reply with exactly: resumed-ok' });
  });

  test('parallel tool calls after text all keep their real results; the response records get their own times and its usage', async () => {
    const cwd = tempDir();
    const usage = { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 7 };
    // No event gives a time: every record would get the time the line was read, the same millisecond.
    const { messages, session, root } = await writeAndResume([
      ev({ type: 'user', text: 'Run all three.' }),
      ev({ type: 'assistant', text: 'Running them.', usage }),
      ev({ type: 'tool_call', id: 'toolu_a', name: 'Bash', arguments: { command: 'echo alpha' } }),
      ev({ type: 'tool_call', id: 'toolu_b', name: 'Bash', arguments: { command: 'echo beta' } }),
      ev({ type: 'tool_call', id: 'toolu_c', name: 'Bash', arguments: { command: 'echo gamma' } }),
      ev({ type: 'tool_result', id: 'toolu_a', content: 'alpha' }),
      ev({ type: 'tool_result', id: 'toolu_b', content: 'beta', is_error: true }),
      ev({ type: 'tool_result', id: 'toolu_c', content: 'gamma' }),
      ev({ type: 'assistant', text: 'All ran.' }),
    ].join(''), cwd);
    const results = blocksOf(messages).filter((b) => b.type === 'tool_result').map((b) => b.value);
    expect(results).toEqual([
      { id: 'toolu_a', content: 'alpha', is_error: false },
      { id: 'toolu_b', content: 'beta', is_error: true },
      { id: 'toolu_c', content: 'gamma', is_error: false },
    ]);
    expect(JSON.stringify(messages)).not.toContain('Tool result missing');
    const calls = messages.filter((m) => m.role === 'assistant' && m.content.some((b: any) => b.type === 'tool_use'));
    expect(calls).toHaveLength(1);
    expect(calls[0].content.map((b: any) => b.text ?? b.id)).toEqual(['Running them.', 'toolu_a', 'toolu_b', 'toolu_c']);
    // In the file: the four records of the response, each at its own later millisecond, each with its usage.
    const file = join(root, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${session}.jsonl`);
    const response = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
      .filter((r) => r.type === 'assistant').slice(0, 4);
    expect(new Set(response.map((r) => r.message.id)).size).toBe(1);
    const times = response.map((r) => Date.parse(r.timestamp));
    expect(times.slice(1).every((t, i) => t > times[i]!)).toBe(true);
    expect(response.map((r) => r.message.usage)).toEqual([usage, usage, usage, usage]);
  });

  test('an image in a user turn and in a tool result is sent byte for byte', async () => {
    const { messages } = await writeAndResume([
      ev({ type: 'user', text: 'What is this?', images: [{ media_type: 'image/png', data: PNG }] }),
      ev({ type: 'tool_call', id: 'toolu_shot', name: 'Screenshot', arguments: {} }),
      ev({ type: 'tool_result', id: 'toolu_shot', content: [{ type: 'text', text: 'screen' }, { type: 'image', media_type: 'image/png', data: PNG }] }),
      ev({ type: 'assistant', text: 'A pixel.' }),
    ].join(''), tempDir());
    const blocks = blocksOf(messages);
    expect(blocks.slice(0, 2)).toEqual([
      { role: 'user', type: 'text', value: 'What is this?' },
      { role: 'user', type: 'image', value: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
    const result = blocks.find((b) => b.type === 'tool_result')!.value as any;
    expect(result.content).toEqual([{ type: 'text', text: 'screen' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);
  });

  test('a session written for a cwd longer than 200 characters is found from that cwd', async () => {
    let cwd = tempDir();
    while (cwd.length < 260) cwd = join(cwd, 'a-rather-long-directory-name_with.dots');
    mkdirSync(cwd, { recursive: true });
    const { messages } = await writeAndResume(ev({ type: 'user', text: 'deep hello' }) + ev({ type: 'assistant', text: 'deep reply' }), cwd);
    expect(blocksOf(messages).slice(0, 2).map((b) => b.value)).toEqual(['deep hello', 'deep reply']);
  });

  test('signed thinking is sent back and unsigned thinking is left out', async () => {
    const { messages } = await writeAndResume([
      ev({ type: 'user', text: 'Think.' }),
      ev({ type: 'thinking', text: 'unsigned idea' }),
      ev({ type: 'thinking', text: 'signed idea', signature: 'EqQBCkgIARABGAIiQL' }),
      ev({ type: 'assistant', text: 'Thought.' }),
    ].join(''), tempDir());
    expect(JSON.stringify(messages)).not.toContain('unsigned idea');
    const assistant = messages.find((m) => m.role === 'assistant');
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'signed idea', signature: 'EqQBCkgIARABGAIiQL' },
      { type: 'text', text: 'Thought.' },
    ]);
  });

  test('an orphan tool result still reaches the model as text', async () => {
    const { messages } = await writeAndResume([
      ev({ type: 'user', text: 'Go.' }),
      ev({ type: 'assistant', text: 'Working.' }),
      ev({ type: 'tool_result', id: 'toolu_ghost', content: 'ghost output' }),
      ev({ type: 'assistant', text: 'Done.' }),
    ].join(''), tempDir());
    expect(JSON.stringify(messages)).toContain('ghost output');
  });

  test('records written after a real resume appended to the live session reach the next resume', async () => {
    const root = tempDir();
    const cwd = tempDir();
    const child = spawn(process.execPath, [BIN, '--session-dir', `claude-code-cli=${root}`, '--cwd', cwd], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const { session_id: session, session_file: file } = JSON.parse(line).result;
    child.stdin.write(ev({ type: 'user', text: 'before resume' }) + ev({ type: 'assistant', text: 'first answer' }));
    await until(() => readFileSync(file, 'utf8').split('\n').length >= 3);
    const first = await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url, prompt: 'interjection from a concurrent resume' });
    expect(first.code).toBe(0);
    child.stdin.end(ev({ type: 'user', text: 'after resume' }) + ev({ type: 'assistant', text: 'second answer' }));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(stderr).toMatch(/session\.foreign_append/);
    await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url });
    const texts = blocksOf(mock.requests.at(-1)!.body.messages).map((b) => b.value);
    expect(texts).toEqual(expect.arrayContaining(['before resume', 'first answer', 'interjection from a concurrent resume', 'after resume', 'second answer']));
    expect(texts.indexOf('after resume')).toBeGreaterThan(texts.indexOf('interjection from a concurrent resume'));
  }, 60_000);
});
