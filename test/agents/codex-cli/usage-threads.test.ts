// `read --usage` over a Codex tree counted on this thread, on one worker or on two (--threads 0, 1, 2) gives the
// same rows, and the days and totals of the pinned ccusage (`codex daily`, `codex session`): a seeded tree as
// the bench writes it (bench/usage-codex.mjs: several days and models, repeated counts), one rollout of it
// with every line's keys in another order (read by the whole-line parse, not from the bytes).
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexTree } from '../../../bench/usage-codex.mjs';
import { clientFile } from '../../clients/clients.mjs';
import { cleanEnv, run, runBin, tempDir } from '../../support/run.js';

const CCUSAGE = clientFile('ccusage', 'src', 'cli.js');

const lines = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
const theirs = (x: Record<string, unknown>) => [x.inputTokens, x.outputTokens, x.cacheReadTokens, x.reasoningOutputTokens, x.totalTokens];
const ours = (x: Record<string, unknown>) => [x.input_tokens, x.output_tokens, x.cache_read_tokens, x.reasoning_tokens, x.total_tokens];

let env: Record<string, string>;

beforeAll(() => {
  const tree = codexTree({ files: 7, turns: 40, seed: 41, cacheDir: tempDir() }) as { dir: string };
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.jsonl')) files.push(join(dir, entry.name));
    }
  };
  walk(join(tree.dir, 'sessions'));
  const reversed = (value: unknown): unknown => (Array.isArray(value) ? value.map(reversed)
    : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) : value);
  const text = readFileSync(files[0]!, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.stringify(reversed(JSON.parse(l)))).join('\n');
  writeFileSync(files[0]!, `${text}\n`);
  env = cleanEnv({ CODEX_HOME: tree.dir, TZ: 'UTC' });
});

describe('read --usage over a Codex tree on worker threads', () => {
  test('--threads 0, 1 and 2 give the same rows by day, session and model, and ccusage codex daily\'s days and session totals', async () => {
    const [daily, sessions] = await Promise.all([
      run(process.execPath, [CCUSAGE, 'codex', 'daily', '--json', '--offline'], { env }),
      run(process.execPath, [CCUSAGE, 'codex', 'session', '--json', '--offline'], { env }),
    ]);
    expect(daily.code, daily.stderr).toBe(0);
    const days = (JSON.parse(daily.stdout) as { daily: Record<string, unknown>[] }).daily;
    const total = (JSON.parse(sessions.stdout) as { totals: Record<string, unknown> }).totals;
    expect(days.length).toBeGreaterThan(3);
    for (const by of ['day', 'session', 'model']) {
      const runs = [];
      for (const threads of ['0', '1', '2']) runs.push(await runBin(['read', '--usage', '--by', by, '--threads', threads], { env }));
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      for (const r of runs) expect(r.stderr).toBe('');
      const [single, ...threaded] = runs.map((r) => lines(r.stdout));
      for (const rows of threaded) expect(rows, by).toEqual(single);
      expect(ours(single!.at(-1)!), by).toEqual(theirs(total));
      expect(single!.at(-1)!.sessions).toBe(7);
      if (by === 'day') expect(single!.slice(0, -1).map((row) => [row.day, ...ours(row)])).toEqual(days.map((d) => [d.date, ...theirs(d)]));
    }
  }, 120_000);
});
