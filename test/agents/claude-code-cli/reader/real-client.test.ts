// The reader against the real Claude Code (pinned in test/clients/) and the loopback mock: what the CLI writes today
// reads as the golden fixtures say; `read` follows the branch `claude --resume` sends; a compaction written
// from events is honoured on resume; a re-harnessed session resumes with its tool calls and results intact.
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../../../lib/events.js';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { captureScenario, SCENARIOS, sanitizedSessionFiles } from '../../../support/claude-capture.js';
import { startMockAnthropic, type MockAnthropic } from '../../../support/mock-anthropic.js';
import { FIXTURES, flatten, resumeWithClaude, runBin, sessionOf, tempDir } from '../../../support/run.js';
import { assistant, lastPrompt, readAll, SID, text, user, writeTranscript } from './support.js';

/** Golden and fresh outputs differ only in times, agent and task ids (random per run), and durations. */
function comparable(events: GenericEvent[]): unknown[] {
  let json = JSON.stringify(events);
  const ids = new Set<string>();
  for (const e of events) {
    if (e.agent_id !== undefined) ids.add(e.agent_id);
    if ((e.type === 'monitor_event' || e.type === 'monitor_end') && e.task_id !== undefined) ids.add(e.task_id);
  }
  for (const id of ids) json = json.split(id).join('<id>');
  json = json.replace(/\ba[0-9a-f]{16}\b/g, '<agent>').replace(/"timestamp":"[^"]+"/g, '"timestamp":"<t>"').replace(/duration_ms(:|>) ?\d+/g, 'duration_ms$1<n>');
  return JSON.parse(json) as unknown[];
}

async function eventsOf(path: string): Promise<GenericEvent[]> {
  const out: GenericEvent[] = [];
  for await (const e of readClaudeTranscript(path)) out.push(e);
  return out;
}

const golden = (scenario: string) => readFileSync(join(FIXTURES, 'claude-code-cli', scenario, 'expected.ndjson'), 'utf8')
  .split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as GenericEvent);

describe('what the real Claude Code writes today', () => {
  test.each(SCENARIOS.map((s) => s.name))('a fresh %s capture reads like its golden fixture', async (name) => {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    const capture = await captureScenario(scenario);
    try {
      // Sanitised the way the fixture was, so paths inside tool results and summaries match.
      const dir = tempDir('asyncai-fresh-');
      for (const { path, text: body } of sanitizedSessionFiles(capture)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), body);
      }
      const fresh = await eventsOf(join(dir, `${scenario.sessionId}.jsonl`));
      expect(comparable(fresh)).toEqual(comparable(golden(name)));
    } finally {
      rmSync(join(capture.configDir, '..'), { recursive: true, force: true });
    }
  });
});

describe('read against claude --resume', () => {
  let mock: MockAnthropic;
  beforeAll(async () => {
    mock = await startMockAnthropic();
  });
  afterAll(async () => {
    await mock.close();
  });

  /** The user/assistant texts the real CLI sent for a resume of `records`, without its reminders and the new prompt. */
  async function resumedTexts(records: Record<string, unknown>[]): Promise<string[]> {
    const configDir = tempDir('asyncai-resume-');
    const cwd = realpathSync(tempDir('asyncai-cwd-'));
    const dir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    writeTranscript(records, { dir });
    const before = mock.requests.length;
    const r = await resumeWithClaude({ configDir, cwd, session: SID, baseUrl: mock.url });
    expect(r.code).toBe(0);
    const body = mock.requests.slice(before).at(-1)!.body;
    return sentTexts(body);
  }

  /** Turn texts the CLI sent, without its system messages, reminders and the new prompt (it may add a newline when merging). */
  function sentTexts(body: any): string[] {
    return flatten(body.messages).filter((m) => m.role !== 'system').flatMap((m) => m.blocks)
      .filter((b: any) => b.type === 'text' && !String(b.text).startsWith('<system-reminder>'))
      .map((b: any) => String(b.text).trimEnd())
      .filter((t: string) => t !== 'Reply with exactly: resumed-ok');
  }

  const branches = () => [
    user('u1', null, 'first'), assistant('a1', 'u1', [text('reply1')]),
    user('u2', 'a1', 'second-a'), assistant('a2', 'u2', [text('reply2a')]),
    user('u3', 'a1', 'second-b'), assistant('a3', 'u3', [text('reply2b')]),
  ];

  test.each([
    ['no checkpoint', branches()],
    ['a checkpoint on the older branch', [...branches(), lastPrompt('a2')]],
    ['a checkpoint above the fork', [...branches(), lastPrompt('a1')]],
    ['a checkpoint naming a missing record', [...branches(), lastPrompt('ffffffff-0000-4000-8000-000000000000')]],
  ])('with %s, read gives the conversation the CLI resumes', async (_name, records) => {
    const sent = await resumedTexts(records as Record<string, unknown>[]);
    const { events } = await readAll(writeTranscript(records as Record<string, unknown>[]));
    expect(events.map((e) => (e as { text: string }).text)).toEqual(sent);
  });

  test.each([
    ['with its trigger and size', { trigger: 'manual', pre_tokens: 1200 }],
    ['with no metadata', {}],
  ])('a compaction written from events (%s) makes the resume send only the summary and what follows', async (_name, metadata) => {
    const root = tempDir('asyncai-compact-');
    const cwd = realpathSync(tempDir('asyncai-cwd-'));
    const input = [
      { type: 'user', text: 'Remember the word kiwi.' },
      { type: 'assistant', text: 'I will remember kiwi.' },
      { type: 'compaction', summary: 'Summary: the user asked to remember the word kiwi.', ...metadata },
      { type: 'user', text: 'What was the word?' },
      { type: 'assistant', text: 'The word was kiwi.' },
    ].map((e) => `${JSON.stringify(e)}\n`).join('');
    const written = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd], { input });
    expect(written.code).toBe(0);
    const { events } = await readAll(sessionOf(written).session_file);
    expect(events.map((e) => e.type)).toEqual(['user', 'assistant', 'compaction', 'user', 'assistant']);
    const before = mock.requests.length;
    const r = await resumeWithClaude({ configDir: root, cwd, session: sessionOf(written).session_id, baseUrl: mock.url });
    expect(r.code).toBe(0);
    expect(sentTexts(mock.requests.slice(before).at(-1)!.body)).toEqual(['Summary: the user asked to remember the word kiwi.', 'What was the word?', 'The word was kiwi.']);
  });

  test('a captured session re-harnessed through read resumes with its parallel results intact', async () => {
    const root = tempDir('asyncai-reharness-');
    const cwd = realpathSync(tempDir('asyncai-cwd-'));
    const fixture = join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');
    const read = await runBin(['read', fixture]);
    const written = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd], { input: read.stdout });
    expect(written.code).toBe(0);
    const before = mock.requests.length;
    const r = await resumeWithClaude({ configDir: root, cwd, session: sessionOf(written).session_id, baseUrl: mock.url });
    expect(r.code).toBe(0);
    const blocks = flatten(mock.requests.slice(before).at(-1)!.body.messages).flatMap((m) => m.blocks);
    const results = blocks.filter((b: any) => b.type === 'tool_result').map((b: any) => [b.tool_use_id, b.content, b.is_error ?? false]);
    expect(results).toEqual([['toolu_fixture_a1', 'alpha', false], ['toolu_fixture_b2', 'Exit code 3\nbeta', true]]);
    expect(blocks.filter((b: any) => b.type === 'thinking').map((b: any) => b.signature)).toEqual(['c2lnbmF0dXJlLWZpeHR1cmUtMQ==']);
  });
});
