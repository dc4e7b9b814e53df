// Incremental convert into Gemini CLI chats: a source that only grew is appended to the chat written before
// (same session id, earlier bytes untouched, the same message ids, so a late tool result replaces its message
// in place); what a resuming gemini appended in between stays, and the real gemini resumes old and new turns.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockGemini, type MockGemini } from '../support/mock-gemini.js';
import { resumeWithGemini } from '../support/gemini-cli.js';
import { tempDir } from '../support/run.js';
import { convertInto, FIRST, GROWTH } from '../support/growing-source.js';
import { CANCELLED_ERROR } from '../../lib/agents/gemini-cli/records.js';
import { chatLines, conversation, geminiHome } from '../agents/gemini-cli/support.js';

let mock: MockGemini;
beforeAll(async () => {
  mock = await startMockGemini();
});
afterAll(async () => {
  await mock.close();
});

const convert = (source: string, root: string, cwd: string): Promise<any> => convertInto('gemini-cli', source, root, cwd);

const messages = (file: string) => chatLines(file).filter((l) => typeof l.id === 'string');

describe('incremental convert into Gemini CLI chats', () => {
  test('a source that grows mid-turn is appended to its chat: earlier bytes kept, the call message replaced in place by id, lastUpdated set again', async () => {
    const dir = tempDir('asyncai-log-incremental-gemini-');
    const source = join(dir, 'events.ndjson');
    const { root } = geminiHome();
    writeFileSync(source, FIRST);
    const first = await convert(source, root, dir);
    expect(first).toMatchObject({ status: 'converted', reason: 'new', warnings: 0 });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);
    const callMessage = messages(session.session_file).find((m) => m.toolCalls)!;
    expect(callMessage.toolCalls[0].status).toBe('cancelled');

    appendFileSync(source, GROWTH);
    const second = await convert(source, root, dir);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses).toEqual([{ format: 'gemini-cli', session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
    const after = readFileSync(session.session_file);
    expect(after.subarray(0, before.length)).toEqual(before);

    const lines = chatLines(session.session_file);
    const added = lines.slice(before.toString('utf8').split('\n').length - 1);
    // No second metadata line or summary; the call's message again under its id, with the result.
    expect(lines.filter((l) => 'sessionId' in l)).toHaveLength(1);
    expect(added.filter((l) => '$set' in l && 'summary' in l.$set)).toEqual([]);
    expect(added[0]).toMatchObject({ id: callMessage.id, toolCalls: [{ id: 'c_ls', status: 'success', result: [{ functionResponse: { response: { output: 'a.txt\nb.txt' } } }] }] });
    expect(added.at(-1)).toEqual({ $set: { lastUpdated: expect.any(String) } });
    expect(Date.parse(added.at(-1).$set.lastUpdated)).toBeGreaterThanOrEqual(Date.parse(lines.filter((l) => l.$set?.lastUpdated).at(-2).$set.lastUpdated));
    // The chat as the CLI folds it (a later line with an id replaces the earlier) is what one conversion writes.
    const folded = (file: string) => {
      const byId = new Map<string, any>();
      for (const m of messages(file)) byId.set(m.id, { type: m.type, content: m.content, toolCalls: m.toolCalls?.map((c: any) => ({ ...c, timestamp: undefined })) });
      return [...byId.values()];
    };
    const once = await convert(source, join(dir, 'once'), dir);
    expect(folded(session.session_file)).toEqual(folded(once.harnesses[0].session_file));

    const third = await convert(source, root, dir);
    expect(third).toMatchObject({ status: 'skipped', reason: 'unchanged' });
    expect(readFileSync(session.session_file)).toEqual(after);
  });

  test('real gemini resumes a converted chat; the source grows; convert appends after what gemini wrote; gemini resumes old, its own and new turns', async () => {
    const project = tempDir('asyncai-log-incremental-gemini-real-');
    const source = join(tempDir(), 'events.ndjson');
    const { home, root } = geminiHome();
    // The CLI's retention cleanup deletes a resumed chat with the stray file a resume leaves (gemini-cli.md, traps).
    const settings = JSON.parse(readFileSync(join(root, 'settings.json'), 'utf8'));
    writeFileSync(join(root, 'settings.json'), JSON.stringify({ ...settings, general: { ...settings.general, sessionRetention: { enabled: false } } }));
    writeFileSync(source, FIRST);
    const first = await convert(source, root, project);
    const session = first.harnesses[0];

    const resume = async (prompt: string) => {
      const before = mock.streamed().length;
      const r = await resumeWithGemini({ home, cwd: project, baseUrl: mock.url, session: session.session_id, prompt });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('resumed-ok');
      return conversation(mock.streamed()[before]!.body);
    };
    const call = { role: 'model', parts: [{ functionCall: { id: 'c_ls', name: 'Bash', args: { command: 'ls' } } }] };
    expect(await resume('Second question.')).toEqual([
      { role: 'user', parts: [{ text: 'First question.' }] },
      { role: 'model', parts: [{ text: 'First answer.' }] },
      { role: 'user', parts: [{ text: 'List the files.' }] },
      call,
      { role: 'user', parts: [{ functionResponse: { id: 'c_ls', name: 'Bash', response: { error: CANCELLED_ERROR } } }] },
      // The CLI's own note for a turn that ended in a cancelled call.
      { role: 'model', parts: [{ text: '[The previous response was interrupted before it completed.]' }] },
      { role: 'user', parts: [{ text: 'Second question.' }] },
    ]);
    const resumed = readFileSync(session.session_file);

    appendFileSync(source, GROWTH);
    const second = await convert(source, root, project);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(second.harnesses[0].session_id).toBe(session.session_id);
    expect(readFileSync(session.session_file).subarray(0, resumed.length)).toEqual(resumed);

    // The late result replaces the cancelled one in place; gemini's own turn stays; the new turns follow it.
    expect(await resume('Third question.')).toEqual([
      { role: 'user', parts: [{ text: 'First question.' }] },
      { role: 'model', parts: [{ text: 'First answer.' }] },
      { role: 'user', parts: [{ text: 'List the files.' }] },
      call,
      { role: 'user', parts: [{ functionResponse: { id: 'c_ls', name: 'Bash', response: { output: 'a.txt\nb.txt' } } }, { text: 'Second question.' }] },
      { role: 'model', parts: [{ text: 'resumed-ok' }, { text: 'There are two files.' }] },
      { role: 'user', parts: [{ text: 'Thanks.' }] },
      { role: 'model', parts: [{ text: 'You are welcome.' }] },
      { role: 'user', parts: [{ text: 'Third question.' }] },
    ]);
  });
});
