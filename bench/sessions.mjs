// The `asyncai-log sessions` rows of the benchmark: listing a tree of Claude Code transcripts (bench/transcripts.mjs,
// kept in .cache/bench) cold (an empty sessions index: every transcript read once) and warm (the index holds: only
// directory listings and stats), and `sessions --grep` of a text in none of them (every byte looked at) against
// `rg -i -F` of it over the same tree. Whole-process wall times, the median of --reps runs.
// A section module of bench/run.mjs (bench/sections.md): `npm run bench` measures it; alone, `node bench/run.mjs
// --only sessions` (it keeps every other figure).
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './transcripts.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A text in no generated transcript (its words are not in the generator's pool). */
const NEEDLE = 'Quixotic Zephyr';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const GNU_TIME = '/usr/bin/time';
const haveTime = existsSync(GNU_TIME);

/**
 * Wall seconds of one run of `command args`, and its CPU seconds (user + system, from GNU time when there is one:
 * on a loaded machine the wall time says more about the load); throws when it fails (`ok` exit codes allowed).
 */
function timed(command, args, env, ok = [0]) {
  const marker = 'asyncai-log-bench-cpu ';
  const [cmd, argv] = haveTime ? [GNU_TIME, ['-f', `${marker}%U %S`, command, ...args]] : [command, args];
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (!ok.includes(r.status)) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  const cpuLine = String(r.stderr).split('\n').find((line) => line.startsWith(marker));
  const cpu = cpuLine === undefined ? null : cpuLine.slice(marker.length).split(' ').reduce((sum, n) => sum + Number(n), 0);
  return { seconds, cpu, stdout: String(r.stdout) };
}

/**
 * The first half of `tree`'s project directories as a tree of their own beside it, hard links to the same files
 * (the same bytes in the page cache): with the whole tree, what a --grep costs per byte and what it costs
 * whatever the bytes. Undefined where the links cannot be made.
 */
function halfTree(tree) {
  const root = `${tree.root}-half`;
  rmSync(root, { recursive: true, force: true });
  try {
    const projects = readdirSync(join(tree.root, 'projects')).sort();
    const files = [];
    for (const project of projects.slice(0, Math.max(1, Math.floor(projects.length / 2)))) {
      mkdirSync(join(root, 'projects', project), { recursive: true });
      for (const name of readdirSync(join(tree.root, 'projects', project))) {
        const file = join(root, 'projects', project, name);
        linkSync(join(tree.root, 'projects', project, name), file);
        files.push(file);
      }
    }
    return { root, files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
  } catch {
    rmSync(root, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * Measure the sessions rows: `files` transcripts of `minMb`..`mb` MB (about 2 GB for 2,000 of 0.025..10 MB).
 * Returns the figures performance.json keeps under `sessions`.
 */
export function measureSessions({ files = 2000, mb = 10, minMb = 0.025, reps = 3, treeDir = join(ROOT, '.cache', 'bench'), bin = join(ROOT, 'dist', 'bin', 'asyncai-log.js'), node = process.execPath, log = () => {} } = {}) {
  const name = `claude-sessions-${files}x${minMb}-${mb}mb-s1`;
  log(`sessions: tree ${name}`);
  const tree = generateTree(join(treeDir, name), { files, mb, minMb, seed: 1 });
  const home = mkdtempSync(join(tmpdir(), 'asyncai-log-bench-sessions-'));
  try {
    const env = { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), LANG: 'C.UTF-8' };
    const list = ['--expose-gc', bin, 'sessions', '--json', '--session-dir', `claude-code-cli=${tree.root}`];
    // The page cache warmed (both tools read the same bytes after this), then the index made by a cold listing.
    spawnSync('sh', ['-c', 'cat "$@" > /dev/null', 'sh', ...tree.files.slice(0, 4000)]);
    // A first --grep on the machine: an index of its own, empty (it describes only what its prefilter passes).
    const grepCold = timed(node, [...list, '--grep', NEEDLE], { ...env, XDG_CACHE_HOME: join(home, 'cache-grep') });
    if (grepCold.stdout !== '') throw new Error(`sessions --grep found ${JSON.stringify(NEEDLE)}`);
    const cold = timed(node, list, env);
    const listed = cold.stdout.split('\n').filter((l) => l !== '').length;
    if (listed !== tree.files.length) throw new Error(`sessions listed ${listed} of ${tree.files.length} transcripts`);
    const warm = [];
    const warmCpu = [];
    for (let i = 0; i < reps; i += 1) {
      const run = timed(node, list, env);
      warm.push(run.seconds);
      if (run.cpu !== null) warmCpu.push(run.cpu);
    }
    const start = [];
    for (let i = 0; i < reps; i += 1) start.push(timed(node, ['--expose-gc', bin, 'sessions', '--help'], env).seconds);
    const grep = [];
    const grepCpu = [];
    const rg = [];
    const rgCpu = [];
    const haveRg = spawnSync('rg', ['--version']).status === 0;
    // The half tree: its own index (a listing of it would drop the whole tree's sessions from the other), made warm.
    const half = halfTree(tree);
    const halfEnv = { ...env, XDG_CACHE_HOME: join(home, 'cache-half') };
    const halfList = half === undefined ? [] : ['--expose-gc', bin, 'sessions', '--json', '--session-dir', `claude-code-cli=${half.root}`];
    if (half !== undefined) timed(node, halfList, halfEnv);
    const grepHalf = [];
    const rgHalf = [];
    for (let i = 0; i < reps; i += 1) {
      const ours = timed(node, [...list, '--grep', NEEDLE], env);
      if (ours.stdout !== '') throw new Error(`sessions --grep found ${JSON.stringify(NEEDLE)}`);
      grep.push(ours.seconds);
      if (ours.cpu !== null) grepCpu.push(ours.cpu);
      if (haveRg) {
        const theirs = timed('rg', ['-i', '-F', '-l', NEEDLE, tree.root], env, [1]);
        rg.push(theirs.seconds);
        if (theirs.cpu !== null) rgCpu.push(theirs.cpu);
      }
      if (half !== undefined) {
        grepHalf.push(timed(node, [...halfList, '--grep', NEEDLE], halfEnv).seconds);
        if (haveRg) rgHalf.push(timed('rg', ['-i', '-F', '-l', NEEDLE, half.root], env, [1]).seconds);
      }
    }
    if (half !== undefined) rmSync(half.root, { recursive: true, force: true });
    // Seconds per GB (the whole tree against its half) and what is left at no bytes, of --grep and rg.
    const line = (whole, halved) => {
      const perGb = (median(whole) - median(halved)) / ((tree.bytes - half.bytes) / 1e9);
      return { per_gb_s: perGb, fixed_s: median(whole) - perGb * (tree.bytes / 1e9) };
    };
    const result = {
      generated_at: new Date().toISOString(),
      tree: { name, files: tree.files.length, bytes: tree.bytes, recipe: `generateTree({ files: ${files}, mb: ${mb}, minMb: ${minMb} })` },
      reps,
      load_before: loadavg()[0],
      cold_s: cold.seconds,
      cold_cpu_s: cold.cpu,
      warm_s: median(warm),
      warm_cpu_s: warmCpu.length ? median(warmCpu) : null,
      start_s: median(start),
      grep_cold_s: grepCold.seconds,
      grep_cold_cpu_s: grepCold.cpu,
      grep_s: median(grep),
      grep_cpu_s: grepCpu.length ? median(grepCpu) : null,
      needle: NEEDLE,
      rg: haveRg ? {
        version: String(spawnSync('rg', ['--version']).stdout).split('\n')[0], seconds: median(rg), cpu_s: rgCpu.length ? median(rgCpu) : null,
        ratio: median(grep) / median(rg),
      } : null,
      ...(half !== undefined ? {
        half: {
          files: half.files.length, bytes: half.bytes, grep_s: median(grepHalf), grep: line(grep, grepHalf),
          ...(haveRg ? { rg_s: median(rgHalf), rg: line(rg, rgHalf) } : {}),
        },
      } : {}),
      load_after: loadavg()[0],
    };
    log(`  listing cold ${result.cold_s.toFixed(2)} s, warm ${result.warm_s.toFixed(2)} s; --grep ${result.grep_s.toFixed(2)} s`
      + (result.rg ? `, rg ${result.rg.seconds.toFixed(2)} s (${result.rg.ratio.toFixed(2)}x)` : ', rg not available')
      + (result.half?.rg ? `; per GB ${result.half.grep.per_gb_s.toFixed(3)} against ${result.half.rg.per_gb_s.toFixed(3)} s, fixed ${result.half.grep.fixed_s.toFixed(2)} against ${result.half.rg.fixed_s.toFixed(2)} s` : ''));
    return result;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const fmt = (n, digits) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const cpu = (n) => (n === null || n === undefined ? '' : fmt(n, 2));

/** The sessions section's table (markdown), '' when not measured. */
export function sessionsMarkdown(s) {
  if (!s) return '';
  const gb = fmt(s.tree.bytes / 1e9, 2);
  return [
    `Tree: ${fmt(s.tree.files, 0)} Claude Code transcripts, ${gb} GB (\`${s.tree.recipe}\`); median of ${s.reps} run(s), measured ${s.generated_at.slice(0, 10)}.`,
    '',
    `Load average (1 min) ${fmt(s.load_before, 1)} before, ${fmt(s.load_after, 1)} after: on a busy machine the CPU seconds say more than the wall time.`,
    '',
    '| row | wall s | CPU s | note |',
    '|---|---:|---:|---|',
    `| sessions listing: ${fmt(s.tree.files, 0)} sessions, ${gb} GB, warm | ${fmt(s.warm_s, 2)} | ${cpu(s.warm_cpu_s)} | the sessions index holds: directory listings and stats; \`sessions --help\` alone (start-up): ${fmt(s.start_s, 2)} s |`,
    `| sessions listing, cold | ${fmt(s.cold_s, 2)} | ${cpu(s.cold_cpu_s)} | an empty index: every transcript read once for its user turns, on two worker threads (page cache warm) |`,
    `| sessions --grep (a text in none of them) | ${fmt(s.grep_s, 2)} | ${cpu(s.grep_cpu_s)} | every byte looked at (on two worker threads), after a warm listing |`,
    ...(s.grep_cold_s !== undefined
      ? [`| sessions --grep, cold | ${fmt(s.grep_cold_s, 2)} | ${cpu(s.grep_cold_cpu_s)} | the same with an empty index (a first search on the machine): only what the prefilter passes is described |`] : []),
    s.rg
      ? `| \`rg -i -F -l\` of the same text, same bytes | ${fmt(s.rg.seconds, 2)} | ${cpu(s.rg.cpu_s)} | ${s.rg.version}; --grep / rg (wall): **${fmt(s.rg.ratio, 2)}x** |`
      : '| `rg -i -F` of the same text | not available | | rg is not installed |',
    ...(s.half !== undefined ? [
      `| sessions --grep, the first half of the tree | ${fmt(s.half.grep_s, 2)} | | ${fmt(s.half.files, 0)} of the transcripts, ${fmt(s.half.bytes / 1e9, 2)} GB (hard links to the same files)${s.half.rg_s !== undefined ? `; rg ${fmt(s.half.rg_s, 2)} s` : ''} |`,
      `| sessions --grep, per GB (whole tree against its half) | ${fmt(s.half.grep.per_gb_s, 3)} | | and ${fmt(s.half.grep.fixed_s, 2)} s whatever the bytes${s.half.rg !== undefined ? `; rg ${fmt(s.half.rg.per_gb_s, 3)} s per GB and ${fmt(s.half.rg.fixed_s, 2)} s: per byte **${fmt(s.half.grep.per_gb_s / s.half.rg.per_gb_s, 2)}x** rg` : ''} |`,
    ] : []),
  ].join('\n');
}

const positive = (values, name) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} wants a number above 0, got ${JSON.stringify(values[name])}`);
  return n;
};

export default {
  name: 'sessions',
  usage: `  --sessions-files N, --sessions-mb M, --sessions-min-mb m: the tree listed (default 2000 transcripts of
                      0.025-10 MB, about 2 GB); --sessions-reps N: runs each (default 3)`,
  options: {
    'sessions-files': { type: 'string', default: '2000' },
    'sessions-mb': { type: 'string', default: '10' },
    'sessions-min-mb': { type: 'string', default: '0.025' },
    'sessions-reps': { type: 'string', default: '3' },
  },
  quick: { 'sessions-files': '20', 'sessions-mb': '0.2', 'sessions-min-mb': '0.01', 'sessions-reps': '1' },

  async measure(kit) {
    const v = kit.opts.values;
    return measureSessions({
      files: Math.round(positive(v, 'sessions-files')), mb: positive(v, 'sessions-mb'), minMb: positive(v, 'sessions-min-mb'),
      reps: Math.round(positive(v, 'sessions-reps')), treeDir: kit.opts.treeDir, log: kit.log, bin: kit.bin, node: kit.node,
    });
  },
  render: (data) => sessionsMarkdown(data),
  targets: (data) => [
    { target: `sessions listing of ${data.tree.files.toLocaleString('en-US')} sessions (${(data.tree.bytes / 1e9).toFixed(1)} GB), warm, under 1 s (wall)`, value: data.warm_s, pass: data.warm_s < 1 },
  ],
};
