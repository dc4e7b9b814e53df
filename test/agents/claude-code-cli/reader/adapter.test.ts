// A Claude Code transcript as filter input: detected from its first line (before the generic events
// format), written as a new session in the transcript's own project, on the branch resume would continue.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../../lib/agents/input-formats.js';
import { FIXTURES, runBin, sessionOf, tempDir } from '../../../support/run.js';
import { assistant, lastPrompt, readAll, SID, text, user, writeTranscript } from './support.js';

const PARALLEL = join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('detecting a transcript from its first line', () => {
  test('a queue-operation first line is a Claude transcript', () => {
    expect(detectInputFormat({ type: 'queue-operation', operation: 'enqueue', timestamp: 't', sessionId: SID })?.name).toBe('claude-transcript');
  });

  test('a user record with chain fields is a Claude transcript', () => {
    expect(detectInputFormat(user('u1', null, 'hi'))?.name).toBe('claude-transcript');
  });

  test('a file-history-snapshot first line is a Claude transcript', () => {
    expect(detectInputFormat({ type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false })?.name).toBe('claude-transcript');
  });

  test('a generic user event is still the events format', () => {
    expect(detectInputFormat({ type: 'user', text: 'hi' })?.name).toBe('events');
  });

  test('a stream-json line is not taken for a transcript', () => {
    expect(detectInputFormat({ type: 'system', subtype: 'init', session_id: SID, cwd: '/p' })?.name).not.toBe('claude-transcript');
  });
});

describe('asyncai-log --from claude-transcript', () => {
  test('the session is written in the transcript\'s own project and reads back like the original', async () => {
    const root = tempDir();
    const r = await runBin(['--from', 'claude-transcript', '--session-dir', `claude-code-cli=${root}`], { input: readFileSync(PARALLEL) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const session = sessionOf(r);
    expect(session.session_file).toBe(join(root, 'projects', '-home-user-project', `${session.session_id}.jsonl`));
    const original = lines((await runBin(['read', PARALLEL])).stdout);
    const copy = lines((await runBin(['read', session.session_file])).stdout);
    expect(copy).toEqual(original);
  });

  test('a transcript on stdin is recognised without --from', async () => {
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: readFileSync(PARALLEL) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const { events } = await readAll(sessionOf(r).session_file);
    expect(events.map((e) => e.type)).toEqual(['user', 'thinking', 'assistant', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant']);
  });

  test('only the branch claude --resume would continue is written', async () => {
    const path = writeTranscript([
      user('u1', null, 'first'), assistant('a1', 'u1', [text('reply1')]),
      user('u2', 'a1', 'second-a'), assistant('a2', 'u2', [text('reply2a')]),
      user('u3', 'a1', 'second-b'), assistant('a3', 'u3', [text('reply2b')]),
      lastPrompt('a2'),
    ]);
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: readFileSync(path) });
    const { events } = await readAll(sessionOf(r).session_file);
    expect(events.map((e) => (e as { text?: string }).text)).toEqual(['first', 'reply1', 'second-a', 'reply2a']);
  });

  test('--cwd still decides the project', async () => {
    const root = tempDir();
    const r = await runBin(['--from', 'claude-transcript', '--cwd', '/srv/elsewhere', '--session-dir', `claude-code-cli=${root}`], { input: readFileSync(PARALLEL) });
    expect(sessionOf(r).session_file).toContain(join(root, 'projects', '-srv-elsewhere'));
  });

  test('an unknown record type is reported once with its line and the rest is written', async () => {
    const path = writeTranscript([user('u1', null, 'hi'), { type: 'hologram' }, { type: 'hologram' }]);
    const root = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: readFileSync(path) });
    expect(r.stderr).toBe('asyncai-log: stdin:2: unknown record type "hologram" skipped (reported once per type)\n');
    expect((await readAll(sessionOf(r).session_file)).events).toHaveLength(1);
  });
});
