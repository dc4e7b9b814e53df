// A stream still being written while the real gemini resumes the same chat: the CLI appends its own lines
// (`$set`, its new messages) to our file; our later lines follow them whole, a late tool result still replaces
// its message in place, and the whole file then loads in the real CLI with both conversations in order.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { startMockGemini, type MockGemini } from '../../support/mock-gemini.js';
import { GEMINI_MODEL, resumeWithGemini, runGemini } from '../../support/gemini-cli.js';
import { tempDir } from '../../support/run.js';
import { start, until } from '../../monitor/live-bin.js';
import { chatLines, conversation, ev, geminiHome } from './support.js';

let mock: MockGemini;
beforeAll(async () => {
  mock = await startMockGemini();
});
afterAll(async () => {
  await mock.close();
});

test('lines written after a concurrent gemini --resume follow its lines, and the file loads with both turns', async () => {
  const cwd = tempDir();
  const { home, root } = geminiHome();
  const live = start(['--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`, '--cwd', cwd], cwd);
  live.child.stdin.write([
    ev({ type: 'user', text: 'List the files.' }),
    ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' } }),
  ].join(''));
  const file = await live.session;
  await until(() => readFileSync(file, 'utf8').includes('c_ls'));
  const session = chatLines(file)[0].sessionId;

  // The CLI resumes while our stream is open: the call is still unanswered, so it is sent as cancelled.
  const resumed = await resumeWithGemini({ home, cwd, baseUrl: mock.url, session, prompt: 'What now?' });
  expect(resumed.code, resumed.stderr).toBe(0);
  const size = readFileSync(file).length;

  live.child.stdin.end([
    ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt' }),
    ev({ type: 'assistant', text: 'Two files.' }),
  ].join(''));
  const exit = await live.exit;
  expect(exit.code, exit.stderr).toBe(0);
  expect(exit.stderr).toContain('session.foreign_append');

  const text = readFileSync(file, "utf8");
  expect(text.endsWith('\n')).toBe(true);
  const lines = chatLines(file); // every line is whole JSON
  expect(lines.slice(1).some((l) => l.$set !== undefined && l.$set.sessionId === undefined && l.$set.lastUpdated !== undefined)).toBe(true);
  expect(Buffer.byteLength(text)).toBeGreaterThan(size);

  // The whole file, loaded by the real CLI in a fresh home (its --session-file import): every turn in order.
  const other = geminiHome();
  const before = mock.streamed().length;
  const loaded = await runGemini({ home: other.home, cwd: tempDir(), baseUrl: mock.url, args: ['-m', GEMINI_MODEL, '--session-file', file, '-p', 'Reply with exactly: resumed-ok'] });
  expect(loaded.code, loaded.stderr).toBe(0);
  expect(conversation(mock.streamed()[before]!.body)).toEqual([
    { role: 'user', parts: [{ text: 'List the files.' }] },
    { role: 'model', parts: [{ functionCall: { id: 'c_ls', name: 'Bash', args: { command: 'ls' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'c_ls', name: 'Bash', response: { output: 'a.txt\nb.txt' } } }, { text: 'What now?' }] },
    { role: 'model', parts: [{ text: 'resumed-ok' }, { text: 'Two files.' }] },
    { role: 'user', parts: [{ text: 'Reply with exactly: resumed-ok' }] },
  ]);
});
