// The tests that prove batch conversion works: the real `claude` resumes what `asyncai-log convert` wrote,
// from the project directory each session belongs to, and sends the converted conversation to a loopback
// mock of the Messages API. The converted sessions carry the provenance mark and zeroed usage.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { FIXTURES, flatten, resumeWithClaude, runBin, tempDir } from '../support/run.js';
import { records } from './support.js';

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

/** Resume `session` with the real claude from `cwd`; the conversation of the request it sent. */
async function resume(configDir: string, cwd: string, session: string): Promise<{ role: string; blocks: any[] }[]> {
  const before = mock.requests.length;
  const r = await resumeWithClaude({ configDir, cwd, session, baseUrl: mock.url });
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe('resumed-ok');
  expect(r.code).toBe(0);
  expect(mock.requests.length).toBeGreaterThan(before);
  return flatten(mock.requests.at(-1)!.body.messages);
}

/** Each block as [role, type, the part a test compares]; system reminders left out. */
function blocks(messages: { role: string; blocks: any[] }[]): [string, string, unknown][] {
  return messages.flatMap((m) => m.blocks
    .filter((b) => !(b.type === 'text' && String(b.text).startsWith('<system-reminder>')))
    .map((b): [string, string, unknown] => [m.role, b.type,
      b.type === 'text' ? b.text
        : b.type === 'tool_use' ? { id: b.id, name: b.name, input: b.input }
          : b.type === 'tool_result' ? { id: b.tool_use_id, is_error: b.is_error ?? false } : b]));
}

describe('real claude resumes converted sessions', () => {
  test('a converted Codex rollout, from the project directory its session_meta names', async () => {
    const dir = tempDir('asyncai-log-convert-resume-');
    const project = realpathSync(dir);
    const configDir = join(dir, 'claude');
    // A ~/.codex/sessions tree whose rollout was recorded in this project.
    const rollout = readFileSync(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'), 'utf8').replaceAll('/home/user/project', project);
    mkdirSync(join(dir, 'codex', 'sessions', '2026', '11', '29'), { recursive: true });
    writeFileSync(join(dir, 'codex', 'sessions', '2026', '11', '29', 'rollout-parallel.jsonl'), rollout);
    const r = await runBin(['convert', join(dir, 'codex', 'sessions'), '--session-dir', `claude-code-cli=${configDir}`], { cwd: tempDir() });
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', cwd: project });
    const session = line.harnesses[0];
    expect(records(session.session_file).every((x) => x.asyncaiLog?.convertedFrom === 'codex-rollout')).toBe(true);

    const sent = blocks(await resume(configDir, project, session.session_id));
    expect(sent.slice(0, 7)).toEqual([
      ['user', 'text', 'Run two commands at once.'],
      ['assistant', 'text', 'Running both.'],
      ['assistant', 'tool_use', { id: 'call_one', name: 'Bash', input: { command: 'echo one' } }],
      ['assistant', 'tool_use', { id: 'call_two', name: 'Bash', input: { command: 'echo two; exit 3' } }],
      ['user', 'tool_result', { id: 'call_one', is_error: false }],
      ['user', 'tool_result', { id: 'call_two', is_error: true }],
      ['assistant', 'text', 'one printed one; two failed with exit code 3.'],
    ]);
    expect(sent.at(-1)).toEqual(['user', 'text', 'Reply with exactly: resumed-ok']);
  });

  test('a converted log of generic events, from the project directory given with --cwd', async () => {
    const dir = tempDir('asyncai-log-convert-resume-');
    const project = join(realpathSync(dir), 'project');
    mkdirSync(project);
    const configDir = join(dir, 'claude');
    const r = await runBin(['convert', join(FIXTURES, 'events', 'quickstart.ndjson'), '--cwd', project, '--session-dir', `claude-code-cli=${configDir}`]);
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', input_format: 'events', cwd: project });

    // What the log says, block by block, is what the resumed claude sends.
    const events = readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const expected = events.map((e): [string, string, unknown] => (
      e.type === 'user' ? ['user', 'text', e.text]
        : e.type === 'assistant' ? ['assistant', 'text', e.text]
          : e.type === 'tool_call' ? ['assistant', 'tool_use', { id: e.id, name: e.name, input: e.arguments }]
            : ['user', 'tool_result', { id: e.id, is_error: e.is_error ?? false }]));
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const sent = blocks(await resume(configDir, project, line.harnesses[0].session_id));
    expect(sent.slice(0, expected.length)).toEqual(expected);
    expect(sent.at(-1)).toEqual(['user', 'text', 'Reply with exactly: resumed-ok']);
  });
});
