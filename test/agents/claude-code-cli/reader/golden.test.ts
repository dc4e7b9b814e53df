// The fixtures captured from the real Claude Code (fixtures/claude-code-cli/, see
// scripts/capture-claude-fixtures.mjs) read by the built bin must give their golden outputs exactly.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES, runBin } from '../../../support/run.js';

const DIR = join(FIXTURES, 'claude-code-cli');
const scenarios = readdirSync(DIR).sort();

function transcriptOf(scenario: string): string {
  const name = readdirSync(join(DIR, scenario)).find((f) => /^[0-9a-f-]{36}\.jsonl$/.test(f));
  if (!name) throw new Error(`fixture ${scenario} holds no transcript`);
  return join(DIR, scenario, name);
}

const golden = (scenario: string, file: string) => readFileSync(join(DIR, scenario, file), 'utf8');

describe.each(scenarios)('fixture %s', (scenario) => {
  test('read prints the golden events, with nothing on stderr', async () => {
    const r = await runBin(['read', transcriptOf(scenario)]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(golden(scenario, 'expected.ndjson'));
  });

  test('read --events prints the golden events with context', async () => {
    const r = await runBin(['read', '--events', transcriptOf(scenario)]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(golden(scenario, 'expected-events.ndjson'));
  });

  test('read --usage --subagents prints the golden totals', async () => {
    const r = await runBin(['read', '--usage', '--subagents', transcriptOf(scenario)]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(golden(scenario, 'expected-usage.json')));
  });

  test('read --tree prints the golden branches', async () => {
    const r = await runBin(['read', '--tree', transcriptOf(scenario)]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(golden(scenario, 'expected-tree.ndjson'));
  });

});

test('read --subagents of the subagent fixture prints the golden events of session and subagent', async () => {
  const r = await runBin(['read', '--subagents', transcriptOf('subagent')]);
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(r.stdout).toBe(golden('subagent', 'expected-subagents.ndjson'));
});

test('every captured scenario is covered', () => {
  expect(scenarios).toEqual(['compaction', 'image', 'monitor', 'parallel-bash', 'spill', 'subagent']);
});
