// Incremental convert: a source that only grew since it was converted is appended to the session written
// then (same id, earlier bytes untouched, chained onto its last record or onto what a resuming claude
// appended); a source changed in place, or a session file that is no longer the one written, makes a new one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync, readdirSync, readFileSync, realpathSync, renameSync, copyFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { startMockOpenAI, writeCodexConfig, type MockOpenAI } from '../support/mock-openai.js';
import { FIXTURES, flatten, resumeWithClaude, runBin, runCodex, tempDir } from '../support/run.js';
import { records } from './support.js';
import { PROMPT_ITEM, RESUME_PROMPT, conversation, ev, resumeWithCodex, rolloutLines } from '../agents/codex-cli/support.js';

let anthropic: MockAnthropic;
let openai: MockOpenAI;
beforeAll(async () => {
  anthropic = await startMockAnthropic();
  openai = await startMockOpenAI();
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
});

async function convert(source: string, root: string): Promise<any> {
  const r = await runBin(['convert', source, '--session-dir', `claude-code-cli=${root}`], { cwd: tempDir() });
  expect(r.code, r.stderr).toBe(0);
  return { ...JSON.parse(r.stdout.trim()), stderr: r.stderr };
}

/** A record as the resume sees it: type and message without ids, uuids or times. */
const shape = (r: any) => JSON.stringify({ type: r.type, content: r.message?.content, result: r.toolUseResult });

/** The records' chain is unbroken: each record's parent is the record before it. */
function expectChained(list: any[]): void {
  const chain = list.filter((r) => 'parentUuid' in r);
  chain.slice(1).forEach((r, i) => expect(r.parentUuid).toBe(chain[i].uuid));
}

const ROLLOUT = readFileSync(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'), 'utf8');

describe('incremental convert into Claude Code sessions', () => {
  test('a source that grows (first with a line still being written) is appended to its session, as one conversion would write it', async () => {
    const dir = tempDir('asyncai-log-incremental-');
    const source = join(dir, 'rollout.jsonl');
    const root = join(dir, 'claude');
    const lines = ROLLOUT.split('\n');
    // The writer is in the middle of line 13.
    const cut = lines.slice(0, 12).join('\n').length + 1 + 40;
    writeFileSync(source, ROLLOUT.slice(0, cut));
    const first = await convert(source, root);
    expect(first).toMatchObject({ status: 'converted', reason: 'new', records: 12, warnings: 0 });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    writeFileSync(source, ROLLOUT);
    const second = await convert(source, root);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses).toEqual([{ format: 'claude-code-cli', session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
    const after = readFileSync(session.session_file);
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);

    // The same records a single conversion of the whole file writes, one chain, the same turns.
    const whole = await convert(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'), join(dir, 'once'));
    const grown = records(session.session_file);
    const once = records(whole.harnesses[0].session_file);
    expect(grown.map(shape)).toEqual(once.map(shape));
    expectChained(grown);
    const turns = (list: any[]) => new Set(list.filter((r) => r.type === 'assistant').map((r) => r.message.id)).size;
    expect(turns(grown)).toBe(turns(once));
    // The append's account counts only what it appended: with the first run's, what one conversion counts.
    const reads = (...accounts: any[]) => {
      const sum: Record<string, number> = {};
      for (const account of accounts) for (const [kind, entry] of Object.entries<any>(account)) sum[kind] = (sum[kind] ?? 0) + entry.read;
      return sum;
    };
    expect(reads(first.harnesses[0].fidelity, second.harnesses[0].fidelity)).toEqual(reads(whole.harnesses[0].fidelity));

    const third = await convert(source, root);
    expect(third).toMatchObject({ status: 'skipped', reason: 'unchanged' });
    expect(readFileSync(session.session_file)).toEqual(after);
  });

  test('a source rewritten in place gets a new session; the old one is left as it was', async () => {
    const dir = tempDir('asyncai-log-incremental-');
    const source = join(dir, 'rollout.jsonl');
    const root = join(dir, 'claude');
    const lines = ROLLOUT.split('\n');
    writeFileSync(source, `${lines.slice(0, 12).join('\n')}\n`);
    const first = (await convert(source, root)).harnesses[0];
    const before = readFileSync(first.session_file);
    // The same length and more, but an earlier line differs.
    writeFileSync(source, ROLLOUT.replace('Run two commands at once.', 'Run two commands at twice'));
    const second = await convert(source, root);
    expect(second).toMatchObject({ status: 'converted', reason: 'changed' });
    expect(second.harnesses[0].session_id).not.toBe(first.session_id);
    expect(second.harnesses[0].previous_session_id).toBe(first.session_id);
    expect(readFileSync(first.session_file)).toEqual(before);
  });

  test('a session file that is no longer the one written (replaced, or its bytes changed) is not appended to', async () => {
    const dir = tempDir('asyncai-log-incremental-');
    const source = join(dir, 'rollout.jsonl');
    const root = join(dir, 'claude');
    const lines = ROLLOUT.split('\n');
    writeFileSync(source, `${lines.slice(0, 8).join('\n')}\n`);
    const first = (await convert(source, root)).harnesses[0];
    // Replaced by a copy (another inode) with the same bytes.
    copyFileSync(first.session_file, `${first.session_file}.copy`);
    unlinkSync(first.session_file);
    renameSync(`${first.session_file}.copy`, first.session_file);
    const copied = readFileSync(first.session_file);
    writeFileSync(source, `${lines.slice(0, 12).join('\n')}\n`);
    const second = await convert(source, root);
    expect(second).toMatchObject({ status: 'converted', warnings: 1 });
    expect(second.stderr).toContain(`cannot append to ${first.session_file}: it is not the file written before; converted into a new session`);
    expect(second.harnesses[0].session_id).not.toBe(first.session_id);
    expect(readFileSync(first.session_file)).toEqual(copied);
  });
});

describe('real codex grows a session, real claude resumes its conversion', () => {
  test('codex exec resume appends a turn; convert appends it to the same Claude session; claude resumes old and new turns, also after a claude resume of its own', async () => {
    const dir = tempDir('asyncai-log-incremental-real-');
    const project = realpathSync(dir);
    const codexHome = join(dir, 'codex');
    writeCodexConfig(codexHome, openai.url);
    const root = join(dir, 'claude');

    openai.script([{ type: 'message', text: 'First answer.' }]);
    const started = await runCodex({ codexHome, cwd: project, args: ['First question.'] });
    expect(started.code, started.stderr).toBe(0);
    const thread = started.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
      .find((e) => e.type === 'thread.started').thread_id as string;
    const sessions = join(codexHome, 'sessions');

    const first = await convert(sessions, root);
    expect(first).toMatchObject({ status: 'converted', reason: 'new', cwd: project });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    openai.script([{ type: 'message', text: 'Second answer.' }]);
    const resumed = await runCodex({ codexHome, cwd: project, args: ['resume', thread, 'Second question.'] });
    expect(resumed.code, resumed.stderr).toBe(0);

    const second = await convert(sessions, root);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses[0].session_id).toBe(session.session_id);
    expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);
    expectChained(records(session.session_file));

    const texts = async (prompt: string) => {
      const r = await resumeWithClaude({ configDir: root, cwd: project, session: session.session_id, baseUrl: anthropic.url, prompt });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('resumed-ok');
      return flatten(anthropic.requests.at(-1)!.body.messages).flatMap((m) => m.blocks
        .filter((b: any) => b.type === 'text' && !String(b.text).startsWith('<system-reminder>'))
        .map((b: any) => [m.role, b.text]));
    };
    expect(await texts('Third question.')).toEqual([
      ['user', 'First question.'], ['assistant', 'First answer.'],
      ['user', 'Second question.'], ['assistant', 'Second answer.'],
      ['user', 'Third question.'],
    ]);

    // Claude appended its own turn to the session; Codex goes on too: the next convert follows claude's turn.
    openai.script([{ type: 'message', text: 'Fourth answer.' }]);
    const again = await runCodex({ codexHome, cwd: project, args: ['resume', thread, 'Fourth question.'] });
    expect(again.code, again.stderr).toBe(0);
    const third = await convert(sessions, root);
    expect(third).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(third.harnesses[0].session_id).toBe(session.session_id);
    expect(await texts('Fifth question.')).toEqual([
      ['user', 'First question.'], ['assistant', 'First answer.'],
      ['user', 'Second question.'], ['assistant', 'Second answer.'],
      ['user', 'Third question.'], ['assistant', 'resumed-ok'],
      ['user', 'Fourth question.'], ['assistant', 'Fourth answer.'],
      ['user', 'Fifth question.'],
    ]);
    expect(readdirSync(join(root, 'projects'))).toHaveLength(1);
  });
});

describe('incremental convert into Codex sessions', () => {
  test('a source that grows, mid-turn, is appended to its Codex session: no second session_meta, totals run on, real codex resumes old and new turns', async () => {
    const dir = tempDir('asyncai-log-incremental-codex-');
    const project = realpathSync(dir);
    const source = join(dir, 'events.ndjson');
    const root = join(dir, 'codex');
    writeCodexConfig(root, openai.url);
    const run = async (): Promise<any> => {
      const r = await runBin(['convert', source, '--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', project, '--keep-usage'], { cwd: tempDir() });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim());
    };
    const at = (s: number) => `2026-11-30T10:00:${String(s).padStart(2, '0')}.000Z`;
    writeFileSync(source, [
      ev({ type: 'user', text: 'First question.', timestamp: at(1) }),
      ev({ type: 'assistant', text: 'First answer.', model: 'gpt-5', usage: { input_tokens: 10, output_tokens: 5 }, timestamp: at(2) }),
      ev({ type: 'user', text: 'List the files.', timestamp: at(3) }),
      ev({ type: 'tool_call', id: 'call_ls', name: 'exec_command', arguments: { cmd: 'ls' }, usage: { input_tokens: 20, output_tokens: 3 }, timestamp: at(4) }),
    ].join(''));
    const first = await run();
    expect(first).toMatchObject({ status: 'converted', reason: 'new', warnings: 0, cwd: project });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    // The turn goes on in the source: the call's result and the answer, then another turn.
    appendFileSync(source, [
      ev({ type: 'tool_result', id: 'call_ls', content: 'a.txt\nb.txt', timestamp: at(5) }),
      ev({ type: 'assistant', text: 'There are two files.', usage: { input_tokens: 30, output_tokens: 4 }, timestamp: at(6) }),
      ev({ type: 'user', text: 'Thanks.', timestamp: at(7) }),
      ev({ type: 'assistant', text: 'You are welcome.', usage: { input_tokens: 40, output_tokens: 2 }, timestamp: at(8) }),
    ].join(''));
    const second = await run();
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses).toEqual([{ format: 'codex-cli', session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
    const after = readFileSync(session.session_file);
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);

    const lines = rolloutLines(session.session_file);
    expect(lines.filter((l) => l.type === 'session_meta')).toHaveLength(1);
    const events = lines.filter((l) => l.type === 'event_msg').map((l) => l.payload);
    // Each turn opened is completed once; the new part starts its own turn after the task_complete written before.
    const started = events.filter((p) => p.type === 'task_started').map((p) => p.turn_id);
    const completed = events.filter((p) => p.type === 'task_complete').map((p) => p.turn_id);
    expect(completed).toEqual(started);
    expect(new Set(started).size).toBe(started.length);
    const firstNew = lines[before.toString('utf8').split('\n').length - 1];
    expect(firstNew.payload.type).toBe('task_started');
    const totals = events.filter((p) => p.type === 'token_count').map((p) => p.info.total_token_usage.total_tokens);
    expect(totals).toEqual([15, 38, 72, 114]);

    const third = await run();
    expect(third).toMatchObject({ status: 'skipped', reason: 'unchanged' });
    expect(readFileSync(session.session_file)).toEqual(after);

    const { input } = await resumeWithCodex(openai, root, project, [session.session_id, RESUME_PROMPT]);
    expect(conversation(input)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'First question.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'First answer.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
      { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_ls' },
      { type: 'function_call_output', call_id: 'call_ls', output: 'a.txt\nb.txt' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'There are two files.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'You are welcome.' }] },
      PROMPT_ITEM,
    ]);

    // Codex appended its resumed turn; the source grows again: what follows continues Codex's running totals.
    const resumed = rolloutLines(session.session_file);
    const codexTotal = resumed.filter((l) => l.type === 'event_msg' && l.payload.type === 'token_count').at(-1)!.payload.info.total_token_usage;
    expect(codexTotal.total_tokens).toBeGreaterThan(114);
    appendFileSync(source, ev({ type: 'assistant', text: 'Anything else?', usage: { input_tokens: 50, output_tokens: 1 }, timestamp: at(9) }));
    const fourth = await run();
    expect(fourth).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(fourth.harnesses[0].session_id).toBe(session.session_id);
    const last = rolloutLines(session.session_file).filter((l) => l.type === 'event_msg' && l.payload.type === 'token_count').at(-1)!;
    expect(last.payload.info.total_token_usage.total_tokens).toBe(codexTotal.total_tokens + 51);
    expect(last.payload.info.total_token_usage.input_tokens).toBe(codexTotal.input_tokens + 50);
  });
});

describe('a Claude Code transcript that grew, as a source', () => {
  const CWD = '/home/user/project';
  let clock = 0;
  const rec = (type: 'user' | 'assistant', uuid: string, parentUuid: string | null, text: string) => `${JSON.stringify({
    type, uuid, parentUuid, sessionId: 'a0000000-0000-4000-8000-000000000001', cwd: CWD, isSidechain: false,
    timestamp: `2026-11-30T10:00:${String(clock += 1).padStart(2, '0')}.000Z`,
    message: type === 'user' ? { role: 'user', content: text }
      : { id: `msg_${uuid}`, role: 'assistant', model: 'claude-sonnet-4-5', type: 'message', content: [{ type: 'text', text }] },
  })}\n`;
  const texts = (file: string) => records(file).filter((r) => r.type === 'user' || r.type === 'assistant')
    .map((r) => (typeof r.message.content === 'string' ? r.message.content : r.message.content.map((b: any) => b.text).join('')));
  const start = () => {
    clock = 0;
    return [rec('user', 'u1', null, 'First question.'), rec('assistant', 'a1', 'u1', 'First answer.'),
      rec('user', 'u2', 'a1', 'Second question.'), rec('assistant', 'a2', 'u2', 'Second answer.')].join('');
  };

  test('new records that continue its branch are appended to the session converted before', async () => {
    const dir = tempDir('asyncai-log-incremental-claude-');
    const source = join(dir, 'transcript.jsonl');
    const root = join(dir, 'claude');
    writeFileSync(source, start());
    const first = await convert(source, root);
    expect(first).toMatchObject({ status: 'converted', reason: 'new', input_format: 'claude-transcript', cwd: CWD });
    const session = first.harnesses[0];
    const before = readFileSync(session.session_file);

    appendFileSync(source, rec('user', 'u3', 'a2', 'Third question.') + rec('assistant', 'a3', 'u3', 'Third answer.'));
    const second = await convert(source, root);
    expect(second).toMatchObject({ status: 'converted', reason: 'grew', warnings: 0 });
    expect(second.harnesses).toEqual([{ format: 'claude-code-cli', session_id: session.session_id, session_file: session.session_file, fidelity: expect.any(Object) }]);
    expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);
    expect(texts(session.session_file)).toEqual(['First question.', 'First answer.', 'Second question.', 'Second answer.', 'Third question.', 'Third answer.']);
    expectChained(records(session.session_file));
  });

  test('new records that fork from an older record (a rewind) make a new session of the new branch; the old one is left as it was', async () => {
    const dir = tempDir('asyncai-log-incremental-claude-');
    const source = join(dir, 'transcript.jsonl');
    const root = join(dir, 'claude');
    writeFileSync(source, start());
    const session = (await convert(source, root)).harnesses[0];
    const before = readFileSync(session.session_file);

    // The user went back to the first answer and asked something else: the resumed branch is u1 a1 u3 a3.
    appendFileSync(source, rec('user', 'u3', 'a1', 'Another second question.') + rec('assistant', 'a3', 'u3', 'Another second answer.'));
    const second = await convert(source, root);
    expect(second).toMatchObject({ status: 'converted', reason: 'changed', warnings: 0 });
    expect(second.harnesses[0].session_id).not.toBe(session.session_id);
    expect(second.harnesses[0].previous_session_id).toBe(session.session_id);
    expect(readFileSync(session.session_file)).toEqual(before);
    expect(texts(second.harnesses[0].session_file)).toEqual(['First question.', 'First answer.', 'Another second question.', 'Another second answer.']);

    // And what continues the new branch is appended to the new session.
    const now = readFileSync(second.harnesses[0].session_file);
    appendFileSync(source, rec('user', 'u4', 'a3', 'Third question.') + rec('assistant', 'a4', 'u4', 'Third answer.'));
    const third = await convert(source, root);
    expect(third).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(third.harnesses[0].session_id).toBe(second.harnesses[0].session_id);
    expect(readFileSync(second.harnesses[0].session_file).subarray(0, now.length)).toEqual(now);
    expect(texts(second.harnesses[0].session_file)).toEqual([
      'First question.', 'First answer.', 'Another second question.', 'Another second answer.', 'Third question.', 'Third answer.',
    ]);
  });
});
