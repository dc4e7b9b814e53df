// `read --usage --by` over trees of sessions the real CLIs wrote (fixtures/<agent>/): every agent's tokens in
// the one shape equal the usage its input adapter reads from the file; a Claude Code and Codex tree read with
// no argument (HOME and the agents' variables pointed at a temp tree), with --session-dir and as a directory
// gives the same totals, and those of the pinned ccusage (`session --json --offline`, `codex daily`).
import { beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFile } from '../clients/clients.mjs';
import { BIN, cleanEnv, FIXTURES, run, runBin, tempDir } from '../support/run.js';

const CCUSAGE = clientFile('ccusage', 'src', 'cli.js');
/** The Droid session of fixtures/droid/usage/ (the real CLI's `<id>.jsonl` and `<id>.settings.json`). */
const DROID_ID = 'd75aadb2-4c8c-4e77-96e7-fe21badceff7';

interface Counts { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; reasoning_tokens: number; total_tokens: number }
const KEYS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'total_tokens'] as const;

const lines = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
const counts = (row: Record<string, unknown>): Counts => Object.fromEntries(KEYS.map((k) => [k, row[k]])) as unknown as Counts;

/** The one shape of the usage the events of `<fixture>.events.json` carry (what the agent's adapter read from its file). */
function eventsCounts(file: string): Counts {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const events = (Array.isArray(doc) ? doc : (doc as { events: unknown[] }).events) as { type: string; usage?: Record<string, number> }[];
  const out: Counts = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, total_tokens: 0 };
  for (const event of events) {
    if ((event.type !== 'assistant' && event.type !== 'tool_call') || event.usage === undefined) continue;
    const u = event.usage;
    out.input_tokens += u.input_tokens ?? 0;
    out.output_tokens += u.output_tokens ?? 0;
    out.cache_read_tokens += u.cache_read_input_tokens ?? 0;
    out.cache_write_tokens += u.cache_creation_input_tokens ?? 0;
  }
  out.total_tokens = out.input_tokens + out.output_tokens + out.cache_read_tokens + out.cache_write_tokens;
  return out;
}

/** The session files of each agent (as its CLI wrote them) and the events its adapter reads from each. */
const AGENT_FILES: [string, string, string][] = [
  ['gemini-cli', 'session.jsonl', 'session.events.json'],
  ['qwen-code', 'session.jsonl', 'session.events.json'],
  ['pi', 'session.jsonl', 'session.events.json'],
  ['copilot-cli', 'session.jsonl', 'session.events.json'],
  ['droid', 'session.jsonl', 'session.events.json'],
  ['opencode', 'session.json', 'session.events.json'],
  ['kilo', 'session.json', 'session.events.json'],
  ['codex-cli', join('..', 'codex-rollout', 'actions.jsonl'), join('..', 'codex-rollout', 'actions.events.json')],
];

/**
 * A real rollout with its token counts changed to what ccusage's rules tell apart: cached input and reasoning,
 * a count repeated (same running total), a turn after midnight UTC, and counts given only as a running total.
 */
function variedRollout(): string {
  const records = readFileSync(join(FIXTURES, 'codex-rollout', 'actions.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
  const u = (i: number, c: number, o: number, r: number) => ({ input_tokens: i, cached_input_tokens: c, cache_write_input_tokens: 0, output_tokens: o, reasoning_output_tokens: r, total_tokens: i + o });
  const counts = [
    { total: u(1000, 600, 50, 20), last: u(1000, 600, 50, 20), at: '2026-11-29T22:10:36.000Z' },
    { total: u(1000, 600, 50, 20), last: u(1000, 600, 50, 20), at: '2026-11-29T22:10:36.500Z' },
    { total: u(3000, 2000, 150, 70), last: u(2000, 1400, 100, 50), at: '2026-11-29T23:59:37.000Z' },
    { total: u(6000, 4000, 250, 90), last: undefined, at: '2026-11-30T00:10:38.000Z' },
    { total: u(6000, 4000, 250, 90), last: u(0, 0, 0, 0), at: '2026-11-30T00:10:39.000Z' },
    { total: u(7000, 4500, 300, 100), last: u(1000, 500, 50, 10), at: '2026-11-30T00:10:40.000Z' },
  ];
  let k = 0;
  for (const r of records) {
    if (r.type !== 'event_msg' || r.payload?.type !== 'token_count' || r.payload.info == null) continue;
    const c = counts[k++]!;
    r.payload.info.total_token_usage = c.total;
    if (c.last === undefined) delete r.payload.info.last_token_usage;
    else r.payload.info.last_token_usage = c.last;
    r.timestamp = c.at;
  }
  expect(k).toBe(counts.length);
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

const home = tempDir();
const claude = join(home, '.claude');
const codexHome = join(home, '.codex');
const env = cleanEnv({ HOME: home, TZ: 'UTC' });
let byNoArgument: Record<string, unknown>[] = [];

beforeAll(async () => {
  const project = join(claude, 'projects', '-home-user-project');
  mkdirSync(project, { recursive: true });
  for (const dir of readdirSync(join(FIXTURES, 'claude-code-cli'))) {
    for (const name of readdirSync(join(FIXTURES, 'claude-code-cli', dir))) {
      if (/^[0-9a-f-]{36}(\.jsonl)?$/.test(name)) cpSync(join(FIXTURES, 'claude-code-cli', dir, name), join(project, name), { recursive: true });
    }
  }
  const day = join(codexHome, 'sessions', '2026', '11', '29');
  mkdirSync(day, { recursive: true });
  for (const name of ['actions', 'parallel', 'resumed']) {
    const text = readFileSync(join(FIXTURES, 'codex-rollout', `${name}.jsonl`), 'utf8');
    const id = (JSON.parse(text.split('\n')[0]!) as { payload: { id: string } }).payload.id;
    copyFileSync(join(FIXTURES, 'codex-rollout', `${name}.jsonl`), join(day, `rollout-2026-11-29T22-10-35-${id}.jsonl`));
  }
  writeFileSync(join(day, 'rollout-2026-11-29T22-10-35-01a2295c-0000-7000-8000-000000000001.jsonl'), variedRollout());
  const r = await runBin(['read', '--usage'], { env });
  expect(r.code, r.stderr).toBe(0);
  byNoArgument = lines(r.stdout);
}, 120_000);

describe('read --usage --by: every agent in one shape', () => {
  test('each agent\'s session file, read in a directory, counts the usage its input adapter reads from it', async () => {
    const dir = tempDir();
    for (const [agent, file] of AGENT_FILES) {
      mkdirSync(join(dir, agent));
      copyFileSync(join(FIXTURES, agent, file), join(dir, agent, file.split('/').at(-1)!));
    }
    const r = await runBin(['read', '--usage', '--by', 'session', dir], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout);
    for (const [agent, file, events] of AGENT_FILES) {
      const row = rows.find((x) => x.path === join(dir, agent, file.split('/').at(-1)!));
      expect(row?.agent, agent).toBe(agent);
      expect(counts(row!), agent).toEqual(eventsCounts(join(FIXTURES, agent, events)));
    }
    expect(rows.at(-1)).toMatchObject({ total: true, sessions: AGENT_FILES.length });
  });

  test('with no argument, with --session-dir and as directories, a Claude Code and Codex tree gives the same rows', async () => {
    const bySessionDir = await runBin(['read', '--usage', '--session-dir', `claude-code-cli=${claude}`, '--session-dir', `codex-cli=${codexHome}`],
      { env: cleanEnv({ TZ: 'UTC' }) });
    const byDirectory = await runBin(['read', '--usage', claude, codexHome], { env: cleanEnv({ TZ: 'UTC' }) });
    for (const r of [bySessionDir, byDirectory]) expect(r.code, r.stderr).toBe(0);
    const shown = (rows: Record<string, unknown>[]) => rows.map((row) => ({ ...row, path: undefined }));
    expect(byNoArgument.length).toBe(6 + 4 + 1);
    expect(shown(lines(bySessionDir.stdout))).toEqual(shown(byNoArgument));
    expect(shown(lines(byDirectory.stdout))).toEqual(shown(byNoArgument));
  });

  test('the totals equal ccusage session\'s; each Claude session equals ccusage claude session\'s', async () => {
    const all = await run(process.execPath, [CCUSAGE, 'session', '--json', '--offline'], { env });
    expect(all.code, all.stderr).toBe(0);
    const totals = (JSON.parse(all.stdout) as { totals: Record<string, number> }).totals;
    const ours = byNoArgument.at(-1)!;
    expect([ours.input_tokens, ours.output_tokens, ours.cache_read_tokens, ours.cache_write_tokens, ours.total_tokens])
      .toEqual([totals.inputTokens, totals.outputTokens, totals.cacheReadTokens, totals.cacheCreationTokens, totals.totalTokens]);
    const sessions = await run(process.execPath, [CCUSAGE, 'claude', 'session', '--json', '--offline'], { env });
    for (const s of (JSON.parse(sessions.stdout) as { sessions: Record<string, number | string>[] }).sessions) {
      const row = byNoArgument.find((x) => x.session_id === s.sessionId)!;
      expect([row.input_tokens, row.output_tokens, row.cache_read_tokens, row.cache_write_tokens], String(s.sessionId))
        .toEqual([s.inputTokens, s.outputTokens, s.cacheReadTokens, s.cacheCreationTokens]);
    }
  });

  test('Codex by day and by session equals ccusage codex daily and session (cached input out of input, reasoning, repeats, days in UTC)', async () => {
    const [daily, sessions, ours] = await Promise.all([
      run(process.execPath, [CCUSAGE, 'codex', 'daily', '--json', '--offline'], { env }),
      run(process.execPath, [CCUSAGE, 'codex', 'session', '--json', '--offline'], { env }),
      runBin(['read', '--usage', '--by', 'day', codexHome], { env }),
    ]);
    expect(ours.code, ours.stderr).toBe(0);
    const shape = (x: Record<string, unknown>) => [x.inputTokens, x.outputTokens, x.cacheReadTokens, x.reasoningOutputTokens, x.totalTokens];
    const mine = (x: Record<string, unknown>) => [x.input_tokens, x.output_tokens, x.cache_read_tokens, x.reasoning_tokens, x.total_tokens];
    const days = (JSON.parse(daily.stdout) as { daily: Record<string, unknown>[] }).daily;
    const rows = lines(ours.stdout);
    expect(rows.slice(0, -1).map((row) => [row.day, ...mine(row)])).toEqual(days.map((d) => [d.date, ...shape(d)]));
    expect(rows.map((row) => row.day)).toEqual(['2026-11-29', '2026-11-30', undefined]);
    const total = (JSON.parse(sessions.stdout) as { totals: Record<string, unknown> }).totals;
    expect(mine(rows.at(-1)!)).toEqual(shape(total));
    expect(rows.at(-1)!.reasoning_tokens).toBeGreaterThan(0);
  });

  test('Droid counts its session\'s settings file (tokenUsage): its raw fields, and ccusage droid session\'s totals', async () => {
    const droidHome = tempDir();
    const sessions = join(droidHome, '.factory', 'sessions', '-home-user-proj');
    mkdirSync(sessions, { recursive: true });
    for (const name of readdirSync(join(FIXTURES, 'droid', 'usage'))) copyFileSync(join(FIXTURES, 'droid', 'usage', name), join(sessions, name));
    const settings = JSON.parse(readFileSync(join(sessions, `${DROID_ID}.settings.json`), 'utf8')) as { tokenUsage: Record<string, number>; model: string };
    const u = settings.tokenUsage;
    const droidEnv = cleanEnv({ HOME: droidHome, TZ: 'UTC' });
    const [ours, ccusage] = await Promise.all([
      runBin(['read', '--usage', '--by', 'model'], { env: droidEnv }),
      run(process.execPath, [CCUSAGE, 'droid', 'session', '--json', '--offline'], { env: droidEnv }),
    ]);
    expect(ours.code, ours.stderr).toBe(0);
    const [row, total] = lines(ours.stdout);
    expect(row).toEqual({
      model: settings.model, input_tokens: u.inputTokens, output_tokens: u.outputTokens! + u.thinkingTokens!, cache_read_tokens: u.cacheReadTokens,
      cache_write_tokens: u.cacheCreationTokens, reasoning_tokens: u.thinkingTokens, total_tokens: u.inputTokens! + u.outputTokens! + u.thinkingTokens! + u.cacheReadTokens! + u.cacheCreationTokens!,
    });
    expect(total).toMatchObject({ total: true, sessions: 1, total_tokens: row!.total_tokens });
    expect(u.inputTokens).toBeGreaterThan(0);
    const theirs = (JSON.parse(ccusage.stdout) as { totals: Record<string, number> }).totals;
    expect([row!.input_tokens, row!.cache_read_tokens, row!.cache_write_tokens, row!.total_tokens])
      .toEqual([theirs.inputTokens, theirs.cacheReadTokens, theirs.cacheCreationTokens, theirs.totalTokens]);
  });

  test('Gemini CLI, Qwen Code, Pi and Copilot CLI trees: each agent\'s input, cache and total tokens equal ccusage <agent> session\'s', async () => {
    const other = tempDir();
    const place = (agent: string, file: string, dir: string, name: string) => {
      mkdirSync(join(other, dir), { recursive: true });
      copyFileSync(join(FIXTURES, agent, file), join(other, dir, name));
    };
    const firstLine = (agent: string) => JSON.parse(readFileSync(join(FIXTURES, agent, 'session.jsonl'), 'utf8').split('\n')[0]!) as Record<string, any>;
    const pi = firstLine('pi').id as string;
    place('pi', 'session.jsonl', '.pi/agent/sessions/--home-user-project--', `2026-12-04T20-56-49-506Z_${pi}.jsonl`);
    const qwen = firstLine('qwen-code').sessionId as string;
    place('qwen-code', 'session.jsonl', '.qwen/projects/-home-user-project/chats', `${qwen}.jsonl`);
    const gemini = firstLine('gemini-cli').sessionId as string;
    place('gemini-cli', 'session.jsonl', '.gemini/tmp/project/chats', `session-2026-12-01T11-26-${gemini.slice(0, 8)}.jsonl`);
    const copilot = firstLine('copilot-cli').data.sessionId as string;
    place('copilot-cli', 'session.jsonl', `.copilot/session-state/${copilot}`, 'events.jsonl');
    const otherEnv = cleanEnv({ HOME: other, TZ: 'UTC' });
    const ours = await runBin(['read', '--usage'], { env: otherEnv });
    expect(ours.code, ours.stderr).toBe(0);
    const rows = lines(ours.stdout);
    for (const [agent, format, id] of [['pi', 'pi', pi], ['qwen', 'qwen-code', qwen], ['gemini', 'gemini-cli', gemini], ['copilot', 'copilot-cli', copilot]] as const) {
      const theirs = await run(process.execPath, [CCUSAGE, agent, 'session', '--json', '--offline'], { env: otherEnv });
      expect(theirs.code, theirs.stderr).toBe(0);
      const t = (JSON.parse(theirs.stdout) as { totals: Record<string, number> }).totals;
      const row = rows.find((r) => r.agent === format && r.session_id === id)!;
      expect(row.total_tokens, agent).toBeGreaterThan(0);
      // Qwen's thoughts are inside our output (its adapter folds them in) and beside ccusage's: only the total says both.
      expect([row.input_tokens, row.cache_read_tokens, row.cache_write_tokens, row.total_tokens], agent)
        .toEqual([t.inputTokens, t.cacheReadTokens, t.cacheCreationTokens, t.totalTokens]);
    }
  });

  test('counted on worker threads (--threads 2) or on one (--threads 0), the rows are the same', async () => {
    const [threaded, single] = await Promise.all([
      runBin(['read', '--usage', '--threads', '2'], { env }),
      runBin(['read', '--usage', '--threads', '0'], { env }),
    ]);
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(threaded.stderr).toBe('');
    expect(lines(threaded.stdout)).toEqual(byNoArgument);
    expect(lines(single.stdout)).toEqual(byNoArgument);
  });

  test('on a terminal the rows are a table with the total row; piped, the same counts are NDJSON', async () => {
    const command = `exec "${process.execPath}" "${BIN}" read --usage --by month`;
    const r = await run('script', ['-qec', command, '/dev/null'], { env });
    expect(r.code, r.stderr).toBe(0);
    const table = r.stdout.replace(/\r/g, '').split('\n').filter((l) => l !== '');
    const piped = lines((await runBin(['read', '--usage', '--by', 'month'], { env })).stdout);
    const number = (n: unknown) => (n as number).toLocaleString('en-US');
    expect(table[0]).toMatch(/^Month +Input +Output +Cache read +Cache write +Reasoning +Total$/);
    expect(table.slice(2, -2).map((l) => l.split(/ {2,}/))).toEqual(piped.slice(0, -1).map((row) => [row.month, ...KEYS.map((k) => number(row[k]))]));
    expect(table.at(-1)!.split(/ {2,}/)).toEqual(['Total', ...KEYS.map((k) => number(piped.at(-1)![k]))]);
  });

  test('a missing file and a file of no agent among the inputs: one line each, the others counted, exit 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.jsonl'), '{"hello":"world"}\n');
    const r = await runBin(['read', '--usage', '--by', 'day', join(dir, 'missing.jsonl'), join(dir, 'notes.jsonl'), codexHome], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toEqual([
      `asyncai-log: ${join(dir, 'missing.jsonl')}: cannot be read: no such file`,
      `asyncai-log: ${join(dir, 'notes.jsonl')}: not a session file of an agent asyncai-log reads`,
      '',
    ]);
    expect(lines(r.stdout).at(-1)).toMatchObject({ total: true, sessions: 4 });
  });

  test('by day, month and model the rows add up to the same total row', async () => {
    const totals = [];
    for (const by of ['session', 'day', 'month', 'model']) {
      const r = await runBin(['read', '--usage', '--by', by], { env });
      expect(r.code, r.stderr).toBe(0);
      const rows = lines(r.stdout);
      const sum = Object.fromEntries(KEYS.map((k) => [k, rows.slice(0, -1).reduce((n, row) => n + (row[k] as number), 0)]));
      expect(counts(rows.at(-1)!), by).toEqual(sum);
      totals.push(rows.at(-1));
    }
    expect(new Set(totals.map((t) => JSON.stringify(t))).size).toBe(1);
  });
});
