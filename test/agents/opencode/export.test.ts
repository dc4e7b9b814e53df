// A session the real OpenCode made (scripts/capture-opencode-fixtures.mjs: an attached image, reasoning, a bash
// call and a failed read, exported pretty-printed by `opencode export`) read into its golden events through
// `read` (file and stdin), and through `convert` into a Claude Code session that the real claude resumes with
// the image, the calls, the result and the error.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { claudeConversation } from './support.js';
import { FIXTURES, resumeWithClaude, runBin, tempDir } from '../../support/run.js';
import { goldenCases, mapFixtureFile } from '../../input/support.js';

const FIXTURE = join(FIXTURES, 'opencode', 'session.json');
const TEXT = readFileSync(FIXTURE, 'utf8');
const GOLDEN = JSON.parse(readFileSync(join(FIXTURES, 'opencode', 'session.events.json'), 'utf8')) as { events: any[] };
const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let anthropic: MockAnthropic;
beforeAll(async () => {
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await anthropic.close();
});

describe('a session OpenCode made, exported', () => {
  test.each(goldenCases('opencode'))('%s maps to its golden events', (_name, file, golden) => {
    expect(mapFixtureFile('opencode-export', file)).toEqual(golden);
  });

  test('the export is pretty-printed over many lines and the model saw the attached image', () => {
    expect(TEXT.split('\n')[0]).toBe('{');
    expect(TEXT.split('\n').length).toBeGreaterThan(100);
    const requests = JSON.parse(readFileSync(join(FIXTURES, 'opencode', 'session.requests.json'), 'utf8'));
    expect(requests[0].messages[0].content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } });
  });

  test('read <file> and read - print the golden events', async () => {
    const file = await runBin(['read', FIXTURE]);
    expect(file.stderr).toBe('');
    expect(ndjson(file.stdout)).toEqual(GOLDEN.events);
    const stdin = await runBin(['read', '-'], { input: TEXT });
    expect(stdin.stderr).toBe('');
    expect(ndjson(stdin.stdout)).toEqual(GOLDEN.events);
  });

  test('convert takes the pretty-printed export as one record, and the real claude resumes the Claude Code session', async () => {
    const project = realpathSync(tempDir());
    const dir = tempDir();
    mkdirSync(join(dir, 'exports'));
    writeFileSync(join(dir, 'exports', 'session.json'), TEXT.replaceAll('/home/user/project', project));
    const configDir = join(dir, 'claude');
    const r = await runBin(['convert', join(dir, 'exports'), '--session-dir', `claude-code-cli=${configDir}`], { cwd: tempDir() });
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', input_format: 'opencode-export', cwd: project, records: 1, events: GOLDEN.events.length });

    const before = anthropic.requests.length;
    const resumed = await resumeWithClaude({ configDir, cwd: project, session: line.harnesses[0].session_id, baseUrl: anthropic.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(anthropic.requests.length).toBeGreaterThan(before);
    const sent = claudeConversation(anthropic.requests.at(-1)!.body);
    expect(sent).toEqual([
      // OpenCode's own note of the attached file comes with the text the user typed, as OpenCode sends it.
      ['user', 'text', `Called the Read tool with the following input: {"filePath":"${project}/pixel.png"}\nImage read successfully\nWhat is here?`],
      ['user', 'image', PNG],
      ['assistant', 'text', 'Listing.'],
      ['assistant', 'tool_use', ['call_ls', 'bash', { command: 'ls', description: 'List files' }]],
      ['assistant', 'tool_use', ['call_read', 'read', { filePath: `${project}/missing.txt` }]],
      ['user', 'tool_result', ['call_ls', false, 'notes.txt\npixel.png\n']],
      ['user', 'tool_result', ['call_read', true, `File not found: ${project}/missing.txt`]],
      ['assistant', 'text', 'There are notes.txt and pixel.png; missing.txt does not exist; the image is one pixel.'],
      ['user', 'text', 'Reply with exactly: resumed-ok'],
    ]);
  });
});
