// bench/usage-codex.mjs, a section of bench/run.mjs, on a tiny tree: it generates Codex rollouts ccusage and
// read --usage both count, reports both tools' times and totals (the same) and its targets, and `--only
// usage_codex` keeps every other figure of performance.json.
import { expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../support/run.js';

test('--only usage_codex measures the Codex tree (the same totals in both tools) and keeps the rest of performance.json', () => {
  const dir = tempDir();
  const bench = (...args: string[]) => spawnSync(process.execPath, [
    join(ROOT, 'bench', 'run.mjs'), '--events', '2000', '--corpora', 'short', '--tools', 'node-parse', '--reps', '1',
    '--latency-events', '0', '--corpus-dir', join(dir, 'corpora'), '--out-dir', join(dir, 'docs'), '--tree-dir', join(dir, 'tree'), ...args,
  ], { encoding: 'utf8', cwd: ROOT });
  const first = bench('--quick', '--sections', '');
  expect(first.status, first.stderr).toBe(0);
  const before = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8'));
  const second = bench('--quick', '--only', 'usage_codex', '--usage-codex-files', '3', '--usage-codex-turns', '4');
  expect(second.status, second.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8'));
  expect(report.rows).toEqual(before.rows);
  const u = report.sections.usage_codex.data;
  expect(u.tree).toMatchObject({ files: 3, turns: 4 });
  expect(u.same_totals).toBe(true);
  expect(u.totals.read_usage).toEqual(u.totals.ccusage);
  expect(u.totals.ccusage[4]).toBeGreaterThan(0);
  expect(u.wall_s.ccusage).toBeGreaterThan(0);
  expect(report.targets.map((t: { target: string }) => t.target)).toContain('read --usage over the Codex tree totals what ccusage codex session totals');
  expect(readFileSync(join(dir, 'docs', 'performance.md'), 'utf8')).toContain('| read-usage |');
}, 600_000);
