// Gemini chats between agents: the captured fixtures read into their golden events; a Gemini chat tree
// converted into Claude Code resumes in the real claude; a Claude stream written as a Gemini chat resumes in
// the real gemini; a Gemini chat under the gemini-cli root is a session already and is not written again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { startMockGemini, type MockGemini } from '../../support/mock-gemini.js';
import { resumeWithGemini } from '../../support/gemini-cli.js';
import { FIXTURES, flatten, resumeWithClaude, runBin, tempDir } from '../../support/run.js';
import { goldenCases, mapFixtureFile } from '../../input/support.js';
import { PNG, conversation, geminiHome, writeGeminiSession } from './support.js';

let anthropic: MockAnthropic;
let gemini: MockGemini;
beforeAll(async () => {
  anthropic = await startMockAnthropic();
  gemini = await startMockGemini();
});
afterAll(async () => {
  await anthropic.close();
  await gemini.close();
});

describe('captured Gemini chats', () => {
  test.each(goldenCases('gemini-cli'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('gemini-chat', file)).toEqual(golden);
  });
});

describe('between agents', () => {
  test('a Gemini chat tree converted into Claude Code resumes in the real claude with the image, both results and the error', async () => {
    const dir = tempDir('asyncai-log-gemini-convert-');
    const project = realpathSync(tempDir());
    const chats = join(dir, 'gemini', 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, 'session-2026-12-01T11-26-ec355b88.jsonl'),
      readFileSync(join(FIXTURES, 'gemini-cli', 'session.jsonl'), 'utf8').replaceAll('/home/user/project', project));
    const configDir = join(dir, 'claude');
    const r = await runBin(['convert', join(dir, 'gemini', 'tmp'), '--session-dir', `claude-code-cli=${configDir}`], { cwd: tempDir() });
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', input_format: 'gemini-chat', cwd: project });

    const before = anthropic.requests.length;
    const resumed = await resumeWithClaude({ configDir, cwd: project, session: line.harnesses[0].session_id, baseUrl: anthropic.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(anthropic.requests.length).toBeGreaterThan(before);
    const sent = flatten(anthropic.requests.at(-1)!.body.messages).flatMap((m) => m.blocks
      .filter((b: any) => !(b.type === 'text' && /^<system-reminder>|deferred tools are now available/.test(String(b.text))))
      .map((b: any) => [m.role, b.type, b.type === 'text' ? b.text : b.type === 'image' ? b.source.data
        : b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? [b.tool_use_id, b.is_error ?? false] : null]));
    expect(sent).toEqual([
      ['user', 'text', 'Read notes.txt and missing.txt, and look at @pixel.png\n\n--- Content from referenced files ---\n\n--- End of content ---'],
      ['user', 'image', PNG],
      ['assistant', 'text', 'Reading both files.'],
      ['assistant', 'tool_use', 'read_file__read_file_1796124389930_0'],
      ['assistant', 'tool_use', 'read_file__read_file_1796124389999_1'],
      ['user', 'tool_result', ['read_file__read_file_1796124389930_0', false]],
      ['user', 'tool_result', ['read_file__read_file_1796124389999_1', true]],
      ['assistant', 'text', 'The notes say hi; missing.txt does not exist; the image is one pixel.'],
      ['user', 'text', 'Reply with exactly: resumed-ok'],
    ]);
  });

  test('a Claude stream written as a Gemini chat resumes in the real gemini: parallel calls, the failed one as an error', async () => {
    const cwd = tempDir();
    const { home, root } = geminiHome();
    const input = readFileSync(join(FIXTURES, 'claude-stream-json', 'input-tools.jsonl'), 'utf8');
    const { session } = await writeGeminiSession(input, cwd, root, ['--prompt', 'Run echo a and a failing command.']);
    const before = gemini.streamed().length;
    const result = await resumeWithGemini({ home, cwd, baseUrl: gemini.url, session });
    expect(result.code, result.stderr).toBe(0);
    expect(conversation(gemini.streamed()[before]!.body)).toEqual([
      { role: 'user', parts: [{ text: 'Run echo a and a failing command.' }] },
      { role: 'model', parts: [
        { text: 'Running both.' },
        { functionCall: { id: 'toolu_input_a', name: 'Bash', args: { command: 'echo a', description: 'Print a' } } },
        { functionCall: { id: 'toolu_input_b', name: 'Bash', args: { command: 'echo b; exit 2', description: 'Fail on purpose' } } },
      ] },
      { role: 'user', parts: [
        { functionResponse: { id: 'toolu_input_a', name: 'Bash', response: { output: 'a' } } },
        { functionResponse: { id: 'toolu_input_b', name: 'Bash', response: { error: 'Exit code 2\nb' } } },
      ] },
      { role: 'model', parts: [{ text: 'a was printed; the second command exited with 2.' }] },
      { role: 'user', parts: [{ text: 'Reply with exactly: resumed-ok' }] },
    ]);
  });

  test('convert into gemini-cli skips a Gemini chat already under that root, and a converted chat is skipped as converted', async () => {
    const { root } = geminiHome();
    const chats = join(root, 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, 'session-2026-12-01T11-26-ec355b88.jsonl'), readFileSync(join(FIXTURES, 'gemini-cli', 'session.jsonl')));
    const r = await runBin(['convert', join(root, 'tmp'), '--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${root}`], { cwd: tempDir() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ status: 'skipped', reason: 'already-a-session' });

    // Converted elsewhere, the new chat carries the provenance mark: converting that again is skipped.
    const other = geminiHome();
    const r2 = await runBin(['convert', join(root, 'tmp'), '--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${other.root}`, '--cwd', tempDir()], { cwd: tempDir() });
    const converted = JSON.parse(r2.stdout.trim());
    expect(converted).toMatchObject({ status: 'converted', input_format: 'gemini-chat' });
    const r3 = await runBin(['convert', converted.harnesses[0].session_file, '--session-format', 'gemini-cli', '--session-dir', `gemini-cli=${tempDir()}`], { cwd: tempDir() });
    expect(JSON.parse(r3.stdout.trim())).toMatchObject({ status: 'skipped', reason: 'converted-session' });
  });
});
