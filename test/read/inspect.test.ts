// `read --inspect` (issue 41) on the captured fixtures of every agent whose sessions are files: each written by
// the real CLI, placed in its agent's layout under a temp root and found by a prefix of its id with
// `--session-dir <format>=<root>`. The shape's counts are asserted against what the fixture holds (its lines'
// types counted here, its golden events: what the existing tests prove the readers give), the conversation's
// text is nowhere in the output, a branched pi or Claude Code session shows its branches, a Claude Code session
// its subagent, a torn file is partial (its warnings counted, not quoted), an unknown id says "no session".
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, FIXTURES, runBin, tempDir } from '../support/run.js';
import { assistant, text, user, writeTranscript } from '../agents/claude-code-cli/reader/support.js';

type Event = Record<string, any>;
const ndjson = (text: string): any[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const loadEvents = (file: string): Event[] => {
  const raw = readFileSync(join(FIXTURES, file), 'utf8');
  // A `.events.json` golden: `{facts, warnings, events}`.
  return file.endsWith('.json') ? JSON.parse(raw).events : ndjson(raw);
};

/** Counts by name, in first-seen order. */
function tally(names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) out[name] = (out[name] ?? 0) + 1;
  return out;
}

/** What `--inspect` must say of a session whose events are `events` (the golden ones). */
function eventFields(events: Event[]): Record<string, unknown> {
  const calls = new Set(events.filter((e) => e.type === 'tool_call').map((e) => e.id));
  for (const e of events) if (e.type === 'tool_result') calls.delete(e.id);
  return {
    events: tally(events.map((e) => e.type)),
    turns: events.filter((e) => e.type === 'user').length,
    tool_calls: tally(events.filter((e) => e.type === 'tool_call').map((e) => e.name)),
    tool_errors: events.filter((e) => e.type === 'tool_result' && e.is_error === true).length,
    unanswered_tool_calls: calls.size,
    images: events.reduce((n, e) => n + (e.type === 'user' ? e.images?.length ?? 0
      : e.type === 'tool_result' && Array.isArray(e.content) ? e.content.filter((p: any) => p.type === 'image').length : 0), 0),
    reasoning: events.filter((e) => e.type === 'thinking').length,
    compactions: events.filter((e) => e.type === 'compaction').length,
  };
}

/** The input and output tokens of the golden events, by the model of the event or the last one named before it. */
function tokensByModel(events: Event[]): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  let model = '(unknown)';
  for (const e of events) {
    if (typeof e.model === 'string') model = e.model;
    if (e.usage === undefined) continue;
    const sum = out[model] ??= [0, 0];
    sum[0] += e.usage.input_tokens ?? 0;
    sum[1] += e.usage.output_tokens ?? 0;
  }
  return out;
}

/** The texts of the conversation (what must never be printed), those long enough to be told apart from names. */
function conversationTexts(events: Event[]): string[] {
  const texts: string[] = [];
  for (const e of events) {
    if (typeof e.text === 'string') texts.push(e.text);
    if (typeof e.summary === 'string') texts.push(e.summary);
    if (typeof e.content === 'string') texts.push(e.content);
    if (Array.isArray(e.content)) for (const p of e.content) if (typeof p.text === 'string') texts.push(p.text);
    for (const image of e.images ?? []) texts.push(image.data);
  }
  return texts.filter((t) => t.length >= 8).map((t) => JSON.stringify(t).slice(1, -1));
}

/** Each line's top-level `type`, counted (the agent's record kinds). */
function lineTypes(file: string): Record<string, number> {
  return tally(readFileSync(join(FIXTURES, file), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).type));
}

interface Case {
  format: string;
  /** The session file the real CLI wrote, under fixtures/. */
  fixture: string;
  /** Its golden events (what its reader or adapter gives, context events included). */
  golden: string;
  id: string;
  /** Where its agent keeps it under `root`. */
  place: (root: string) => string;
  /** Its records by kind, where they are not its lines' types. */
  kinds?: Record<string, number>;
  input: string;
}

/** The captured Codex rollout's id (its first line's): its file is named by it. */
const CODEX_ID: string = JSON.parse(readFileSync(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'), 'utf8').split('\n')[0]!).payload.id;

const CASES: Case[] = [
  {
    format: 'claude-code-cli', input: 'claude-transcript', fixture: 'claude-code-cli/parallel-bash/0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl',
    golden: 'claude-code-cli/parallel-bash/expected-events.ndjson', id: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001',
    place: (root) => join(root, 'projects', '-home-user-project', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl'),
  },
  {
    format: 'codex-cli', input: 'codex-rollout', fixture: 'codex-rollout/parallel.jsonl', golden: 'codex-rollout/parallel.events.json',
    id: CODEX_ID, place: (root) => join(root, 'sessions', '2026', '11', '29', `rollout-2026-11-29T10-00-00-${CODEX_ID}.jsonl`),
  },
  {
    format: 'gemini-cli', input: 'gemini-chat', fixture: 'gemini-cli/session.jsonl', golden: 'gemini-cli/session.events.json',
    id: 'ec355b88-555e-456e-866f-2cb0545b35bf', place: (root) => join(root, 'tmp', 'project', 'chats', 'session-2026-12-01T11-26-ec355b88.jsonl'),
    kinds: { session: 1, $set: 5, user: 2, gemini: 3 },
  },
  {
    format: 'qwen-code', input: 'qwen-chat', fixture: 'qwen-code/session.jsonl', golden: 'qwen-code/session.events.json',
    id: '8726948f-0694-4ee5-a0b1-82576f7c7365', place: (root) => join(root, 'projects', '-home-user-project', 'chats', '8726948f-0694-4ee5-a0b1-82576f7c7365.jsonl'),
  },
  {
    format: 'pi', input: 'pi-session', fixture: 'pi/session.jsonl', golden: 'pi/session.events.json', id: '01a242d8-6c54-707f-8820-ed9dacb8e1f3',
    place: (root) => join(root, 'sessions', '--home-user-project--', '2026-12-04T20-56-49-506Z_01a242d8-6c54-707f-8820-ed9dacb8e1f3.jsonl'),
  },
  {
    format: 'droid', input: 'droid-session', fixture: 'droid/session.jsonl', golden: 'droid/session.events.json', id: '04753db3-f7c8-43f5-a6cb-da2ef3ef9e92',
    place: (root) => join(root, 'sessions', '-home-user-project', '04753db3-f7c8-43f5-a6cb-da2ef3ef9e92.jsonl'),
  },
  {
    format: 'copilot-cli', input: 'copilot-events', fixture: 'copilot-cli/session.jsonl', golden: 'copilot-cli/session.events.json',
    id: '70ac5f75-c6ec-470d-aa2b-fc1e73f89123', place: (root) => join(root, 'session-state', '70ac5f75-c6ec-470d-aa2b-fc1e73f89123', 'events.jsonl'),
  },
];
const codex = CASES[1]!;

/** Place `fixture` at `file` (its folders made). */
function place(fixture: string, file: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  copyFileSync(join(FIXTURES, fixture), file);
}

describe.each(CASES)('read --inspect of a $format session the real CLI wrote', (c) => {
  test('found by an id prefix: the counts the fixture holds, none of its text', async () => {
    const root = tempDir('asyncai-log-inspect-');
    const file = c.place(root);
    place(c.fixture, file);
    const r = await runBin(['read', '--inspect', c.id.slice(0, 8), '--session-dir', `${c.format}=${root}`], { env: cleanEnv() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = ndjson(r.stdout);
    expect(lines).toHaveLength(1);
    const shape = lines[0];
    const golden = loadEvents(c.golden);
    const kinds = c.kinds ?? lineTypes(c.fixture);
    expect(shape).toMatchObject({
      session_id: c.id, agent: c.format, input: c.input, file, partial: false, bytes: readFileSync(file).length,
      records: Object.values(kinds).reduce((a, b) => a + b, 0), records_by_kind: kinds, ...eventFields(golden), warnings: 0,
    });
    const tokens = Object.fromEntries(Object.entries(shape.usage as Record<string, any>).map(([model, u]) => [model, [u.input_tokens ?? 0, u.output_tokens ?? 0]]));
    expect(tokens).toEqual(tokensByModel(golden));
    const reader = c.format === 'claude-code-cli' || c.format === 'pi';
    expect(shape.branches === null).toBe(!reader);
    expect(shape.subagents).toEqual(reader ? [] : null);
    for (const t of conversationTexts(golden)) expect(r.stdout.includes(t), t).toBe(false);
  });
});

describe('read --inspect: branches, subagents, partial, several inputs, stdin, errors', () => {
  test('the branched pi session the real pi wrote shows its two branches, the resumed one marked', async () => {
    const r = await runBin(['read', '--inspect', join(FIXTURES, 'pi', 'branched.jsonl')], { env: cleanEnv() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [shape] = ndjson(r.stdout);
    expect(shape.records_by_kind).toEqual(lineTypes('pi/branched.jsonl'));
    expect(shape.branches).toEqual([
      { leaf: 'e59c5647', resumed: false, records: 7, forks_from: '4f94b5cd' },
      { leaf: 'b7e0c2a2', resumed: true, records: 7, forks_from: null },
    ]);
    // The branch pi resumes is what is counted: its events as plain read gives them.
    const read = await runBin(['read', '--events', join(FIXTURES, 'pi', 'branched.jsonl')], { env: cleanEnv() });
    expect(shape).toMatchObject(eventFields(ndjson(read.stdout)));
    for (const t of conversationTexts(ndjson(read.stdout))) expect(r.stdout.includes(t), t).toBe(false);
  });

  test('a Claude Code session with an edited turn shows both branches; no prompt of either is printed', async () => {
    const dir = tempDir();
    const file = writeTranscript([
      user('u1', null, 'the first question asked'), assistant('a1', 'u1', [text('the first answer given')]),
      user('u2', 'a1', 'an edited question, first try'), assistant('a2', 'u2', [text('the answer to the first try')]),
      user('u3', 'a1', 'an edited question, second try'), assistant('a3', 'u3', [text('the answer to the second try')]),
    ], { dir });
    const r = await runBin(['read', '--inspect', file], { env: cleanEnv() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [shape] = ndjson(r.stdout);
    expect(shape).toMatchObject({ records: 6, records_by_kind: { user: 3, assistant: 3 }, events: { user: 2, assistant: 2 }, turns: 2 });
    expect(shape.branches).toEqual([
      { leaf: 'a2', resumed: false, records: 4, forks_from: 'a1' },
      { leaf: 'a3', resumed: true, records: 4, forks_from: null },
    ]);
    for (const t of ['question', 'first try', 'second try']) expect(r.stdout).not.toContain(t);
  });

  test('the Claude Code session with a subagent shows it: its id and the shape of its events', async () => {
    const root = tempDir('asyncai-log-inspect-');
    const project = join(root, 'projects', '-home-user-project');
    const id = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000002';
    mkdirSync(project, { recursive: true });
    copyFileSync(join(FIXTURES, 'claude-code-cli', 'subagent', `${id}.jsonl`), join(project, `${id}.jsonl`));
    cpSync(join(FIXTURES, 'claude-code-cli', 'subagent', id), join(project, id), { recursive: true });
    const r = await runBin(['read', '--inspect', id, '--session-dir', `claude-code-cli=${root}`], { env: cleanEnv() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [shape] = ndjson(r.stdout);
    // The events plain read gives of it, context events included (test/agents/claude-code-cli/ proves those).
    const read = await runBin(['read', '--events', '--subagents', join(project, `${id}.jsonl`)], { env: cleanEnv() });
    expect([read.code, read.stderr]).toEqual([0, '']);
    const golden = ndjson(read.stdout);
    const parent = golden.filter((e) => e.agent_id === undefined);
    const sub = golden.filter((e) => e.agent_id !== undefined);
    expect(shape).toMatchObject({ session_id: id, ...eventFields(parent) });
    expect(shape.subagents).toEqual([{ agent_id: sub[0].agent_id, ...eventFields(sub), usage: expect.any(Object) }]);
    for (const t of conversationTexts(golden)) expect(r.stdout.includes(t), t).toBe(false);
  });

  test('a torn last line: partial, the warning counted in one line that quotes nothing', async () => {
    const dir = tempDir();
    for (const [fixture, name] of [['claude-code-cli/parallel-bash/0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl', 'claude.jsonl'],
      ['codex-rollout/parallel.jsonl', 'rollout.jsonl']] as const) {
      const whole = readFileSync(join(FIXTURES, fixture), 'utf8');
      const lastStart = whole.trimEnd().lastIndexOf('\n') + 1;
      const torn = whole.slice(0, lastStart + Math.floor((whole.length - lastStart) / 2));
      writeFileSync(join(dir, name), torn);
    }
    const r = await runBin(['read', '--inspect', join(dir, 'claude.jsonl'), join(dir, 'rollout.jsonl')], { env: cleanEnv() });
    expect(r.code).toBe(0);
    const [claude, rollout] = ndjson(r.stdout);
    expect(claude).toMatchObject({ partial: true, warnings: 1 });
    expect(rollout).toMatchObject({ partial: true, warnings: 1 });
    // The torn line is a record whose kind cannot be known, through the reader and through the adapter alike.
    for (const [shape, fixture] of [[claude, CASES[0]!.fixture], [rollout, codex.fixture]] as const) {
      const whole = lineTypes(fixture);
      expect(shape.records_by_kind['(not JSON)']).toBe(1);
      expect(shape.records).toBe(Object.values(whole).reduce((a, b) => a + b, 0));
    }
    expect(r.stderr).toBe(`asyncai-log: ${join(dir, 'claude.jsonl')}: 1 warning (read it without --inspect to see them)\n`
      + `asyncai-log: ${join(dir, 'rollout.jsonl')}: 1 warning (read it without --inspect to see them)\n`);
  });

  test('- reads stdin: a transcript kept and read by its reader, another format through its adapter', async () => {
    const claude = await runBin(['read', '--inspect', '-'], {
      env: cleanEnv(), input: readFileSync(join(FIXTURES, CASES[0]!.fixture)),
    });
    expect([claude.code, claude.stderr]).toEqual([0, '']);
    expect(ndjson(claude.stdout)).toEqual([expect.objectContaining({ session_id: CASES[0]!.id, file: 'stdin', records_by_kind: lineTypes(CASES[0]!.fixture) })]);
    const rollout = await runBin(['read', '--inspect', '-'], { env: cleanEnv(), input: readFileSync(join(FIXTURES, codex.fixture)) });
    expect([rollout.code, rollout.stderr]).toEqual([0, '']);
    expect(ndjson(rollout.stdout)).toEqual([expect.objectContaining({ session_id: null, agent: 'codex-cli', file: 'stdin', records_by_kind: lineTypes(codex.fixture) })]);
  });

  test('an id naming no session: "no session", exit 1, the other inputs still inspected', async () => {
    const r = await runBin(['read', '--inspect', 'deadbeef', join(FIXTURES, 'pi', 'session.jsonl')], { env: cleanEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^asyncai-log: deadbeef: no session of this id under .*\n$/);
    expect(ndjson(r.stdout)).toEqual([expect.objectContaining({ agent: 'pi', session_id: '01a242d8-6c54-707f-8820-ed9dacb8e1f3' })]);
  });
});
