// Smoke test of the benchmark (timings are never asserted): the generator is deterministic and writes
// well-formed corpora, and the runner measures every tool on a tiny corpus and reports sane figures.
import { describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../support/run.js';
// @ts-expect-error: plain ESM script without types
import { eventLines, generateCorpus } from '../../bench/generate.mjs';

type Lines = (options: Record<string, unknown>) => Iterable<string>;
const lines = (options: Record<string, unknown>) => [...(eventLines as Lines)(options)];

describe('bench/generate.mjs', () => {
  test('the same seed gives the same corpus and another seed another', () => {
    expect(lines({ events: 500, seed: 3 })).toEqual(lines({ events: 500, seed: 3 }));
    expect(lines({ events: 500, seed: 4 })).not.toEqual(lines({ events: 500, seed: 3 }));
  });

  test('a corpus has the events asked for, every tool call answered, the event types mixed', () => {
    const events = lines({ events: 5000, seed: 1 }).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toHaveLength(5000);
    const calls = new Set(events.filter((e) => e.type === 'tool_call').map((e) => e.id));
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.every((e) => calls.has(e.id))).toBe(true);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'monitor_event']));
  });

  test('the single-event corpus is one tool call and one result of about the size asked for', () => {
    const dir = tempDir();
    const manifest = generateCorpus(join(dir, 'single.ndjson'), { events: 2, seed: 1, singleBytes: 1_000_000 }) as { events: number; bytes: number };
    expect(manifest.events).toBe(2);
    expect(manifest.bytes).toBeGreaterThan(950_000);
    expect(manifest.bytes).toBeLessThan(1_050_000);
  });
});

interface Row {
  corpus: string;
  tool: string;
  status: string;
  events_per_s?: number;
  mb_per_s?: number;
  peak_rss_mib?: number | null;
  speed_vs_node_parse?: number;
}

describe('bench/run.mjs', () => {
  test('a run on a tiny corpus reports every tool on every corpus with positive rates, and the latency', () => {
    const dir = tempDir();
    const run = spawnSync(process.execPath, [
      join(ROOT, 'bench', 'run.mjs'), '--events', '2000', '--single-mb', '0.5', '--reps', '1', '--latency-events', '10',
      '--corpus-dir', join(dir, 'corpora'), '--out-dir', join(dir, 'docs'),
    ], { encoding: 'utf8', cwd: ROOT });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as {
      machine: { cpu: string; cores: number; node: string };
      rows: Row[];
      latency: { events: number; median_ms: number; p99_ms: number };
      targets: { target: string; pass: boolean }[];
    };
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    const tools = ['cat', 'node-parse', 'jq', 'filter', 'filter-1t', 'read', 'convert'];
    expect(report.rows.map((r) => `${r.corpus}/${r.tool}`)).toEqual(
      ['full', 'short', 'single'].flatMap((c) => tools.map((t) => `${c}/${t}`)),
    );
    for (const row of report.rows) {
      // jq may be missing; read and convert may not exist in an older build: then said so, never a failure.
      if (row.tool === 'jq' || row.tool === 'read' || row.tool === 'convert') expect(['ok', 'not available']).toContain(row.status);
      else expect(row.status).toBe('ok');
      if (row.status !== 'ok') continue;
      expect(row.events_per_s).toBeGreaterThan(0);
      expect(row.mb_per_s).toBeGreaterThan(0);
      expect(row.peak_rss_mib).toBeGreaterThan(0);
      expect(row.speed_vs_node_parse).toBeGreaterThan(0);
    }
    expect(report.latency.events).toBe(10);
    expect(report.latency.median_ms).toBeGreaterThan(0);
    expect(report.latency.p99_ms).toBeGreaterThanOrEqual(report.latency.median_ms);
    expect(report.targets.map((t) => t.target)).toContain('live latency median < 2 ms');
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain('| filter |');
    expect(md).toContain(report.machine.cpu);
  }, 180_000);

  test('--versions compares the node binaries named, and --versions-only keeps every other figure', () => {
    const dir = tempDir();
    const bench = (...args: string[]) => spawnSync(process.execPath, [
      join(ROOT, 'bench', 'run.mjs'), '--events', '2000', '--corpora', 'short', '--tools', 'node-parse,filter', '--reps', '1',
      '--latency-events', '0', '--corpus-dir', join(dir, 'corpora'), '--out-dir', join(dir, 'docs'), ...args,
    ], { encoding: 'utf8', cwd: ROOT });
    const first = bench();
    expect(first.status, first.stderr).toBe(0);
    const before = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as { rows: Row[]; versions?: unknown };
    expect(before.versions).toBeUndefined();
    // The same binary twice (own, and by path): the comparison's plumbing without installing another Node.
    const second = bench('--versions', `own,${process.execPath}`, '--versions-corpus', 'short', '--versions-tools', 'filter,read', '--reps', '2', '--versions-only');
    expect(second.status, second.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as {
      rows: Row[];
      versions: { nodes: string[]; reps: number; corpus: { name: string }; rows: (Row & { node: string; runs: unknown[] })[] };
    };
    expect(after.rows).toEqual(before.rows);
    expect(after.versions.nodes).toEqual([process.version, process.version]);
    expect(after.versions.corpus.name).toBe('short');
    expect(after.versions.rows.map((r) => `${r.tool}/${r.node}`)).toEqual(
      ['filter', 'filter', 'read', 'read'].map((t) => `${t}/${process.version}`),
    );
    for (const row of after.versions.rows) {
      expect(row.status).toBe('ok');
      expect(row.runs).toHaveLength(2);
      expect(row.mb_per_s).toBeGreaterThan(0);
    }
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain('## Node versions');
    expect(md).toContain(`| read | ${process.version} |`);
  }, 180_000);
});
