// What we write is counted right by the usage tools people use: the real ccusage (pinned devDependency) and
// `asyncai-log read --usage` give the input events' four token totals for every session written from seeded
// streams (parallel calls, several models, thinking, cache tokens, usage reported more than once in a
// response, times given alike), and zero for a `convert` without
// `--keep-usage`. One ccusage run and one `read` run cover every session of one config dir.
import { beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fuzzSeed, Rng } from '../reliability/support.js';
import { clientFile } from '../clients/clients.mjs';
import { cleanEnv, run, runBin, sessionOf, tempDir } from '../support/run.js';

const CCUSAGE = clientFile('ccusage', 'src', 'cli.js');
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001'];
const GIVEN = '2026-03-04T05:06:07.000Z';

interface Totals {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
}

const ZERO: Totals = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

/**
 * A seeded conversation of generic events and the totals of the usage they report. Responses have thinking,
 * text and parallel calls; usage comes on the text, on some calls, or on several of them; some events give the
 * same time.
 */
function conversation(rng: Rng): { text: string; totals: Totals } {
  const totals = { ...ZERO };
  const lines: object[] = [];
  const time = () => (rng.chance(0.3) ? { timestamp: GIVEN } : {});
  const usage = () => {
    const u = {
      input_tokens: rng.int(3000), output_tokens: rng.int(800),
      cache_creation_input_tokens: rng.int(2000), cache_read_input_tokens: rng.int(20000),
    };
    totals.input += u.input_tokens;
    totals.output += u.output_tokens;
    totals.cacheCreation += u.cache_creation_input_tokens;
    totals.cacheRead += u.cache_read_input_tokens;
    return { usage: u };
  };
  let call = 0;
  for (let turn = 0; turn < rng.between(3, 6); turn += 1) {
    lines.push({ type: 'user', text: `task ${turn}`, ...time() });
    for (let response = 0; response < rng.between(1, 3); response += 1) {
      const model = { model: rng.pick(MODELS) };
      if (rng.chance(0.5)) lines.push({ type: 'thinking', text: 'planning', signature: 'c2lnbmF0dXJl', ...model, ...time() });
      const calls = rng.int(4);
      const textUsage = rng.chance(0.7);
      lines.push({ type: 'assistant', text: `step ${turn}.${response}`, ...model, ...(textUsage ? usage() : {}), ...time() });
      const ids: string[] = [];
      for (let i = 0; i < calls; i += 1) {
        const id = `toolu_${(call += 1)}`;
        ids.push(id);
        // Usage on a call: the response's when the text had none, else more of it (summed by the writer).
        const withUsage = (!textUsage && i === 0) || rng.chance(0.3);
        lines.push({ type: 'tool_call', id, name: 'Bash', arguments: { command: `echo ${id}` }, ...model, ...(withUsage ? usage() : {}), ...time() });
      }
      for (const id of ids.reverse()) lines.push({ type: 'tool_result', id, content: `out ${id}`, ...time() });
    }
    lines.push({ type: 'assistant', text: `done ${turn}`, model: rng.pick(MODELS), ...usage() });
  }
  return { text: lines.map((line) => `${JSON.stringify(line)}\n`).join(''), totals };
}

/** Session ids of a convert report (one JSON line per source), by the source's file name. */
function convertedSessions(stdout: string): Map<string, string> {
  const sessions = new Map<string, string>();
  for (const line of stdout.split('\n').filter((l) => l !== '')) {
    const entry = JSON.parse(line) as { source: string; status: string; harnesses: { session_id: string }[] };
    expect(entry.status).toBe('converted');
    sessions.set(entry.source.split('/').at(-1)!, entry.harnesses[0]!.session_id);
  }
  return sessions;
}

const seed = fuzzSeed();
const replay = `seed ${seed}, replay with FUZZ_SEED=${seed}`;
/** What each session should total, by session id; the events files' totals by name. */
const expected = new Map<string, Totals>();
const sourceTotals = new Map<string, Totals>();
const converted = { plain: new Map<string, string>(), kept: new Map<string, string>() };
const byCcusage = new Map<string, Totals>();
const byRead = new Map<string, Totals>();
/** ccusage daily's and read --usage --by day's rows, by day. */
const dailyByCcusage = new Map<string, Totals>();
const dailyByRead = new Map<string, Totals>();
let files: string[] = [];

beforeAll(async () => {
  const rng = new Rng(seed);
  const root = tempDir();
  const cwd = tempDir();
  const env = cleanEnv({ CLAUDE_CONFIG_DIR: root });
  const sources = tempDir();
  for (let i = 0; i < 4; i += 1) {
    const { text, totals } = conversation(rng);
    const written = await runBin([], { input: text, env, cwd });
    expect(written.code).toBe(0);
    expected.set(sessionOf(written).session_id, totals);
    sourceTotals.set(`events-${i}.ndjson`, totals);
    writeFileSync(join(sources, `events-${i}.ndjson`), text);
  }
  // A Claude transcript as a convert source too (a copy: convert leaves the sessions under its root alone).
  const [someSession] = expected.keys();
  const project = join(root, 'projects', readdirSync(join(root, 'projects'))[0]!);
  writeFileSync(join(sources, 'transcript.jsonl'), readFileSync(join(project, `${someSession!}.jsonl`)));
  const plain = await runBin(['convert', '--jobs', '1', '--no-progress', sources], { env, cwd });
  expect(plain.code).toBe(0);
  converted.plain = convertedSessions(plain.stdout);
  expect(converted.plain.size).toBe(5);
  // With --keep-usage, the events' usage goes through the same writer: the same totals as the filter's.
  const keptSources = tempDir();
  for (let i = 0; i < 4; i += 1) writeFileSync(join(keptSources, `events-${i}.ndjson`), readFileSync(join(sources, `events-${i}.ndjson`)));
  const kept = await runBin(['convert', '--jobs', '1', '--no-progress', '--keep-usage', keptSources], { env, cwd });
  expect(kept.code).toBe(0);
  converted.kept = convertedSessions(kept.stdout);

  files = readdirSync(join(root, 'projects'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl')).map((name) => join(root, 'projects', name));
  const [ccusage, read, daily, readDaily] = await Promise.all([
    run(process.execPath, [CCUSAGE, 'claude', 'session', '--json', '--offline'], { env: cleanEnv({ CLAUDE_CONFIG_DIR: root, TZ: 'UTC' }) }),
    runBin(['read', '--usage', ...files], { env }),
    run(process.execPath, [CCUSAGE, 'daily', '--json', '--offline'], { env: cleanEnv({ CLAUDE_CONFIG_DIR: root, TZ: 'UTC' }) }),
    runBin(['read', '--usage', '--by', 'day', '--session-dir', `claude-code-cli=${root}`], { env: cleanEnv({ CLAUDE_CONFIG_DIR: root, TZ: 'UTC' }) }),
  ]);
  /** ccusage's rows (camelCase) and read --usage --by's (the one shape) as Totals. */
  const ccusageTotals = (r: Record<string, number | string>): Totals => ({
    input: Number(r.inputTokens), output: Number(r.outputTokens), cacheCreation: Number(r.cacheCreationTokens), cacheRead: Number(r.cacheReadTokens),
  });
  expect(daily.code, daily.stderr).toBe(0);
  for (const d of (JSON.parse(daily.stdout) as { daily: Record<string, number | string>[] }).daily) dailyByCcusage.set(String(d.period), ccusageTotals(d));
  expect(readDaily.code, readDaily.stderr).toBe(0);
  for (const t of readDaily.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, number | string>)) {
    if (t.total === true) continue;
    dailyByRead.set(String(t.day), {
      input: Number(t.input_tokens), output: Number(t.output_tokens), cacheCreation: Number(t.cache_write_tokens), cacheRead: Number(t.cache_read_tokens),
    });
  }
  expect(ccusage.code, ccusage.stderr).toBe(0);
  for (const s of (JSON.parse(ccusage.stdout) as { sessions: Record<string, number | string>[] }).sessions) byCcusage.set(String(s.sessionId), ccusageTotals(s));
  expect(read.code, read.stderr).toBe(0);
  for (const line of read.stdout.split('\n').filter((l) => l !== '')) {
    const t = JSON.parse(line) as Record<string, number | string>;
    byRead.set(String(t.session_id), {
      input: Number(t.input_tokens), output: Number(t.output_tokens),
      cacheCreation: Number(t.cache_creation_input_tokens), cacheRead: Number(t.cache_read_input_tokens),
    });
  }
}, 180_000);

describe('ccusage and read --usage count what we write', () => {
  test('every session written from generated streams totals its input events in both tools', () => {
    expect(expected.size).toBe(4);
    for (const [session, totals] of expected) {
      expect(totals.output, replay).toBeGreaterThan(0);
      expect(byCcusage.get(session), `ccusage, ${replay}`).toEqual(totals);
      expect(byRead.get(session), `read --usage, ${replay}`).toEqual(totals);
    }
  });

  test('convert without --keep-usage counts zero in both; with it, the events totals', () => {
    for (const session of converted.plain.values()) {
      // ccusage lists no session that used no tokens; read --usage says zero.
      expect(byCcusage.get(session) ?? ZERO, `ccusage, ${replay}`).toEqual(ZERO);
      expect(byRead.get(session), `read --usage, ${replay}`).toEqual(ZERO);
    }
    expect(converted.kept.size).toBe(4);
    for (const [source, session] of converted.kept) {
      expect(byCcusage.get(session), `ccusage, ${replay}`).toEqual(sourceTotals.get(source));
      expect(byRead.get(session), `read --usage, ${replay}`).toEqual(sourceTotals.get(source));
    }
  });

  test('ccusage daily counts each response once too (its records carry one request id): its days are read --usage --by day\'s, their sum the sessions\'', () => {
    const sum = (values: Iterable<Totals>) => [...values].reduce((a, b) => ({
      input: a.input + b.input, output: a.output + b.output, cacheCreation: a.cacheCreation + b.cacheCreation, cacheRead: a.cacheRead + b.cacheRead,
    }), ZERO);
    expect(dailyByCcusage.size, replay).toBeGreaterThan(0);
    expect(sum(dailyByCcusage.values()), replay).toEqual(sum(byCcusage.values()));
    expect(new Map([...dailyByRead].filter(([, t]) => t.input + t.output + t.cacheCreation + t.cacheRead > 0)), replay).toEqual(dailyByCcusage);
  });

  test('the records of every response are at strictly increasing times', () => {
    expect(files.length).toBe(4 + 5 + 4);
    for (const file of files) {
      const last = new Map<string, number>();
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line === '') continue;
        const r = JSON.parse(line) as { type: string; timestamp: string; message?: { id?: string } };
        if (r.type !== 'assistant') continue;
        const time = Date.parse(r.timestamp);
        const id = r.message!.id!;
        expect(last.has(id) ? time > last.get(id)! : true, `${file}: ${id} at ${r.timestamp}, ${replay}`).toBe(true);
        last.set(id, time);
      }
    }
  });
});
