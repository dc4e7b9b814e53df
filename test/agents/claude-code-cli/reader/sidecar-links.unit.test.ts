// What a transcript brings beside it (`<session>/tool-results/`, `<session>/subagents/`) may be a planted
// symbolic link (a relative one in a shared tarball is enough): nothing below the transcript's directory is
// followed, each link is reported once, and the rest of the session reads.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { tempDir } from '../../../support/run.js';
import { assistant, readAll, SID, text, toolResult, user, writeTranscript } from './support.js';

const SECRET = 'the secret of another directory';
const pointer = (path: string) => `Output too large. Full output saved to: ${path}\n\nPreview: ...`;

/** A directory outside the session holding the secret under the names the session's files would have. */
function secretDir(): string {
  const dir = tempDir('asyncai-secret-');
  for (const name of ['out.txt', 'two.txt', 'agent-a1.jsonl']) writeFileSync(join(dir, name), `${SECRET}\n`);
  writeFileSync(join(dir, 'agent-a1.meta.json'), JSON.stringify({ description: SECRET }));
  return dir;
}

/** A transcript with two spill pointers into its own `<session>/tool-results/`. */
function spillingTranscript(): { path: string; session: string } {
  const path = writeTranscript([
    user('u1', null, 'run it'),
    assistant('a1', 'u1', [{ type: 'tool_use', id: 'c1', name: 'Bash', input: {} }, { type: 'tool_use', id: 'c2', name: 'Bash', input: {} }]),
    user('r1', 'a1', [toolResult('c1', pointer(`/home/somebody/p/${SID}/tool-results/out.txt`)), toolResult('c2', pointer(`/home/somebody/p/${SID}/tool-results/two.txt`))]),
    assistant('a2', 'r1', [text('done')]),
  ]);
  return { path, session: join(dirname(path), SID) };
}

describe('sidecars behind symbolic links are not followed', () => {
  test('a symlinked <session>/tool-results: no spill is read, one warning for both pointers, the rest reads', async () => {
    const { path, session } = spillingTranscript();
    mkdirSync(session);
    symlinkSync(secretDir(), join(session, 'tool-results'));
    const { events, warnings } = await readAll(path);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(events.map((e) => e.type)).toEqual(['user', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain(`a symbolic link (${join(session, 'tool-results')}), not followed`);
  });

  test('a relative link as the <session> directory itself is not followed either', async () => {
    const { path, session } = spillingTranscript();
    const elsewhere = join(dirname(path), 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(secretDir(), join(elsewhere, 'tool-results'));
    symlinkSync('elsewhere', session);
    const { events, warnings } = await readAll(path);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining(`a symbolic link (${session}), not followed`)]);
  });

  test('a spilled file that is a link is not read', async () => {
    const { path, session } = spillingTranscript();
    mkdirSync(join(session, 'tool-results'), { recursive: true });
    symlinkSync(join(secretDir(), 'out.txt'), join(session, 'tool-results', 'out.txt'));
    writeFileSync(join(session, 'tool-results', 'two.txt'), 'the real second output');
    const { events, warnings } = await readAll(path);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(events[4]).toMatchObject({ type: 'tool_result', content: 'the real second output' });
    expect(warnings).toHaveLength(1);
  });

  test('a real <session>/tool-results is read (the links above are what stops it)', async () => {
    const { path, session } = spillingTranscript();
    mkdirSync(join(session, 'tool-results'), { recursive: true });
    writeFileSync(join(session, 'tool-results', 'out.txt'), 'one');
    writeFileSync(join(session, 'tool-results', 'two.txt'), 'two');
    const { events, warnings } = await readAll(path);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e as { content: unknown }).content)).toEqual(['one', 'two']);
    expect(warnings).toEqual([]);
  });

  test('a symlinked <session>/subagents lists no subagent, with one warning', async () => {
    const { path, session } = spillingTranscript();
    mkdirSync(session);
    symlinkSync(secretDir(), join(session, 'subagents'));
    const reader = readClaudeTranscript(path);
    expect(await reader.subagents()).toEqual([]);
    expect(reader.warnings.map((w) => w.message)).toEqual([expect.stringContaining(`a symbolic link (${join(session, 'subagents')}), not followed`)]);
  });

  test('a subagent transcript or meta file that is a link is not read; a real one beside it is', async () => {
    const { path, session } = spillingTranscript();
    const dir = join(session, 'subagents');
    mkdirSync(dir, { recursive: true });
    const secret = secretDir();
    symlinkSync(join(secret, 'agent-a1.jsonl'), join(dir, 'agent-a1.jsonl'));
    writeTranscript([user('s1', null, 'the real subagent', { isSidechain: true })], { dir, name: 'agent-b2.jsonl' });
    symlinkSync(join(secret, 'agent-a1.meta.json'), join(dir, 'agent-b2.meta.json'));
    const reader = readClaudeTranscript(path);
    const subs = await reader.subagents();
    expect(subs.map((s) => s.agentId)).toEqual(['b2']);
    expect(subs[0]!.agentMeta).toEqual({});
    const { events } = await readAll(subs[0]!.path);
    expect(JSON.stringify(events)).toContain('the real subagent');
    expect(reader.warnings).toHaveLength(2);
    expect(JSON.stringify(reader.warnings)).not.toContain(SECRET);
  });
});
