// A session OpenCode itself made (captured from the real opencode against the chat-completions mock, exported
// with `opencode export`, pretty-printed as it prints it) read into events and written as a Claude Code
// session that the real claude resumes with the text, both tool calls, the result and the error.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { claudeConversation } from './support.js';
import { FIXTURES, resumeWithClaude, runBin, sessionOf, tempDir } from '../../support/run.js';

let anthropic: MockAnthropic;
beforeAll(async () => {
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await anthropic.close();
});

describe('an OpenCode export', () => {
  test('opencode export | asyncai-log writes a Claude Code session the real claude resumes with every call and result', async () => {
    const project = realpathSync(tempDir());
    const configDir = join(tempDir(), 'claude');
    const input = readFileSync(join(FIXTURES, 'opencode', 'export.json'), 'utf8').replaceAll('/home/user/project', project);
    const r = await runBin(['--session-dir', `claude-code-cli=${configDir}`], { input, cwd: tempDir() });
    expect(r.code, r.stderr).toBe(0);
    // The document's directory is the session's project; its reasoning is unsigned, which Claude Code cannot take.
    expect(r.stderr).toMatch(/^asyncai-log: stdin:1: unsigned thinking is not written/);
    const session = sessionOf(r);
    expect(session.session_file).toContain(project.replace(/[^a-zA-Z0-9]/g, '-'));

    const before = anthropic.requests.length;
    const resumed = await resumeWithClaude({ configDir, cwd: project, session: session.session_id, baseUrl: anthropic.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(anthropic.requests.length).toBeGreaterThan(before);
    const sent = claudeConversation(anthropic.requests.at(-1)!.body);
    expect(sent).toEqual([
      ['user', 'text', 'what is here?'],
      ['assistant', 'text', 'Listing.'],
      ['assistant', 'tool_use', ['call_1', 'bash', { command: 'ls', description: 'list' }]],
      ['assistant', 'tool_use', ['call_2', 'read', { filePath: '/nonexistent/x.txt' }]],
      ['user', 'tool_result', ['call_1', false, 'a.txt\n']],
      ['user', 'tool_result', ['call_2', true, 'The user rejected permission to use this specific tool call.']],
      // The captured session ends on the results (OpenCode stopped at the rejection): claude closes the turn itself.
      ['assistant', 'text', 'No response requested.'],
      ['user', 'text', 'Reply with exactly: resumed-ok'],
    ]);
  });
});
