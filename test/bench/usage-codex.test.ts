// bench/usage-codex.mjs on a tiny tree: it generates Codex rollouts ccusage and read --usage both count, reports
// both tools' times and totals (the same), and writes its own key into performance.json, keeping the others.
import { expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../support/run.js';

test('usage-codex writes usage_codex (the same totals in both tools) and keeps the rest of performance.json', () => {
  const out = tempDir();
  const cache = tempDir();
  writeFileSync(join(out, 'performance.json'), `${JSON.stringify({ rows: ['kept'] })}\n`);
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'usage-codex.mjs'), '--files', '3', '--turns', '4', '--reps', '1',
    '--cache-dir', cache, '--out-dir', out], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: tempDir() } });
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'performance.json'), 'utf8'));
  expect(report.rows).toEqual(['kept']);
  const u = report.usage_codex;
  expect(u.tree).toMatchObject({ files: 3, turns: 4 });
  expect(u.same_totals).toBe(true);
  expect(u.totals.read_usage).toEqual(u.totals.ccusage);
  expect(u.totals.ccusage[4]).toBeGreaterThan(0);
  expect(u.wall_s.ccusage).toBeGreaterThan(0);
  expect(r.stdout).toContain('| read-usage |');
}, 300_000);
