// Smoke test of the benchmark (timings are never asserted): the generator is deterministic and writes
// well-formed corpora, and the runner measures every tool on a tiny corpus and reports sane figures.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
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

interface Raw {
  wall_s: number;
  cpu_s: number | null;
  events_per_s: number;
  mb_per_s: number;
  peak_rss_mib: number | null;
  speed_vs_node_parse?: number;
}

interface Row {
  corpus: string;
  tool: string;
  status: string;
  input_bytes?: number;
  input_events?: number;
  wall_s?: number;
  events_per_s?: number;
  mb_per_s?: number;
  peak_rss_mib?: number | null;
  speed_vs_node_parse?: number;
  raw?: Raw;
  runs?: { wall_s: number }[];
  totals?: Record<string, number>;
  vs?: { tool: string; per_rep: number[]; speed_ratio: number; same_totals?: boolean };
  load_average_1m?: number[];
}

interface Lengths {
  reps: number;
  corpora: { events: number; bytes: number }[];
  rows: { tool: string; events: number; status: string; runs: { peak_rss_mib: number }[]; peak_rss_median_mib: number; peak_rss_max_mib: number }[];
}

/**
 * A run of the benchmark on a small short corpus (the parse loop and the filter, once) writing into `dir`; no
 * start-up batches (the --quick run checks those: 15 batches were 300 process starts a run).
 */
const smallBench = (dir: string, corpora = join(dir, 'corpora')) => (...args: string[]) => spawnSync(process.execPath, [
  join(ROOT, 'bench', 'run.mjs'), '--events', '2000', '--corpora', 'short', '--tools', 'node-parse,filter', '--reps', '1',
  '--latency-events', '0', '--startup-batches', '0', '--sections', '', '--corpus-dir', corpora, '--out-dir', join(dir, 'docs'), ...args,
], { encoding: 'utf8', cwd: ROOT });

/**
 * The first small run the tests of --versions-only, --only and --lengths-only each start from (one run, its
 * docs/ copied into each test's own directory): its result and its performance.json.
 */
let firstSmall: { dir: string; run: ReturnType<ReturnType<typeof smallBench>> };
/** A directory of a test's own holding the first small run's docs/ (the corpora shared), its bench, that run. */
function afterFirstSmall(): { dir: string; bench: ReturnType<typeof smallBench>; first: typeof firstSmall.run } {
  const dir = tempDir();
  cpSync(join(firstSmall.dir, 'docs'), join(dir, 'docs'), { recursive: true });
  return { dir, bench: smallBench(dir, join(firstSmall.dir, 'corpora')), first: firstSmall.run };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

describe('bench/run.mjs', () => {
  beforeAll(() => {
    const dir = tempDir();
    firstSmall = { dir, run: smallBench(dir)() };
  }, 900_000);

  // What a smoke run proves: every tool ran on every corpus and was measured, and the report has its shape.
  // Speeds are never compared with a number: on a busy machine a tiny corpus rounds to 0 MB/s.
  test('a run on a tiny corpus reports every tool on every corpus with positive raw figures, and the latency', () => {
    const dir = tempDir();
    const run = spawnSync(process.execPath, [
      join(ROOT, 'bench', 'run.mjs'), '--quick', '--reps', '2',
      '--corpus-dir', join(dir, 'corpora'), '--out-dir', join(dir, 'docs'), '--tree-dir', join(dir, 'tree'),
    ], { encoding: 'utf8', cwd: ROOT });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as {
      machine: { cpu: string; cores: number; node: string };
      rows: Row[];
      latency: {
        events: number; measured: number; without_record_in_2s: number; median_ms: number | null; p99_ms: number | null;
        raw: { median_ms: number | null; p99_ms: number | null; max_ms: number | null };
      };
      targets: { target: string; value: number; pass: boolean }[];
      tree: { files: number; bytes: number; events: number };
      lengths: Lengths;
      startup: { status: string; batches: number; node_cpu_ms: number; filter_cpu_ms: number; ratio: number };
      sections: {
        realistic: { generated_at: string; data: { reps: number; tree: { files: number }; rows: (Row & { input: string })[] } };
        sessions: { data: { tree: { files: number; bytes: number }; cold_s: number; warm_s: number; grep_s: number; grep_cold_s: number; rg: { seconds: number; ratio: number } | null;
          half?: { files: number; bytes: number; grep_s: number; grep: { per_gb_s: number; fixed_s: number } } } };
      };
    };
    expect(report.machine.cores).toBeGreaterThan(0);
    // --quick: two start-up batches; CPU times in ms from GNU time, never compared with a number.
    expect(report.startup).toMatchObject({ status: 'ok', batches: 2 });
    expect(report.startup.node_cpu_ms).toBeGreaterThan(0);
    expect(report.startup.ratio).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    // jq of the file is opt-in; the many-file convert trees are made of the full corpus alone.
    const tools = ['cat', 'node-parse', 'jq-pipe', 'filter-pipe', 'filter', 'read', 'convert'];
    expect(report.rows.map((r) => `${r.corpus}/${r.tool}`)).toEqual([
      ...['full', 'short', 'single'].flatMap((c) => [...tools, ...(c === 'full' ? ['convert-tree-j1', 'convert-tree-j2'] : [])].map((t) => `${c}/${t}`)),
      'tree/ccusage', 'tree/read-usage',
    ]);
    // bench/sessions.mjs on --quick's tree of 20 transcripts: the listing cold and warm, --grep and rg (when installed).
    const sessions = report.sections.sessions.data;
    expect(sessions.tree.files).toBe(20);
    for (const figure of [sessions.cold_s, sessions.warm_s, sessions.grep_s, sessions.grep_cold_s]) expect(figure).toBeGreaterThan(0);
    if (sessions.rg !== null) expect(sessions.rg.ratio).toBeGreaterThan(0);
    // Its first half, hard links to the same files: two of the four projects.
    expect(sessions.half?.files).toBe(10);
    expect(sessions.half!.bytes).toBeGreaterThan(0);
    expect(sessions.half!.bytes).toBeLessThan(sessions.tree.bytes);
    expect(sessions.half!.grep_s).toBeGreaterThan(0);
    expect(Number.isFinite(sessions.half!.grep.per_gb_s) && Number.isFinite(sessions.half!.grep.fixed_s)).toBe(true);
    const markdown = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(markdown).toContain('| sessions listing: 20 sessions,');
    expect(markdown).toContain('| sessions --grep, per GB (whole tree against its half) |');
    // --quick: two runs asked for (given flags win), a tree of 3 transcripts of 0.3 MB.
    expect(report.tree.files).toBe(3);
    expect(report.tree.bytes).toBeGreaterThan(3 * 0.3e6);
    for (const row of report.rows) {
      // jq and the pinned ccusage may be missing; read and convert may not exist in an older build: then said
      // so, never a failure.
      if (['jq-pipe', 'ccusage', 'read', 'convert', 'read-usage', 'convert-tree-j1', 'convert-tree-j2'].includes(row.tool)) expect(['ok', 'not available']).toContain(row.status);
      else expect(row.status).toBe('ok');
      if (row.status !== 'ok') continue;
      const raw = row.raw!;
      expect(row.input_bytes).toBeGreaterThan(0);
      expect(row.input_events).toBeGreaterThan(0);
      expect(raw.wall_s).toBeGreaterThan(0);
      expect(raw.events_per_s).toBeGreaterThan(0);
      expect(raw.mb_per_s).toBeGreaterThan(0);
      expect(raw.peak_rss_mib).toBeGreaterThan(0);
      expect(row.runs).toHaveLength(2);
      if (row.corpus === 'tree') continue;
      expect(raw.speed_vs_node_parse).toBeGreaterThan(0);
      // The rates are the input over the wall time, and the shown figures are the raw ones rounded.
      expect(raw.mb_per_s).toBeCloseTo(row.input_bytes! / 1e6 / raw.wall_s, 9);
      expect(raw.events_per_s).toBeCloseTo(row.input_events! / raw.wall_s, 6);
      expect(row.mb_per_s).toBe(round(raw.mb_per_s, 1));
      expect(row.events_per_s).toBe(Math.round(raw.events_per_s));
      expect(row.speed_vs_node_parse).toBe(round(raw.speed_vs_node_parse!, 2));
      expect(row.wall_s).toBe(round(raw.wall_s, 3));
    }
    // The comparisons made side by side: a ratio per run, the load average with them; the usage totals agree.
    const sideBySide = report.rows.filter((r) => r.vs !== undefined);
    const jqThere = report.rows.some((r) => r.tool === 'jq-pipe' && r.status === 'ok');
    const ccusageThere = report.rows.some((r) => r.tool === 'ccusage' && r.status === 'ok');
    expect(sideBySide.map((r) => `${r.corpus}/${r.tool}/${r.vs!.tool}`)).toEqual([
      ...['full', 'short', 'single'].flatMap((c) => [
        ...(jqThere ? [`${c}/filter-pipe/jq-pipe`] : []), `${c}/filter/node-parse`, ...(c === 'full' ? ['full/convert-tree-j2/convert-tree-j1'] : []),
      ]),
      ...(ccusageThere ? ['tree/read-usage/ccusage'] : []),
    ]);
    for (const row of sideBySide) {
      const peer = report.rows.find((r) => r.corpus === row.corpus && r.tool === row.vs!.tool)!;
      expect(row.vs!.per_rep).toHaveLength(2);
      row.vs!.per_rep.forEach((ratio, i) => expect(ratio).toBeCloseTo(peer.runs![i]!.wall_s / row.runs![i]!.wall_s, 2));
      expect(row.load_average_1m).toHaveLength(2);
      expect(peer.load_average_1m).toEqual(row.load_average_1m);
    }
    if (ccusageThere) {
      const usage = report.rows.find((r) => r.tool === 'read-usage')!;
      expect(usage.totals!.output).toBeGreaterThan(0);
      expect(usage.totals).toEqual(report.rows.find((r) => r.tool === 'ccusage')!.totals);
      expect(usage.vs!.same_totals).toBe(true);
      expect(report.targets.find((t) => t.target === 'read --usage over the tree totals what ccusage totals')!.pass).toBe(true);
    }
    // Peak RSS is a target for every row of this project's commands.
    for (const row of report.rows.filter((r) => ['filter', 'filter-pipe', 'read-usage'].includes(r.tool) && r.status === 'ok')) {
      expect(report.targets.map((t) => t.target)).toContain(`${row.tool} peak RSS < 256 MB (${row.corpus}${row.corpus === 'tree' ? '' : ' corpus'})`);
    }
    // 256 MB of 10^6 bytes, in the MiB measured.
    const limit = 256e6 / 2 ** 20;
    for (const t of report.targets.filter((x) => x.target.includes('peak RSS < 256 MB'))) expect(t.pass).toBe(t.value < limit);
    const base = (corpus: string) => report.rows.find((r) => r.corpus === corpus && r.tool === 'node-parse')!.raw!;
    for (const row of report.rows.filter((r) => r.tool === 'node-parse')) expect(row.raw!.speed_vs_node_parse).toBe(1);
    const filter = report.rows.find((r) => r.corpus === 'full' && r.tool === 'filter')!;
    expect(filter.raw!.speed_vs_node_parse).toBeCloseTo(filter.raw!.mb_per_s / base('full').mb_per_s, 9);

    // Latency: every event is either timed or counted as not recorded within 2 s (the benchmark's own limit).
    const lat = report.latency;
    expect(lat.events).toBe(10);
    expect(lat.measured + lat.without_record_in_2s).toBe(10);
    if (lat.measured > 0) {
      expect(lat.raw.median_ms).toBeGreaterThan(0);
      expect(lat.raw.p99_ms).toBeGreaterThanOrEqual(lat.raw.median_ms!);
      expect(lat.raw.max_ms).toBeGreaterThanOrEqual(lat.raw.p99_ms!);
    } else {
      expect(lat.raw).toEqual({ median_ms: null, p99_ms: null, max_ms: null });
    }
    expect(report.targets.map((t) => t.target)).toEqual(expect.arrayContaining(['live latency median < 2 ms', 'live latency p99 < 20 ms']));
    for (const t of report.targets) expect(typeof t.pass).toBe('boolean');
    // Memory against input length: N/8, N/4 and N/2 events (N: the quick full corpus), two runs each (--reps 2).
    expect(report.lengths.corpora.map((c) => c.events)).toEqual([250, 500, 1000]);
    expect(report.lengths.rows.map((r) => `${r.tool}/${r.events}`)).toEqual(
      ['filter-pipe', 'filter', 'read'].flatMap((t) => [250, 500, 1000].map((n) => `${t}/${n}`)),
    );
    for (const row of report.lengths.rows) {
      expect(row.status).toBe('ok');
      expect(row.runs).toHaveLength(2);
      const peaks = row.runs.map((r) => r.peak_rss_mib);
      expect(row.peak_rss_max_mib).toBe(Math.max(...peaks));
      expect(row.peak_rss_median_mib).toBe((peaks[0]! + peaks[1]!) / 2);
    }
    for (const tool of ['filter-pipe', 'filter', 'read']) {
      const at = (n: number) => report.lengths.rows.find((r) => r.tool === tool && r.events === n)!;
      const flat = report.targets.find((t) => t.target.startsWith(`${tool} peak RSS at 1,000 events <= 1.1x at 500`))!;
      expect(flat.value).toBe(round(at(1000).peak_rss_median_mib / at(500).peak_rss_median_mib, 2));
      expect(flat.pass).toBe(at(1000).peak_rss_median_mib / at(500).peak_rss_median_mib <= 1.1);
      expect(report.targets.map((t) => t.target)).toContain(`${tool} peak RSS < 256 MB (250 events)`);
    }
    // The realistic section (a section module, bench/realistic.mjs): each command on the big transcript and
    // the tree, two runs each (its own default), a peak RSS target per row.
    const realistic = report.sections.realistic.data;
    expect(realistic.tree.files).toBe(6);
    expect(realistic.rows.map((r) => `${r.tool}/${r.input}/${r.status}/${r.runs!.length}`)).toEqual(
      ['read/big/ok/2', 'convert/big/ok/2', 'read-usage/tree/ok/2', 'convert-j2/tree/ok/2'],
    );
    for (const row of realistic.rows) expect(row.raw!.peak_rss_mib).toBeGreaterThan(0);
    expect(report.targets.map((t) => t.target)).toEqual(expect.arrayContaining([
      'read of the realistic big transcript peak RSS < 256 MB', 'convert-j2 of the realistic tree peak RSS < 256 MB',
    ]));
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain('## The realistic corpus');
    expect(md).toContain('## Memory against input length');
    expect(md).toContain('| filter |');
    expect(md).toContain('| filter-pipe |');
    expect(md).toContain('## Usage over a tree: 3 transcripts');
    expect(md).toContain(report.machine.cpu);
  }, 900_000);

  test('--versions compares the node binaries named, and --versions-only keeps every other figure', () => {
    const { dir, bench, first } = afterFirstSmall();
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
      // Unrounded: a tiny corpus on a busy machine rounds to 0.0 MB/s.
      expect(row.raw!.mb_per_s).toBeGreaterThan(0);
    }
    // Each version's rows are held to the RSS limit too.
    expect((after as unknown as { targets: { target: string }[] }).targets.map((t) => t.target)).toEqual(expect.arrayContaining(
      ['filter', 'read'].map((t) => `${t} peak RSS < 256 MB (Node ${process.version}, short corpus)`),
    ));
    // --versions-only keeps the lengths measured before (the filter's: --tools named it).
    expect((after as { lengths?: unknown }).lengths).toEqual((before as { lengths?: unknown }).lengths);
    expect((before as { lengths?: Lengths }).lengths!.rows.map((r) => r.tool)).toEqual(['filter', 'filter', 'filter']);
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain('## Node versions');
    expect(md).toContain(`| read | ${process.version} |`);
  }, 900_000);

  test('--only measures a section module alone, and a later run that does not measure it keeps its figures and date', () => {
    const { dir, bench, first } = afterFirstSmall();
    expect(first.status, first.stderr).toBe(0);
    const before = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as { rows: Row[]; sections: Record<string, unknown> };
    expect(before.sections).toEqual({});
    const second = bench('--quick', '--only', 'realistic', '--realistic-reps', '1', '--tree-dir', join(dir, 'tree'));
    expect(second.status, second.stderr).toBe(0);
    type Sections = { rows: Row[]; sections: { realistic: { generated_at: string; data: { rows: Row[] } } }; targets: { target: string }[] };
    const after = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as Sections;
    expect(after.rows).toEqual(before.rows);
    expect(after.sections.realistic.data.rows.map((r) => `${r.tool}/${r.runs!.length}`)).toEqual(['read/1', 'convert/1', 'read-usage/1', 'convert-j2/1']);
    const third = bench();
    expect(third.status, third.stderr).toBe(0);
    const last = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as Sections;
    expect(last.sections.realistic).toEqual(after.sections.realistic);
    expect(last.targets.map((t) => t.target)).toContain('read of the realistic big transcript peak RSS < 256 MB');
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain(`Measured ${after.sections.realistic.generated_at.slice(0, 10)}: 1 run(s) of each`);
  }, 900_000);

  test('--lengths-only measures memory against input length and keeps every other figure', () => {
    const { dir, bench, first } = afterFirstSmall();
    expect(first.status, first.stderr).toBe(0);
    const before = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as { rows: Row[]; lengths: Lengths };
    // --tools named filter: only it of --lengths-tools ran, at N/8, N/4 and N/2.
    expect(before.lengths.rows.map((r) => `${r.tool}/${r.events}`)).toEqual(['filter/250', 'filter/500', 'filter/1000']);
    const second = bench('--lengths', '300,600,1200', '--lengths-tools', 'filter,read', '--lengths-reps', '3', '--lengths-only');
    expect(second.status, second.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, 'docs', 'performance.json'), 'utf8')) as {
      rows: Row[]; lengths: Lengths; targets: { target: string }[];
    };
    expect(after.rows).toEqual(before.rows);
    expect(after.lengths.reps).toBe(3);
    expect(after.lengths.rows.map((r) => `${r.tool}/${r.events}/${r.runs.length}`)).toEqual(
      ['filter', 'read'].flatMap((t) => [300, 600, 1200].map((n) => `${t}/${n}/3`)),
    );
    expect(after.targets.map((t) => t.target)).toEqual(expect.arrayContaining([
      'filter peak RSS at 1,200 events <= 1.1x at 600 (memory flat in input length; medians)',
      'read peak RSS at 1,200 events <= 1.1x at 600 (memory flat in input length; medians)',
      'filter peak RSS < 256 MB (short corpus)', 'read peak RSS < 256 MB (1,200 events)',
    ]));
    const md = readFileSync(join(dir, 'docs', 'performance.md'), 'utf8');
    expect(md).toContain('--lengths 300,600,1200 --lengths-tools filter,read --lengths-reps 3 --lengths-only');
  }, 900_000);
});
