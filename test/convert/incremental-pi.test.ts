// Incremental convert into pi sessions: a source that only grew is appended to the session written before (same
// file, earlier bytes untouched, the new entries chained onto its last one); what a resuming pi appended in between
// stays on the chain, and the real pi resumes old and new turns, and its own, in order.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockChat, type MockChat } from '../support/mock-chat-completions.js';
import { continueWithPi, piHome } from '../support/pi.js';
import { FIXTURES, cleanEnv, runBin, tempDir } from '../support/run.js';
import { convertInto, FIRST, GROWTH } from '../support/growing-source.js';

let mock: MockChat;
beforeAll(async () => {
  mock = await startMockChat();
});
afterAll(async () => {
  await mock.close();
});

const at = (s: number) => new Date(Date.now() - 3600_000 + s * 1000).toISOString();

const convert = (source: string, root: string, cwd: string): Promise<any> => convertInto('pi', source, root, cwd);

const entries = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

/** The texts of a chat request's messages, in order (the system prompt left out). */
function said(request: any): string[] {
  return (request.messages as any[]).filter((m) => m.role !== 'system').flatMap((m) => {
    const parts = typeof m.content === 'string' ? [m.content] : (m.content ?? []).map((p: any) => p.text ?? '');
    return [...parts.filter((t: string) => t !== ''), ...(m.tool_calls ?? []).map((c: any) => `call ${c.function.name}`)];
  });
}

describe('incremental convert into pi sessions', () => {
  test('a source that grows mid-turn is appended to its session: earlier bytes kept, the new entries chained onto the last', async () => {
    const dir = tempDir('asyncai-log-incremental-pi-');
    const source = join(dir, 'events.ndjson');
    const home = piHome(mock.url);
    writeFileSync(source, FIRST);
    const first = await convert(source, home.agentDir, dir);
    expect(first).toMatchObject({ status: 'converted', reason: 'new' });
    const file = first.harnesses[0].session_file;
    const before = readFileSync(file);
    const last = entries(file).at(-1).id;

    appendFileSync(source, GROWTH);
    const second = await convert(source, home.agentDir, dir);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(second.harnesses[0].session_file).toBe(file);
    expect(readFileSync(file).subarray(0, before.length)).toEqual(before);
    const all = entries(file);
    expect(all.filter((e) => e.type === 'session')).toHaveLength(1);
    // Every id once: a repeated one would make pi's chain a loop (pi then never answers).
    expect(new Set(all.slice(1).map((e) => e.id)).size).toBe(all.length - 1);
    const added = all.slice(entries(file).length - 4);
    expect(added[0]).toMatchObject({ parentId: last, message: { role: 'toolResult', toolCallId: 'c_ls' } });
    expect(added.map((e, i) => (i === 0 ? last : added[i - 1].id))).toEqual(added.map((e) => e.parentId));

    const resumed = await continueWithPi(home, dir, file);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(said(mock.requests.at(-1))).toEqual([
      'First question.', 'First answer.', 'List the files.', 'call Bash', 'a.txt\nb.txt', 'There are two files.', 'Thanks.', 'You are welcome.',
      'Reply with exactly: resumed-ok',
    ]);
  });

  test('what a resuming pi appended in between stays on the chain: the next conversion chains onto its last entry', async () => {
    const dir = tempDir('asyncai-log-incremental-pi-');
    const source = join(dir, 'events.ndjson');
    const home = piHome(mock.url);
    writeFileSync(source, FIRST + GROWTH.split('\n').slice(0, 2).join('\n') + '\n');
    const first = await convert(source, home.agentDir, dir);
    const file = first.harnesses[0].session_file;
    const resumed = await continueWithPi(home, dir, file, 'Pi was here.');
    expect(resumed.code, resumed.stderr).toBe(0);
    const piLast = entries(file).at(-1);
    expect(piLast.message.role).toBe('assistant');

    appendFileSync(source, GROWTH.split('\n').slice(2).join('\n'));
    const second = await convert(source, home.agentDir, dir);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
    const all = entries(file);
    expect(all[all.indexOf(all.find((e) => e.id === piLast.id)) + 1].parentId).toBe(piLast.id);
    expect(new Set(all.slice(1).map((e) => e.id)).size).toBe(all.length - 1);

    await continueWithPi(home, dir, file);
    expect(said(mock.requests.at(-1))).toEqual([
      'First question.', 'First answer.', 'List the files.', 'call Bash', 'a.txt\nb.txt', 'There are two files.',
      'Pi was here.', 'resumed-ok', 'Thanks.', 'You are welcome.', 'Reply with exactly: resumed-ok',
    ]);
  });

  test('a pi session that grew on its branch is appended to its Claude Code session; one that forked is converted afresh', async () => {
    const dir = tempDir('asyncai-log-incremental-pi-');
    const source = join(dir, 'session.jsonl');
    writeFileSync(source, readFileSync(join(FIXTURES, 'pi', 'session.jsonl')));
    const env = cleanEnv();
    const run = async () => {
      const r = await runBin(['convert', source], { env, cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim());
    };
    const first = await run();
    expect(first).toMatchObject({ status: 'converted', reason: 'new' });
    const last = entries(source).at(-1).id;
    const entry = (id: string, parentId: string, text: string) => `${JSON.stringify({ type: 'message', id, parentId, timestamp: at(9), message: { role: 'user', content: text } })}\n`;
    appendFileSync(source, entry('beef0001', last, 'Grown on the branch.'));
    const grown = await run();
    expect(grown).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(grown.harnesses[0].session_file).toBe(first.harnesses[0].session_file);
    // A fork from the first user entry: the branch pi continues now is another one.
    appendFileSync(source, entry('beef0002', entries(source)[3].id, 'A fork.'));
    const forked = await run();
    expect(forked.status).toBe('converted');
    expect(forked.harnesses[0].session_file).not.toBe(first.harnesses[0].session_file);
  });
});
