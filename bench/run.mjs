// The benchmark: generates the corpora (bench/generate.mjs), runs each tool on each as whole processes
// (medians of --reps runs), measures live latency, and writes docs/performance.md and docs/performance.json.
// `npm run bench` (builds first), or `node bench/run.mjs --help`. Peak RSS comes from GNU time (%M);
// without it, from polling /proc/<pid>/status (VmHWM). `--versions` compares Node versions running the bin.
// More sections come from the modules in SECTIONS (bench/sections.md says what such a module exports).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync, existsSync, fstatSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync,
  rmSync, statSync, symlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eventLines, generateCorpus } from './generate.mjs';
import { generateTree } from './transcripts.mjs';
import { clientBin, installTestClients } from '../test/clients/clients.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GNU_TIME = '/usr/bin/time';

/**
 * The section modules, in the order they run and are listed (bench/sections.md): each measures what it owns,
 * renders its part of the template ({{name}}) and says its targets. To add one, add its path here and a
 * `<!-- if name -->` block to bench/performance.template.md.
 */
const SECTIONS = [
  './realistic.mjs',
  './usage-codex.mjs',
  './sessions.mjs',
];
const sections = await Promise.all(SECTIONS.map(async (path) => (await import(path)).default));

const USAGE = `usage: node bench/run.mjs [options]
  --events N          events in the full corpus (default 1000000; the short corpus has N/10)
  --single-mb M       size of the single-event corpus in MiB (default 30)
  --corpora LIST      which corpora: full,short,single (default all three)
  --reps N            runs per tool and corpus; the median is reported (default 3)
  --latency-events N  events trickled one at a time for the latency figure (default 500; 0 skips it)
  --seed S            corpus seed (default 1)
  --bin PATH          the asyncai-log bin to measure (default dist/bin/asyncai-log.js)
  --corpus-dir DIR    where corpora are generated and kept (default bench/out)
  --out-dir DIR       where performance.md and performance.json go (default docs)
  --tools LIST        which tools: cat,node-parse,jq-pipe,filter-pipe,filter,read,convert on each corpus,
                      convert-tree-j1,convert-tree-j2 (a many-file tree of the full corpus, --jobs 1 and 2),
                      ccusage,read-usage on the tree of transcripts (default all of these); jq (jq -c . of
                      the file; only when named)
  --tree-files N      transcripts in the tree for ccusage and read-usage (default 20)
  --tree-mb M         size of each, in MB (default 100)
  --tree-dir DIR      where the tree is generated and kept (default .cache/bench)
  --quick             a smoke run: tiny corpora and tree, one run each, 10 latency events
  --node BIN          the node that runs the bin and node-parse (default the one running this script); a
                      major (24) is the version pinned in scripts/node-versions, installed on demand
  --versions LIST     also compare Node versions side by side (own = --node, a pinned major, or a path):
                      --versions-tools on --versions-corpus, each version's runs interleaved with the others'
  --versions-tools L  the tools compared (default filter,read)
  --versions-corpus C the corpus they run on (default full)
  --versions-only     run only the comparison; the other figures are kept from <out-dir>/performance.json
  --lengths LIST      peak RSS against input length: corpora of these many events (default N/8,N/4,N/2 of
                      --events; empty: none), --lengths-tools on each, the lengths taking turns run by run
  --lengths-tools L   the tools measured (default filter-pipe,filter,read)
  --lengths-reps N    runs per tool and length (default --reps, at most 2)
  --lengths-only      run only that; the other figures are kept from <out-dir>/performance.json
  --startup-batches N start-up: batches of 10 two-event filter runs, and of 10 \`node -e 0\`, taking turns; the
                      median batch is reported (default 15; 0 skips it)
  --startup-only      run only that; the other figures are kept from <out-dir>/performance.json
  --sections LIST     which section modules to measure (default: every one not opt-in): ${sections.map((m) => `${m.name}${m.optIn ? ' (opt-in)' : ''}`).join(', ')}
  --only LIST         measure only these section modules; every other figure is kept from <out-dir>/performance.json
  --render-only       measure nothing: write <out-dir>/performance.md again from <out-dir>/performance.json and
                      bench/performance.template.md (after an edit of the template)
${sections.map((m) => m.usage ?? '').filter(Boolean).join('\n')}
Studies not measured in a run (opt-in sections, --versions, --lengths-only's...) keep their last figures, with
their date, from <out-dir>/performance.json.`;

/** The tools, in table order. `ratioBase` is the one every ratio is taken against. */
const TOOLS = [
  'cat', 'node-parse', 'jq', 'jq-pipe', 'filter-pipe', 'filter', 'read', 'convert', 'convert-tree-j1', 'convert-tree-j2',
];
/** Tools run side by side (taking turns rep by rep): their ratio is the comparison users make. */
const SIDE_BY_SIDE = [['node-parse', 'filter'], ['jq-pipe', 'filter-pipe'], ['convert-tree-j1', 'convert-tree-j2']];
/** Tools run on the tree of Claude Code transcripts instead of the event corpora, side by side. */
const TREE_TOOLS = ['ccusage', 'read-usage'];
/** The rows of this project's commands: each should stay under 256 MB (10^6 bytes) of peak RSS. */
const OWN_TOOLS = ['filter', 'filter-pipe', 'read', 'convert', 'convert-tree-j1', 'convert-tree-j2', 'read-usage'];
/** Run only when named in --tools (no guardrail needs them). */
const OPT_IN_TOOLS = ['jq'];
/** Run on the full corpus only (a guardrail needs them there, nowhere else). */
const FULL_ONLY_TOOLS = ['convert-tree-j1', 'convert-tree-j2'];
const RATIO_BASE = 'node-parse';
/** The peak RSS every row of ours stays under: 256 MB, in the MiB that GNU time and /proc report. */
const RSS_LIMIT_MB = 256;
const RSS_LIMIT_MIB = RSS_LIMIT_MB * 1e6 / 2 ** 20;
/** Doubling the input may raise a tool's peak RSS by at most this factor (memory flat in input length). */
const FLAT_FACTOR = 1.1;

function options() {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '1000000' },
      'single-mb': { type: 'string', default: '30' },
      corpora: { type: 'string', default: 'full,short,single' },
      reps: { type: 'string', default: '3' },
      'latency-events': { type: 'string', default: '500' },
      seed: { type: 'string', default: '1' },
      bin: { type: 'string', default: join(ROOT, 'dist', 'bin', 'asyncai-log.js') },
      'corpus-dir': { type: 'string', default: join(ROOT, 'bench', 'out') },
      'out-dir': { type: 'string', default: join(ROOT, 'docs') },
      tools: { type: 'string', default: [...TOOLS.filter((t) => !OPT_IN_TOOLS.includes(t)), ...TREE_TOOLS].join(',') },
      'tree-files': { type: 'string', default: '20' },
      'tree-mb': { type: 'string', default: '100' },
      'tree-dir': { type: 'string', default: join(ROOT, '.cache', 'bench') },
      quick: { type: 'boolean', default: false },
      node: { type: 'string', default: process.execPath },
      versions: { type: 'string', default: '' },
      'versions-tools': { type: 'string', default: 'filter,read' },
      'versions-corpus': { type: 'string', default: 'full' },
      'versions-only': { type: 'boolean', default: false },
      lengths: { type: 'string' },
      'lengths-tools': { type: 'string', default: 'filter-pipe,filter,read' },
      'lengths-reps': { type: 'string' },
      'lengths-only': { type: 'boolean', default: false },
      'startup-batches': { type: 'string', default: '15' },
      'startup-only': { type: 'boolean', default: false },
      sections: { type: 'string', default: sections.filter((m) => !m.optIn).map((m) => m.name).join(',') },
      only: { type: 'string' },
      'render-only': { type: 'boolean', default: false },
      ...Object.assign({}, ...sections.map((m) => m.options ?? {})),
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.quick) {
    // Only what was not given: a smoke run can still name its own sizes.
    const given = new Set(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')[0]));
    const quick = {
      events: '2000', 'single-mb': '0.5', reps: '1', 'latency-events': '10', 'tree-files': '3', 'tree-mb': '0.3', 'startup-batches': '2',
      ...Object.assign({}, ...sections.map((m) => m.quick ?? {})),
    };
    for (const [name, value] of Object.entries(quick)) if (!given.has(name)) values[name] = value;
  }
  const positive = (name) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} wants a number, got ${values[name]}`);
    return n;
  };
  const reps = Math.max(1, Math.round(positive('reps')));
  const names = (list) => list.split(',').filter(Boolean).map((name) => {
    if (!sections.some((m) => m.name === name)) throw new Error(`unknown section ${name} (known: ${sections.map((m) => m.name).join(', ')})`);
    return name;
  });
  return {
    values,
    quick: values.quick,
    sections: names(values.only ?? values.sections),
    sectionsOnly: values.only !== undefined,
    events: Math.round(positive('events')),
    singleMb: positive('single-mb'),
    corpora: values.corpora.split(',').filter(Boolean),
    reps,
    latencyEvents: Math.round(positive('latency-events')),
    seed: Math.round(positive('seed')),
    bin: resolve(values.bin),
    corpusDir: resolve(values['corpus-dir']),
    outDir: resolve(values['out-dir']),
    tools: values.tools.split(',').filter(Boolean),
    node: nodeBinary(values.node),
    versions: values.versions.split(',').filter(Boolean),
    versionsTools: values['versions-tools'].split(',').filter(Boolean),
    versionsCorpus: values['versions-corpus'],
    versionsOnly: values['versions-only'],
    lengths: (values.lengths ?? [0.125, 0.25, 0.5].map((f) => Math.max(1, Math.round(f * Number(values.events)))).join(','))
      .split(',').filter(Boolean).map((n) => {
        const events = Number(n);
        if (!Number.isInteger(events) || events < 1) throw new Error(`--lengths wants event counts, got ${n}`);
        return events;
      }),
    lengthsTools: values['lengths-tools'].split(',').filter(Boolean),
    lengthsReps: values['lengths-reps'] === undefined ? Math.min(2, reps) : Math.max(1, Math.round(positive('lengths-reps'))),
    lengthsOnly: values['lengths-only'],
    startupBatches: Math.round(positive('startup-batches')),
    startupOnly: values['startup-only'],
    renderOnly: values['render-only'],
    treeFiles: Math.max(1, Math.round(positive('tree-files'))),
    treeMb: positive('tree-mb'),
    treeDir: resolve(values['tree-dir']),
  };
}

/**
 * A node binary: a path, or a major pinned in scripts/node-versions/package-lock.json (installed into the
 * git-ignored cache on first use by scripts/node-version.mjs).
 */
function nodeBinary(spec) {
  if (!/^\d+$/.test(spec)) return resolve(spec);
  const script = join(ROOT, 'scripts', 'node-version.mjs');
  return execFileSync(process.execPath, [script, spec], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** What `node --version` says. */
function nodeVersion(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} --version failed: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

/** What this machine is: the figures only mean something next to it. */
function machine(node) {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) cpu = match[1].trim();
  } catch {
    // Not Linux: os.cpus() said what it could.
  }
  const version = (command, args) => {
    const r = spawnSync(command, args, { encoding: 'utf8' });
    return r.status === 0 ? (r.stdout || r.stderr).trim().split('\n')[0] : undefined;
  };
  return {
    cpu,
    cores: cpus().length,
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    free_memory_gib: Math.round((freemem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: nodeVersion(node),
    jq: version('jq', ['--version']) ?? null,
    gnu_time: existsSync(GNU_TIME) && /GNU/.test(version(GNU_TIME, ['--version']) ?? ''),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (n, digits = 2) => (n === null || n === undefined ? null : Math.round(n * 10 ** digits) / 10 ** digits);

/**
 * `args` of a node command line that runs `bin`, with the node flags of the bin's launcher line
 * (`#!/usr/bin/env -S node <flags>`) before it: the bin is measured as its users run it.
 */
function withLauncherFlags(args, bin) {
  if (args[0] !== bin) return args;
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0];
  const match = /^#!\/usr\/bin\/env -S node((?: --?[\w-]+(?:=\S+)?)*)\s*$/.exec(first);
  return match ? [...match[1].trim().split(/\s+/).filter(Boolean), ...args] : args;
}

/** The largest VmHWM (kB) of a process and its descendants, polled (VmHWM never goes down). */
function treeHwm(pid) {
  let kb = 0;
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) kb = Number(match[1]);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
        kb = Math.max(kb, treeHwm(child));
      }
    }
  } catch {
    // Exited between two polls.
  }
  return kb;
}

/**
 * Run one command as a whole process: stdin from `input` (a file), from `pipeFrom` (a file that `cat` writes
 * into a pipe), or nothing; stdout to `stdoutFile` or /dev/null. Resolves with wall seconds, CPU seconds
 * (user + sys, GNU time only) and peak RSS in MiB (of the command, every thread of it; of its children too
 * without GNU time).
 */
function measure(command, args, { input, pipeFrom, gnuTime, cwd, env, stdoutFile }) {
  return new Promise((resolveRun) => {
    const stdin = input ? openSync(input, 'r') : 'ignore';
    const stdout = openSync(stdoutFile ?? '/dev/null', 'w');
    const timeFile = gnuTime ? join(mkdtempSync(join(tmpdir(), 'asyncai-log-bench-time-')), 'time') : undefined;
    let argv = gnuTime ? [GNU_TIME, '-f', '%U %S %M', '-o', timeFile, command, ...args] : [command, ...args];
    // GNU time measures the command alone, at the end of the pipe (the exit code is the command's).
    if (pipeFrom) argv = ['/bin/sh', '-c', 'cat -- "$0" | "$@"', pipeFrom, ...argv];
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { stdio: [stdin, stdout, 'pipe'], cwd, ...(env ? { env } : {}) });
    let stderr = '';
    child.stderr.on('data', (d) => {
      if (stderr.length < 4000) stderr += d;
    });
    let hwm = 0;
    const poll = gnuTime ? undefined : setInterval(() => {
      hwm = Math.max(hwm, treeHwm(child.pid));
    }, 5);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (poll) clearInterval(poll);
      if (typeof stdin === 'number') closeSync(stdin);
      closeSync(stdout);
      let cpu = null;
      let rssKb = hwm || null;
      if (timeFile) {
        try {
          const fields = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
          cpu = fields[0] + fields[1];
          rssKb = fields[2];
        } catch {
          // GNU time wrote nothing: the command could not be run.
        }
        rmSync(join(timeFile, '..'), { recursive: true, force: true });
      }
      resolveRun({ code, wall, cpu, rssMib: rssKb === null ? null : rssKb / 1024, stderr });
    });
  });
}

/** Which subcommands the bin has (`read` and `convert` were being built when this benchmark was). */
function commandsOf(bin, node) {
  const help = spawnSync(node, [bin, '--help'], { encoding: 'utf8' });
  const has = (name) => new RegExp(`^\\s+asyncai-log ${name}\\b`, 'm').test(help.stdout ?? '');
  return { read: has('read'), convert: has('convert') };
}

/** The transcripts under a session root. */
function transcriptsIn(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}

/** Lines in a file, read 1 MiB at a time. */
function countLines(path) {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  let position = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, position);
      if (n === 0) break;
      position += n;
      for (let at = buf.indexOf(10); at !== -1 && at < n; at = buf.indexOf(10, at + 1)) lines += 1;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * A many-file tree for `convert --jobs N`, as ~/.codex/sessions is: the corpus cut into files of 2,000 lines,
 * written twice over (two directories), so the full corpus makes about 1 GB. Made once per corpus and run.
 */
function manyFileTree(corpus, work) {
  const dir = join(work, `convert-many-${corpus.name}`);
  const summaryFile = `${dir}.json`;
  if (existsSync(summaryFile)) return JSON.parse(readFileSync(summaryFile, 'utf8'));
  // 2,000 lines a file; a corpus too small for 10 files (a smoke run's) is cut into 10.
  const LINES_PER_FILE = Math.max(1, Math.min(2000, Math.floor(countLines(corpus.file) / 10)));
  const copies = ['a', 'b'].map((copy) => join(dir, copy));
  for (const copy of copies) mkdirSync(copy, { recursive: true });
  const fd = openSync(corpus.file, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let files = 0;
  let lines = 0;
  let inFile = 0;
  let out = [];
  const next = () => {
    for (const o of out) closeSync(o);
    files += 1;
    out = copies.map((copy) => openSync(join(copy, `log-${String(files).padStart(5, '0')}.ndjson`), 'w'));
    inFile = 0;
  };
  try {
    next();
    for (let position = 0; ;) {
      const n = readSync(fd, buf, 0, buf.length, position);
      if (n === 0) break;
      position += n;
      let start = 0;
      for (let at = buf.indexOf(10, start); at !== -1 && at < n; at = buf.indexOf(10, start)) {
        for (const o of out) writeSync(o, buf, start, at + 1 - start);
        start = at + 1;
        lines += 1;
        inFile += 1;
        if (inFile === LINES_PER_FILE) next();
      }
      for (const o of out) writeSync(o, buf, start, n - start);
    }
  } finally {
    closeSync(fd);
    for (const o of out) closeSync(o);
  }
  const summary = { dir, files: files * copies.length, lines: lines * copies.length, bytes: statSync(corpus.file).size * copies.length };
  writeFileSync(summaryFile, JSON.stringify(summary));
  return summary;
}

/**
 * How to run one tool on one corpus (the tree of transcripts for `ccusage` and `read-usage`): a row with
 * status 'not available' when it cannot be, else what each run needs.
 */
function prepareTool(tool, corpus, context) {
  const { opts, commands, work } = context;
  const row = { corpus: corpus.name, tool, command: '', status: 'ok', runs: [] };
  let input = corpus.file;
  let inputBytes = corpus.bytes;
  let inputEvents = corpus.events;
  let command;
  let args;
  let pipeFrom;
  let env;
  let stdoutFile;
  let afterRun;
  let perRun = () => {};
  switch (tool) {
    case 'cat':
      command = 'cat';
      args = [];
      row.command = 'cat > /dev/null';
      break;
    case 'node-parse':
      command = context.node;
      args = [join(ROOT, 'bench', 'parse-floor.mjs')];
      row.command = 'node bench/parse-floor.mjs (read stdin, split lines, JSON.parse each)';
      break;
    case 'jq':
    case 'jq-pipe':
      if (!context.machine.jq) {
        return { ...row, status: 'not available', note: 'jq is not installed (apt-get install -y jq)' };
      }
      command = 'jq';
      args = ['-c', '.'];
      if (tool === 'jq') {
        row.command = 'jq -c . > /dev/null';
        break;
      }
      row.command = 'cat <corpus> | jq -c . > /dev/null';
      pipeFrom = corpus.file;
      input = undefined;
      break;
    case 'filter': {
      command = context.node;
      row.command = 'asyncai-log --session-dir claude-code-cli=<tmp> --cwd /bench';
      // Each run writes a fresh session root; the last one is kept for read and convert.
      perRun = () => {
        const root = join(work, `filter-${corpus.name}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
        rmSync(context.transcripts[corpus.name]?.root ?? join(work, 'none'), { recursive: true, force: true });
        context.transcripts[corpus.name] = { root };
        return [opts.bin, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/bench'];
      };
      break;
    }
    case 'read': {
      if (!commands.read) return { ...row, status: 'not available', note: 'this build has no read command' };
      const written = context.transcripts[corpus.name];
      const [transcript] = written ? transcriptsIn(written.root) : [];
      if (!transcript) return { ...row, status: 'not available', note: 'no transcript written by the filter row' };
      command = context.node;
      args = [opts.bin, 'read', transcript];
      row.command = 'asyncai-log read <transcript> > /dev/null';
      input = undefined;
      inputBytes = statSync(transcript).size;
      inputEvents = countLines(transcript);
      row.input = 'the transcript the filter wrote';
      break;
    }
    case 'convert': {
      if (!commands.convert) return { ...row, status: 'not available', note: 'this build has no convert command' };
      // A tree holding the corpus (linked, not copied), converted into a fresh root each run.
      const tree = join(work, `convert-tree-${corpus.name}`);
      if (!existsSync(tree)) {
        mkdirSync(join(tree, 'logs'), { recursive: true });
        const target = join(tree, 'logs', 'events.ndjson');
        try {
          linkSync(corpus.file, target);
        } catch {
          symlinkSync(corpus.file, target);
        }
      }
      command = context.node;
      row.command = 'asyncai-log convert <tree holding the corpus> --session-dir claude-code-cli=<tmp> --cwd /bench';
      input = undefined;
      perRun = () => {
        const root = join(work, `convert-out-${corpus.name}-${Math.random().toString(36).slice(2)}`);
        context.cleanup.push(root);
        return [opts.bin, 'convert', tree, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/bench', '--jobs', '1'];
      };
      break;
    }
    case 'convert-tree-j1':
    case 'convert-tree-j2': {
      if (!commands.convert) return { ...row, status: 'not available', note: 'this build has no convert command' };
      const tree = manyFileTree(corpus, work);
      if (tree.files < 4) return { ...row, status: 'not available', note: 'the corpus makes fewer than 4 files' };
      const jobs = tool === 'convert-tree-j2' ? '2' : '1';
      command = context.node;
      row.command = `asyncai-log convert <tree> --session-dir claude-code-cli=<tmp> --cwd /bench --jobs ${jobs}`;
      row.input = `a tree of ${tree.files} files`;
      input = undefined;
      inputBytes = tree.bytes;
      inputEvents = tree.lines;
      perRun = () => {
        const root = join(work, `convert-out-${corpus.name}-${Math.random().toString(36).slice(2)}`);
        context.cleanup.push(root);
        return [opts.bin, 'convert', tree.dir, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/bench', '--jobs', jobs];
      };
      break;
    }
    case 'filter-pipe': {
      // The filter on a pipe, as `agent --json | asyncai-log` runs it: one thread (a pipe keeps latency first).
      command = context.node;
      row.command = 'cat <corpus> | asyncai-log --session-dir claude-code-cli=<tmp> --cwd /bench';
      pipeFrom = corpus.file;
      input = undefined;
      const root = join(work, `filter-pipe-${corpus.name}`);
      perRun = () => {
        rmSync(root, { recursive: true, force: true });
        return [opts.bin, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/bench'];
      };
      break;
    }
    case 'ccusage': {
      const bin = context.ccusage;
      if (!bin) return { ...row, status: 'not available', note: 'the pinned ccusage is not installed (node scripts/pinned-install.mjs test/clients .cache/test-clients)' };
      command = bin;
      args = ['session', '--json', '--offline'];
      row.command = 'CLAUDE_CONFIG_DIR=<tree> ccusage session --json --offline';
      ({ input, inputBytes, inputEvents, env, stdoutFile, afterRun } = treeRun(corpus, context, 'ccusage', ccusageTotals));
      break;
    }
    case 'read-usage': {
      if (!commands.read) return { ...row, status: 'not available', note: 'this build has no read command' };
      command = context.node;
      args = [opts.bin, 'read', '--usage', ...corpus.files];
      row.command = `asyncai-log read --usage <the ${corpus.files.length} transcripts>`;
      ({ input, inputBytes, inputEvents, env, stdoutFile, afterRun } = treeRun(corpus, context, 'read-usage', readUsageTotals));
      break;
    }
    default:
      return { ...row, status: 'not available', note: `unknown tool ${tool}` };
  }
  return { row, command, args, perRun, input, pipeFrom, env, stdoutFile, afterRun, inputBytes, inputEvents };
}

/** What a run over the tree of transcripts needs: the tree's size, its root for ccusage, the totals kept. */
function treeRun(corpus, context, name, totalsOf) {
  const stdoutFile = join(context.work, `${name}.out`);
  return {
    input: undefined,
    inputBytes: corpus.bytes,
    inputEvents: corpus.events,
    env: { ...process.env, CLAUDE_CONFIG_DIR: corpus.root, TZ: 'UTC' },
    stdoutFile,
    afterRun: (row) => {
      row.totals = totalsOf(readFileSync(stdoutFile, 'utf8'));
    },
  };
}

/** The four token totals of `ccusage session --json` output. */
function ccusageTotals(text) {
  const t = JSON.parse(text).totals ?? {};
  return { input: t.inputTokens ?? 0, output: t.outputTokens ?? 0, cache_creation: t.cacheCreationTokens ?? 0, cache_read: t.cacheReadTokens ?? 0 };
}

/** The four token totals of `read --usage` output, summed over its transcripts. */
function readUsageTotals(text) {
  const sum = { input: 0, output: 0, cache_creation: 0, cache_read: 0 };
  for (const line of text.split('\n').filter(Boolean)) {
    const t = JSON.parse(line);
    sum.input += t.input_tokens;
    sum.output += t.output_tokens;
    sum.cache_creation += t.cache_creation_input_tokens;
    sum.cache_read += t.cache_read_input_tokens;
  }
  return sum;
}

/** One run of a prepared tool; a failed row when it failed. */
async function runOnce(prepared, context) {
  const { row, command, args, perRun, input, pipeFrom, env, stdoutFile, afterRun } = prepared;
  const runArgs = withLauncherFlags(perRun() ?? args, context.opts.bin);
  const result = await measure(command, runArgs, { input, pipeFrom, env, stdoutFile, gnuTime: context.gnuTime, cwd: context.work });
  if (result.code !== 0) {
    return { ...row, status: 'failed', note: `exit ${result.code}: ${result.stderr.trim().split('\n').slice(0, 3).join(' / ')}` };
  }
  row.runs.push({ wall_s: round(result.wall, 3), cpu_s: round(result.cpu, 3), peak_rss_mib: round(result.rssMib, 1) });
  afterRun?.(row);
  for (const root of context.cleanup.splice(0)) rmSync(root, { recursive: true, force: true });
  return undefined;
}

const finished = (prepared) => summarize({ ...prepared.row, input_bytes: prepared.inputBytes, input_events: prepared.inputEvents });

/** Runs of one tool on one corpus: the median figures, or why there are none. */
async function runTool(tool, corpus, context) {
  const prepared = prepareTool(tool, corpus, context);
  if (!prepared.row) return prepared;
  for (let rep = 0; rep < context.opts.reps; rep += 1) {
    const failed = await runOnce(prepared, context);
    if (failed) return failed;
  }
  return finished(prepared);
}

/**
 * Tools compared with each other, run side by side: rep by rep, taking turns, so a machine whose load
 * changes slows each alike. The load average (1 min) before and after is kept with the rows.
 */
async function runSideBySide(tools, corpus, context) {
  const load = [round(loadavg()[0], 2)];
  const prepared = tools.map((tool) => prepareTool(tool, corpus, context));
  const failed = prepared.map((p) => (p.row ? undefined : p));
  for (let rep = 0; rep < context.opts.reps; rep += 1) {
    for (const [i, p] of prepared.entries()) {
      if (failed[i]) continue;
      context.log(`${corpus.name}: ${tools[i]}, run ${rep + 1} of ${context.opts.reps}`);
      failed[i] = await runOnce(p, context);
    }
  }
  load.push(round(loadavg()[0], 2));
  return prepared.map((p, i) => ({ ...(failed[i] ?? finished(p)), load_average_1m: load }));
}

/**
 * A row's figures from its runs: median wall and CPU time, rates from the median, the largest peak RSS; `raw`
 * keeps them unrounded (a tiny corpus on a busy machine rounds to 0 MB/s, and ratios of rounded figures divide
 * by 0).
 */
function summarize(row) {
  const wall = median(row.runs.map((r) => r.wall_s));
  const cpuRuns = row.runs.map((r) => r.cpu_s).filter((c) => c !== null);
  const rss = row.runs.map((r) => r.peak_rss_mib).filter((r) => r !== null);
  const { input_bytes: inputBytes, input_events: inputEvents } = row;
  const raw = {
    wall_s: wall,
    cpu_s: cpuRuns.length ? median(cpuRuns) : null,
    events_per_s: inputEvents / wall,
    mb_per_s: inputBytes / 1e6 / wall,
    peak_rss_mib: rss.length ? Math.max(...rss) : null,
  };
  return {
    ...row,
    wall_s: round(raw.wall_s, 3),
    cpu_s: round(raw.cpu_s, 3),
    events_per_s: Math.round(raw.events_per_s),
    mb_per_s: round(raw.mb_per_s, 1),
    peak_rss_mib: round(raw.peak_rss_mib, 1),
    raw,
  };
}

/**
 * Ratios to the minimal Node parse loop on the same corpus (speed: higher is faster; RSS: higher is bigger),
 * taken from the unrounded figures.
 */
function addRatios(rows) {
  for (const row of rows) {
    const base = rows.find((r) => r.corpus === row.corpus && r.tool === RATIO_BASE && r.status === 'ok');
    if (row.status !== 'ok' || !base) continue;
    row.raw.speed_vs_node_parse = row.raw.mb_per_s / base.raw.mb_per_s;
    row.speed_vs_node_parse = round(row.raw.speed_vs_node_parse, 2);
    row.rss_vs_node_parse = row.raw.peak_rss_mib && base.raw.peak_rss_mib ? round(row.raw.peak_rss_mib / base.raw.peak_rss_mib, 2) : null;
  }
  // The comparisons run side by side: the speed ratio of each rep (the peer's wall time over ours), and its median.
  for (const [ours, peer] of COMPARED) {
    for (const row of rows.filter((r) => r.tool === ours && r.status === 'ok')) {
      const other = rows.find((r) => r.corpus === row.corpus && r.tool === peer && r.status === 'ok');
      if (!other) continue;
      const perRep = row.runs.map((run, i) => other.runs[i].wall_s / run.wall_s);
      row.vs = { tool: peer, per_rep: perRep.map((r) => round(r, 3)), speed_ratio: round(median(perRep), 2) };
      row.raw.speed_vs_peer = median(perRep);
      if (row.totals && other.totals) {
        row.vs.same_totals = JSON.stringify(row.totals) === JSON.stringify(other.totals);
        if (!row.vs.same_totals) row.note = `totals differ from ${peer}'s: ${JSON.stringify(row.totals)} against ${JSON.stringify(other.totals)}`;
      }
    }
  }
}

/** Our tool and the peer it is compared with (side by side). */
const COMPARED = [['filter', 'node-parse'], ['filter-pipe', 'jq-pipe'], ['read-usage', 'ccusage'], ['convert-tree-j2', 'convert-tree-j1']];

/** The row of one more run (`one`) after those of `before` (undefined before the first): a failure ends it. */
function withRuns(before, one) {
  return before && one.status === 'ok' ? { ...before, runs: [...before.runs, ...one.runs] } : one;
}

/**
 * Node versions side by side: each tool on one corpus, run by each version in turn, rep after rep, so a
 * machine whose load changes slows every version alike. `read` reads the transcript the last filter run wrote
 * (the same file for every version).
 */
async function compareVersions(opts, corpus, context) {
  const nodes = opts.versions.map((spec) => {
    const bin = spec === 'own' ? opts.node : nodeBinary(spec);
    return { bin, version: nodeVersion(bin) };
  });
  const load = [round(loadavg()[0], 1)];
  const rows = [];
  for (const tool of opts.versionsTools) {
    const byNode = nodes.map(() => undefined);
    for (let rep = 0; rep < opts.reps; rep += 1) {
      for (const [i, node] of nodes.entries()) {
        if (byNode[i] && byNode[i].status !== 'ok') continue;
        context.log(`versions: ${tool} on Node ${node.version}, run ${rep + 1} of ${opts.reps}`);
        const one = await runTool(tool, corpus, { ...context, node: node.bin, opts: { ...opts, reps: 1 } });
        byNode[i] = withRuns(byNode[i], one);
      }
    }
    const summed = byNode.map((row, i) => ({ ...(row.status === 'ok' ? summarize(row) : row), node: nodes[i].version }));
    const first = summed[0];
    for (const row of summed) {
      // Every version had the same input: the speed ratio is the ratio of wall times.
      if (row.status === 'ok' && first.status === 'ok') row.speed_vs_first = round(first.wall_s / row.wall_s, 2);
      rows.push(row);
    }
  }
  load.push(round(loadavg()[0], 1));
  const { file, ...about } = corpus;
  return {
    generated_at: new Date().toISOString(),
    command: `node bench/run.mjs --versions ${opts.versions.join(',')} --versions-tools ${opts.versionsTools.join(',')}` +
      ` --versions-corpus ${corpus.name} --reps ${opts.reps} --versions-only`,
    corpus: { ...about, file: relative(ROOT, file) },
    reps: opts.reps,
    nodes: nodes.map((n) => n.version),
    load_average_1m: load,
    rows,
  };
}

/**
 * Peak RSS against input length: each tool on corpora of `opts.lengths` events, the lengths taking turns run
 * by run (so a machine whose load changes weighs on each alike); `read` reads the transcript the filter wrote
 * from the same corpus in the same round, deleted after it. Per tool and length: the median and the largest
 * peak of the runs.
 */
async function measureLengths(opts, context) {
  const corpora = opts.lengths.map((events) => {
    const file = join(opts.corpusDir, `events-${events}.ndjson`);
    context.log(`lengths: corpus of ${events} events: ${file}`);
    const manifest = generateCorpus(file, { events, seed: opts.seed });
    return { name: `length-${events}`, file, events: manifest.events, bytes: manifest.bytes };
  });
  const load = [round(loadavg()[0], 1)];
  const byKey = new Map();
  for (let rep = 0; rep < opts.lengthsReps; rep += 1) {
    for (const corpus of corpora) {
      for (const tool of opts.lengthsTools) {
        const key = `${tool} ${corpus.name}`;
        const before = byKey.get(key);
        if (before && before.status !== 'ok') continue;
        context.log(`lengths: ${tool} on ${corpus.events} events, run ${rep + 1} of ${opts.lengthsReps}`);
        const one = await runTool(tool, corpus, { ...context, opts: { ...opts, reps: 1 } });
        byKey.set(key, withRuns(before, one));
      }
      const written = context.transcripts[corpus.name];
      if (written) rmSync(written.root, { recursive: true, force: true });
      delete context.transcripts[corpus.name];
    }
  }
  load.push(round(loadavg()[0], 1));
  const rows = [];
  for (const tool of opts.lengthsTools) {
    for (const corpus of corpora) {
      const row = byKey.get(`${tool} ${corpus.name}`);
      if (row.status !== 'ok') {
        rows.push({ tool, events: corpus.events, status: row.status, note: row.note });
        continue;
      }
      const peaks = row.runs.map((r) => r.peak_rss_mib).filter((r) => r !== null);
      rows.push({
        tool, events: corpus.events, bytes: row.input_bytes, status: 'ok', runs: row.runs, wall_s: row.wall_s,
        peak_rss_median_mib: peaks.length ? median(peaks) : null, peak_rss_max_mib: peaks.length ? Math.max(...peaks) : null,
      });
    }
  }
  return {
    generated_at: new Date().toISOString(),
    command: `node bench/run.mjs --lengths ${opts.lengths.join(',')} --lengths-tools ${opts.lengthsTools.join(',')}` +
      ` --lengths-reps ${opts.lengthsReps} --lengths-only`,
    reps: opts.lengthsReps,
    corpora: corpora.map(({ file, ...rest }) => ({ ...rest, file: relative(ROOT, file) })),
    load_average_1m: load,
    rows,
  };
}

/** A peak RSS target: `mib` (unrounded) under the limit, shown to a tenth of a MiB. */
/**
 * Issue 35 keeps single transcripts past the realistic one (200 MB, the realistic section) out of the memory
 * guardrails, as information: `read` of the full corpus' transcript (about 1 GB, one file) holds the branch's
 * index of every record, and its peak follows the machine's load.
 */
function informationOnly(row, corpus) {
  return row.tool === 'read' && corpus === 'full';
}

function rssTarget(target, mib) {
  return { target, value: round(mib, 1), pass: mib < RSS_LIMIT_MIB };
}

/**
 * Memory flat in input length: per tool, the median peak at the longest corpus against the one at the longest
 * corpus of at most half its length, within FLAT_FACTOR; and every run under the RSS limit.
 */
function lengthTargets(lengths) {
  const list = [];
  for (const tool of [...new Set(lengths.rows.map((r) => r.tool))]) {
    const ok = lengths.rows.filter((r) => r.tool === tool && r.status === 'ok' && r.peak_rss_median_mib !== null).sort((a, b) => a.events - b.events);
    const longest = ok.at(-1);
    const half = ok.filter((r) => longest && r.events * 2 <= longest.events).at(-1);
    if (longest && half) {
      const ratio = longest.peak_rss_median_mib / half.peak_rss_median_mib;
      list.push({
        target: `${tool} peak RSS at ${fmt(longest.events)} events <= ${FLAT_FACTOR}x at ${fmt(half.events)} (memory flat in input length; medians)`,
        value: round(ratio, 2),
        pass: ratio <= FLAT_FACTOR,
      });
    }
    for (const row of ok) {
      list.push(rssTarget(`${tool} peak RSS < ${RSS_LIMIT_MB} MB (${fmt(row.events)} events)`, row.peak_rss_max_mib));
    }
  }
  return list;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs in one start-up batch: GNU time reports CPU in hundredths of a second, a run of ours takes about a tenth. */
const STARTUP_BATCH = 10;
const STARTUP_EVENTS = '{"type":"user","text":"hi"}\n{"type":"assistant","text":"ok"}\n';

/**
 * Start-up: the CPU time (user + sys) of a filter run that writes a two-event session, against `node -e 0`'s,
 * each the median over batches of STARTUP_BATCH runs of a shell loop under GNU time (the loop's own forks are
 * in both), the two taking turns batch by batch. The command is the one users run, bin/launch.mjs (with its
 * launcher's node flags), unless --bin names another build.
 */
async function startup(opts, work, gnuTime) {
  if (!gnuTime) return { status: 'not available', note: 'GNU time (/usr/bin/time) is needed for CPU times' };
  const dir = join(work, 'startup');
  mkdirSync(dir, { recursive: true });
  const input = join(dir, 'events.ndjson');
  writeFileSync(input, STARTUP_EVENTS);
  const launcher = join(ROOT, 'bin', 'launch.mjs');
  const bin = opts.bin === join(ROOT, 'dist', 'bin', 'asyncai-log.js') ? launcher : opts.bin;
  const filter = [opts.node, ...withLauncherFlags([bin, '--cwd', dir, '--session-dir', `claude-code-cli=${dir}`], bin)];
  const node = [opts.node, '-e', '0'];
  // Each run reads the events from the file: `$1` is the input, the rest the command.
  const loop = `in=$1; shift; i=0; while [ $i -lt ${STARTUP_BATCH} ]; do "$@" < "$in" || exit 1; i=$((i+1)); done`;
  const load = [round(loadavg()[0], 1)];
  const cpu = { node: [], filter: [] };
  for (let batch = 0; batch < opts.startupBatches; batch += 1) {
    for (const [name, command] of [['node', node], ['filter', filter]]) {
      const run = await measure('/bin/sh', ['-c', loop, 'sh', input, ...command], { gnuTime: true, cwd: dir });
      if (run.code !== 0 || run.cpu === null) return { status: 'failed', note: `${name} exited ${run.code}: ${run.stderr.slice(0, 300)}` };
      cpu[name].push((run.cpu * 1000) / STARTUP_BATCH);
    }
    // Each run wrote a session of its own: keep the directory small.
    for (const entry of readdirSync(dir)) if (entry !== 'events.ndjson') rmSync(join(dir, entry), { recursive: true, force: true });
  }
  load.push(round(loadavg()[0], 1));
  const nodeMs = median(cpu.node);
  const filterMs = median(cpu.filter);
  return {
    status: 'ok',
    generated_at: new Date().toISOString(),
    command: `node bench/run.mjs --startup-batches ${opts.startupBatches} --startup-only`,
    node: nodeVersion(opts.node),
    bin: relative(ROOT, bin),
    batches: opts.startupBatches,
    runs_per_batch: STARTUP_BATCH,
    node_cpu_ms: round(nodeMs, 1),
    filter_cpu_ms: round(filterMs, 1),
    ratio: round(filterMs / nodeMs, 2),
    load_average_1m: load,
    raw: { node_cpu_ms: cpu.node, filter_cpu_ms: cpu.filter, ratio: filterMs / nodeMs },
  };
}

/**
 * Live latency: events written one at a time into the filter's stdin (a pipe), each timed from the write
 * until the transcript has grown (its record is in the file). The file size is polled on every turn of the
 * event loop, so the figure includes at most a few microseconds of polling.
 */
async function latency(opts, work) {
  const root = join(work, 'latency');
  const child = spawn(opts.node, withLauncherFlags([opts.bin, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/bench'], opts.bin), {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const sessionFile = await new Promise((resolveLine, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl !== -1) resolveLine(JSON.parse(out.slice(0, nl)).result.session_file);
    });
    child.on('close', () => reject(new Error(`the filter exited before its session line: ${stderr}`)));
  });
  const fd = openSync(sessionFile, 'r');
  const samples = [];
  let missing = 0;
  // Small events only: the figure is about the pipeline's delay, not about serialising a 2 MB result.
  const lines = eventLines({ events: opts.latencyEvents, seed: opts.seed + 1, tail: false });
  for (const line of lines) {
    await sleep(2);
    const before = fstatSync(fd).size;
    const started = process.hrtime.bigint();
    child.stdin.write(`${line}\n`);
    const deadline = started + 2_000_000_000n;
    for (;;) {
      await new Promise(setImmediate);
      if (fstatSync(fd).size > before) {
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        break;
      }
      if (process.hrtime.bigint() > deadline) {
        missing += 1;
        break;
      }
    }
  }
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  closeSync(fd);
  // No figure at all when no event was recorded within 2 s (a machine far too busy): never NaN or -Infinity.
  const raw = samples.length === 0
    ? { median_ms: null, p99_ms: null, max_ms: null }
    : { median_ms: median(samples), p99_ms: percentile(samples, 99), max_ms: Math.max(...samples) };
  return {
    events: samples.length + missing,
    measured: samples.length,
    median_ms: round(raw.median_ms, 3),
    p99_ms: round(raw.p99_ms, 3),
    max_ms: round(raw.max_ms, 3),
    without_record_in_2s: missing,
    raw,
  };
}

function targets(rows, lat, lengths, versions, start) {
  const get = (corpus, tool) => rows.find((r) => r.corpus === corpus && r.tool === tool && r.status === 'ok');
  const list = [];
  const full = get('full', 'filter');
  if (full) {
    const jq = get('full', 'jq');
    if (jq) list.push({ target: 'filter faster than jq -c . (full corpus)', value: round(full.raw.mb_per_s / jq.raw.mb_per_s, 2), pass: full.raw.mb_per_s > jq.raw.mb_per_s });
  }
  const pipe = get('full', 'filter-pipe');
  if (pipe?.vs) {
    list.push({ target: 'filter on a pipe (one thread) >= 1.2x jq -c . on the same pipe (full corpus, side by side)', value: pipe.vs.speed_ratio, pass: pipe.raw.speed_vs_peer >= 1.2 });
  }
  const usage = get('tree', 'read-usage');
  if (usage?.vs) {
    list.push({ target: 'read --usage over the tree at least as fast as ccusage session (side by side)', value: usage.vs.speed_ratio, pass: usage.raw.speed_vs_peer >= 1 });
    if (usage.vs.same_totals !== undefined) list.push({ target: 'read --usage over the tree totals what ccusage totals', value: usage.vs.same_totals ? 1 : 0, pass: usage.vs.same_totals });
  }
  const read = get('full', 'read');
  if (full && read) {
    list.push({ target: 'read MB/s of transcript >= filter MB/s of input (full corpus)', value: round(read.raw.mb_per_s / full.raw.mb_per_s, 2), pass: read.raw.mb_per_s >= full.raw.mb_per_s });
  }
  // Every row of this project's commands but the read of the full corpus' one 1 GB transcript (informationOnly).
  for (const row of rows.filter((r) => OWN_TOOLS.includes(r.tool) && r.status === 'ok' && r.peak_rss_mib && !informationOnly(r, r.corpus))) {
    list.push(rssTarget(`${row.tool} peak RSS < ${RSS_LIMIT_MB} MB (${row.corpus}${row.corpus === 'tree' ? '' : ' corpus'})`, row.raw.peak_rss_mib));
  }
  const j1 = get('full', 'convert-tree-j1');
  const j2 = get('full', 'convert-tree-j2');
  if (j1 && j2) {
    // Side by side: the median of the per-run ratios.
    const ratio = j2.raw.speed_vs_peer ?? j1.raw.wall_s / j2.raw.wall_s;
    list.push({ target: 'convert --jobs 2 >= 1.5x --jobs 1 (many-file tree of the full corpus, side by side)', value: round(ratio, 2), pass: ratio >= 1.5 });
  }
  if (lengths) list.push(...lengthTargets(lengths));
  // The Node versions users run: every row of ours under the same limit.
  for (const row of versions?.rows.filter((r) => OWN_TOOLS.includes(r.tool) && r.status === 'ok' && r.peak_rss_mib && !informationOnly(r, versions.corpus.name)) ?? []) {
    list.push(rssTarget(`${row.tool} peak RSS < ${RSS_LIMIT_MB} MB (Node ${row.node}, ${versions.corpus.name} corpus)`, row.raw.peak_rss_mib));
  }
  if (start?.status === 'ok') {
    list.push({ target: 'start-up: a two-event filter run <= 2x the CPU of node -e 0', value: start.ratio, pass: start.raw.ratio <= 2 });
  }
  if (lat) {
    // No event recorded within 2 s: both targets missed.
    const measured = lat.measured > 0;
    list.push({ target: 'live latency median < 2 ms', value: lat.median_ms, pass: measured && lat.raw.median_ms < 2 });
    list.push({ target: 'live latency p99 < 20 ms', value: lat.p99_ms, pass: measured && lat.raw.p99_ms < 20 });
  }
  return list;
}

const fmt = (n, digits = 0) => (n === null || n === undefined ? '' : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

/** docs/performance.md's text, with a `{{part}}` where a measured part goes (bench/performance.template.md). */
const TEMPLATE = new URL('./performance.template.md', import.meta.url);

/**
 * docs/performance.md: the template with its measured parts filled in. A block between `<!-- if part -->` and
 * `<!-- end -->` is left out when that part was not measured.
 */
function markdown(report) {
  const parts = measuredParts(report);
  const text = readFileSync(TEMPLATE, 'utf8')
    .replace(/<!-- if (\w+) -->\n([\s\S]*?)<!-- end -->\n/g, (_, name, block) => (parts[name] ? block : ''))
    .replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (!(name in parts)) throw new Error(`bench/performance.template.md names an unknown part: ${name}`);
      return parts[name].replace(/\n+$/, '');
    });
  return text.replace(/\n{3,}/g, '\n\n');
}

/** The measured parts of docs/performance.md, as markdown ('' for a part not measured). */
function measuredParts(report) {
  const m = report.machine;
  const lines = (out) => out.join('\n');
  const parts = {};
  parts.measured = `Measured ${report.generated_at.slice(0, 10)} on ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}` +
    `${m.jq ? `, ${m.jq}` : ', no jq'}. Each figure is the median of ${report.options.reps} whole-process run(s); peak RSS is the` +
    ` largest of them (${m.gnu_time ? 'GNU time %M' : 'polled /proc VmHWM'}).`;
  parts.corpora = lines(['| corpus | events | size | made by |', '|---|---:|---:|---|',
    ...report.corpora.map((c) => `| ${c.name} | ${fmt(c.events)} | ${fmt(c.bytes / 1e6, 1)} MB | \`${c.recipe}\` |`)]);
  const corpusTables = [];
  for (const corpus of report.corpora) {
    corpusTables.push(`### ${corpus.name}: ${fmt(corpus.events)} events, ${fmt(corpus.bytes / 1e6, 1)} MB`, '');
    corpusTables.push('| tool | events/s | MB/s | x node parse | wall s | CPU s | peak RSS MiB | RSS x node parse |');
    corpusTables.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of report.rows.filter((r) => r.corpus === corpus.name)) {
      if (row.status !== 'ok') {
        corpusTables.push(`| ${row.tool} | ${row.status}: ${row.note ?? ''} | | | | | | |`);
        continue;
      }
      corpusTables.push(`| ${row.tool}${row.input ? ` (input: ${row.input}, ${fmt(row.input_bytes / 1e6, 1)} MB, ${fmt(row.input_events)} records)` : ''}` +
        ` | ${fmt(row.events_per_s)} | ${fmt(row.mb_per_s, 1)} | ${fmt(row.speed_vs_node_parse, 2)} | ${fmt(row.wall_s, 2)}` +
        ` | ${fmt(row.cpu_s, 2)} | ${fmt(row.peak_rss_mib, 0)} | ${fmt(row.rss_vs_node_parse, 2)} |`);
    }
    corpusTables.push('');
  }
  parts.corpus_tables = lines(corpusTables);
  const sideBySide = report.rows.filter((r) => r.vs);
  parts.side_by_side = sideBySide.length === 0 ? '' : lines([
    '| ours | peer | input | speed ratio (median) | per run | load average |', '|---|---|---|---:|---|---|',
    ...sideBySide.map((row) => `| ${row.tool} | ${row.vs.tool} | ${row.corpus} | ${fmt(row.vs.speed_ratio, 2)} | ${row.vs.per_rep.map((r) => fmt(r, 2)).join(', ')}` +
      ` | ${(row.load_average_1m ?? []).map((l) => fmt(l, 1)).join(' to ')} |`),
  ]);
  parts.tree = '';
  parts.tree_title = '';
  parts.tree_recipe = '';
  if (report.tree) {
    const t = report.tree;
    parts.tree_title = `${fmt(t.files)} transcripts, ${fmt(t.bytes / 1e6, 1)} MB, ${fmt(t.events)} records`;
    parts.tree_recipe = t.recipe;
    const tree = ['| tool | records/s | MB/s | wall s | CPU s | peak RSS MiB | totals (in, out, cache create, cache read) |',
      '|---|---:|---:|---:|---:|---:|---|'];
    for (const row of report.rows.filter((r) => r.corpus === 'tree')) {
      if (row.status !== 'ok') {
        tree.push(`| ${row.tool} | ${row.status}: ${row.note ?? ''} | | | | | |`);
        continue;
      }
      const totals = row.totals ? [row.totals.input, row.totals.output, row.totals.cache_creation, row.totals.cache_read].map((n) => fmt(n)).join(', ') : '';
      const same = row.vs?.same_totals === undefined ? '' : row.vs.same_totals ? ` (the same as ${row.vs.tool})` : ` (**not** the same as ${row.vs.tool})`;
      tree.push(`| ${row.tool} | ${fmt(row.events_per_s)} | ${fmt(row.mb_per_s, 1)} | ${fmt(row.wall_s, 2)} | ${fmt(row.cpu_s, 2)}` +
        ` | ${fmt(row.peak_rss_mib, 0)} | ${totals}${same} |`);
    }
    parts.tree = lines(tree);
  }
  const l = report.latency;
  parts.latency = !l ? '' : lines([`${fmt(l.events)} events.`, '', '| median ms | p99 ms | max ms | events without a record after 2 s |', '|---:|---:|---:|---:|',
    `| ${fmt(l.median_ms, 3)} | ${fmt(l.p99_ms, 3)} | ${fmt(l.max_ms, 3)} | ${l.without_record_in_2s} |`]);
  const none = (...names) => Object.fromEntries(names.map((name) => [name, '']));
  Object.assign(parts, report.startup ? startupParts(report.startup) : none('startup', 'startup_measured', 'startup_command'));
  Object.assign(parts, report.versions ? versionsParts(report.versions) : none('versions', 'versions_measured', 'versions_command'));
  Object.assign(parts, report.lengths ? lengthsParts(report.lengths) : none('lengths', 'lengths_measured', 'lengths_command'));
  parts.targets = lines(['| target | value | met |', '|---|---:|---|', ...report.targets.map((t) => `| ${t.target} | ${fmt(t.value, 2)} | ${t.pass ? 'met' : '**not met**'} |`)]);
  // Each section module's part, '' when it was never measured.
  for (const section of sections) {
    const measured = report.sections?.[section.name];
    parts[section.name] = measured ? section.render(measured.data, renderKit(measured)) : '';
  }
  return parts;
}

/**
 * What a section module's `measure` gets (bench/sections.md): the options, a log, and the runner of the other
 * sections (whole processes measured alike, tools compared run by run in turns).
 */
function sectionKit(context, name) {
  const { opts } = context;
  return {
    opts, log: (message) => context.log(`${name}: ${message}`), work: context.work, root: ROOT, node: opts.node, bin: opts.bin,
    commands: context.commands, gnuTime: context.gnuTime, rssLimitMb: RSS_LIMIT_MB,
    ccusage: () => (context.ccusage ??= ccusageBin(context.log)),
    /**
     * Run tools side by side, `reps` runs each in turns: `tools` are {tool, command, args | perRun, input?,
     * pipeFrom?, env?, stdoutFile?, afterRun?, inputBytes, inputEvents, label?} (`command` undefined: the
     * node running the bench, with the launcher's flags when args[0] is the bin). Resolves with a row per tool:
     * median wall and CPU s, largest peak RSS MiB (`raw` unrounded), its runs, the load average before and after.
     */
    async runTools(tools, { reps = opts.reps, corpus = name } = {}) {
      const prepared = tools.map((t) => ({
        row: { corpus, tool: t.tool, command: t.label ?? '', status: 'ok', runs: [] },
        command: t.command ?? opts.node, args: t.args, perRun: t.perRun ?? (() => undefined), input: t.input, pipeFrom: t.pipeFrom,
        env: t.env, stdoutFile: t.stdoutFile, afterRun: t.afterRun, inputBytes: t.inputBytes, inputEvents: t.inputEvents,
      }));
      const load = [round(loadavg()[0], 2)];
      const failed = prepared.map(() => undefined);
      for (let rep = 0; rep < reps; rep += 1) {
        for (const [i, p] of prepared.entries()) {
          if (failed[i]) continue;
          context.log(`${name}: ${p.row.tool}, run ${rep + 1} of ${reps}`);
          failed[i] = await runOnce(p, context);
        }
      }
      load.push(round(loadavg()[0], 2));
      return prepared.map((p, i) => ({ ...(failed[i] ?? finished(p)), load_average_1m: load }));
    },
    /** A target of peak RSS under the limit, for a row's largest peak. */
    rssTarget: (target, mib) => rssTarget(`${target} peak RSS < ${RSS_LIMIT_MB} MB`, mib),
    round, median, fmt,
  };
}

/** What a section module's `render` gets: when it was measured, and the formatting helpers. */
function renderKit(measured) {
  return { generated_at: measured.generated_at, date: measured.generated_at.slice(0, 10), load_average_1m: measured.load_average_1m, fmt, round, rssLimitMb: RSS_LIMIT_MB };
}

/** The targets of every section measured (now or in an earlier run: its figures are the last ones). */
function sectionTargets(measured) {
  return sections.flatMap((section) => (measured[section.name] && section.targets
    ? section.targets(measured[section.name].data, { rssTarget: (target, mib) => rssTarget(`${target} peak RSS < ${RSS_LIMIT_MB} MB`, mib), round, fmt })
    : []));
}

/** When a study was measured and how busy the machine was (its prose is in the template). */
const measuredLine = (study, extra) => `Measured ${study.generated_at.slice(0, 10)}${extra}; load average (1 min) ${study.load_average_1m.join(' at the start and ')} at the end.`;

/** The memory-against-input-length parts of docs/performance.md. */
function lengthsParts(l) {
  const out = ['| tool | events | MB | wall s (median) | peak RSS MiB (median) | largest | x the shortest |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const row of l.rows) {
    if (row.status !== 'ok') {
      out.push(`| ${row.tool} | ${fmt(row.events)} | ${row.status}: ${row.note ?? ''} | | | | |`);
      continue;
    }
    const shortest = l.rows.find((r) => r.tool === row.tool && r.status === 'ok');
    out.push(`| ${row.tool} | ${fmt(row.events)} | ${fmt(row.bytes / 1e6, 1)} | ${fmt(row.wall_s, 2)} | ${fmt(row.peak_rss_median_mib, 0)}` +
      ` | ${fmt(row.peak_rss_max_mib, 0)} | ${fmt(row.peak_rss_median_mib / shortest.peak_rss_median_mib, 2)} |`);
  }
  return {
    lengths: out.join('\n'),
    lengths_measured: measuredLine(l, `: corpora of ${l.corpora.map((c) => fmt(c.events)).join(', ')} events, ${l.reps} run(s) per tool and length`),
    lengths_command: l.command,
  };
}

/** The start-up parts of docs/performance.md. */
function startupParts(s) {
  if (s.status !== 'ok') return { startup: `Not measured: ${s.note}`, startup_measured: '', startup_command: '' };
  return {
    startup: ['| node -e 0 CPU ms | two-event run CPU ms | x node -e 0 |', '|---:|---:|---:|',
      `| ${fmt(s.node_cpu_ms, 1)} | ${fmt(s.filter_cpu_ms, 1)} | ${fmt(s.ratio, 2)} |`].join('\n'),
    startup_measured: measuredLine(s, ` (${s.bin}, Node ${s.node}): the median of ${s.batches} batches of ${s.runs_per_batch} runs each`),
    startup_command: s.command,
  };
}

/** The Node versions parts of docs/performance.md. */
function versionsParts(v) {
  const c = v.corpus;
  const out = [`| tool | Node | events/s | MB/s | x ${v.nodes[0]} | wall s | CPU s | peak RSS MiB |`, '|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const row of v.rows) {
    if (row.status !== 'ok') {
      out.push(`| ${row.tool} | ${row.node} | ${row.status}: ${row.note ?? ''} | | | | | |`);
      continue;
    }
    out.push(`| ${row.tool} | ${row.node} | ${fmt(row.events_per_s)} | ${fmt(row.mb_per_s, 1)} | ${fmt(row.speed_vs_first, 2)}` +
      ` | ${fmt(row.wall_s, 2)} | ${fmt(row.cpu_s, 2)} | ${fmt(row.peak_rss_mib, 0)} |`);
  }
  return {
    versions: out.join('\n'),
    versions_measured: measuredLine(v, `: Node ${v.nodes.join(', ')} on the ${c.name} corpus (${fmt(c.events)} events, ${fmt(c.bytes / 1e6, 1)} MB), the median of ${v.reps} run(s) per version`),
    versions_command: v.command,
  };
}

/** The tree of Claude Code transcripts (bench/transcripts.mjs), generated once and kept. */
function treeCorpus(opts, log) {
  const dir = join(opts.treeDir, `claude-tree-${opts.treeFiles}x${opts.treeMb}mb-s${opts.seed}`);
  log(`tree: ${opts.treeFiles} transcripts of ${opts.treeMb} MB in ${dir}`);
  const tree = generateTree(dir, { files: opts.treeFiles, mb: opts.treeMb, seed: opts.seed });
  return {
    name: 'tree', root: tree.root, files: tree.files, bytes: tree.bytes, events: tree.lines,
    recipe: `node bench/transcripts.mjs --files ${opts.treeFiles} --mb ${opts.treeMb} --seed ${opts.seed}`,
  };
}

/** The pinned ccusage (test/clients), installed with the other pinned clients when it is not there yet. */
function ccusageBin(log) {
  try {
    return clientBin('ccusage');
  } catch {
    log('installing the pinned real clients (ccusage among them) into .cache/test-clients');
    try {
      installTestClients();
      return clientBin('ccusage');
    } catch (error) {
      log(`  no ccusage: ${error.message}`);
      return undefined;
    }
  }
}

async function main() {
  const opts = options();
  if (opts.renderOnly) {
    const report = JSON.parse(readFileSync(join(opts.outDir, 'performance.json'), 'utf8'));
    writeFileSync(join(opts.outDir, 'performance.md'), markdown(report));
    return;
  }
  if (!existsSync(opts.bin)) {
    process.stderr.write(`bench: ${relative(process.cwd(), opts.bin)} does not exist: build first (npm run build)\n`);
    process.exit(2);
  }
  const info = machine(opts.node);
  const log = (message) => process.stderr.write(`bench: ${message}\n`);
  mkdirSync(opts.corpusDir, { recursive: true });
  const short = Math.max(1, Math.round(opts.events / 10));
  const recipes = {
    full: { file: `events-${opts.events}.ndjson`, options: { events: opts.events, seed: opts.seed }, recipe: `node bench/generate.mjs --events ${opts.events} --seed ${opts.seed}` },
    short: { file: `events-${short}.ndjson`, options: { events: short, seed: opts.seed }, recipe: `node bench/generate.mjs --events ${short} --seed ${opts.seed}` },
    single: {
      file: `single-${opts.singleMb}mb.ndjson`,
      options: { events: 2, seed: opts.seed, singleBytes: Math.round(opts.singleMb * 2 ** 20) },
      recipe: `node bench/generate.mjs --single-mb ${opts.singleMb} --seed ${opts.seed}`,
    },
  };
  const corpusOf = (name) => {
    const recipe = recipes[name];
    if (!recipe) throw new Error(`unknown corpus ${name} (known: ${Object.keys(recipes).join(', ')})`);
    const file = join(opts.corpusDir, recipe.file);
    log(`corpus ${name}: ${file}`);
    const manifest = generateCorpus(file, recipe.options);
    return { name, file, events: manifest.events, bytes: manifest.bytes, recipe: recipe.recipe };
  };
  let kept;
  const only = opts.versionsOnly || opts.lengthsOnly || opts.startupOnly || opts.sectionsOnly;
  const jsonFile = join(opts.outDir, 'performance.json');
  if (only) {
    if (opts.versionsOnly && opts.versions.length === 0) throw new Error('--versions-only wants --versions');
    if (opts.lengthsOnly && opts.lengths.length === 0) throw new Error('--lengths-only wants --lengths');
    // The other figures stay as they were measured (a section measured alone, with none before: none).
    kept = opts.sectionsOnly && !existsSync(jsonFile)
      ? {
        generated_at: new Date().toISOString(), machine: info,
        options: { reps: opts.reps, events: opts.events, single_mb: opts.singleMb, seed: opts.seed, latency_events: opts.latencyEvents },
        corpora: [], rows: [], latency: null, targets: [],
      }
      : JSON.parse(readFileSync(jsonFile, 'utf8'));
  }
  // What this run does not measure (opt-in studies) keeps the figures, and the date, of the last run that did.
  const previous = kept ?? (existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : undefined);
  const corpora = only ? [] : opts.corpora.map(corpusOf);
  const work = mkdtempSync(join(tmpdir(), 'asyncai-log-bench-'));
  // Transcripts of the full corpus are a gigabyte: never leave them behind.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  }
  const context = {
    opts, node: opts.node, commands: commandsOf(opts.bin, opts.node), gnuTime: info.gnu_time, work, machine: info, transcripts: {}, cleanup: [], log,
  };
  const rows = [];
  try {
    const said = (row) => log(`  ${row.tool}: ${row.status}${row.wall_s !== undefined ? `: ${row.wall_s} s, ${row.mb_per_s} MB/s, ${row.peak_rss_mib} MiB` : ` (${row.note})`}`);
    for (const corpus of corpora) {
      const done = new Set();
      const corpusRows = [];
      for (const tool of TOOLS.filter((t) => opts.tools.includes(t) && (corpus.name === 'full' || !FULL_ONLY_TOOLS.includes(t)))) {
        if (done.has(tool)) continue;
        const group = SIDE_BY_SIDE.find((g) => g.includes(tool))?.filter((t) => opts.tools.includes(t)) ?? [tool];
        log(`${corpus.name}: ${group.join(' and ')}`);
        const groupRows = group.length > 1 ? await runSideBySide(group, corpus, context) : [await runTool(tool, corpus, context)];
        for (const row of groupRows) {
          said(row);
          corpusRows.push(row);
          done.add(row.tool);
        }
      }
      // In the tools' order, whichever ran side by side.
      rows.push(...corpusRows.sort((a, b) => TOOLS.indexOf(a.tool) - TOOLS.indexOf(b.tool)));
      // The transcript of this corpus is no longer needed (they are large).
      const written = context.transcripts[corpus.name];
      if (written) rmSync(written.root, { recursive: true, force: true });
    }
    const treeTools = TREE_TOOLS.filter((t) => opts.tools.includes(t));
    let tree;
    if (!only && treeTools.length > 0) {
      tree = treeCorpus(opts, log);
      if (treeTools.includes('ccusage')) context.ccusage = ccusageBin(log);
      for (const row of await runSideBySide(treeTools, tree, context)) {
        said(row);
        rows.push(row);
      }
    }
    addRatios(rows);
    let lat;
    if (!only && opts.latencyEvents > 0 && opts.tools.includes('filter')) {
      log(`latency: ${opts.latencyEvents} events`);
      lat = await latency(opts, work);
      log(`  median ${lat.median_ms} ms, p99 ${lat.p99_ms} ms`);
    }
    const versions = opts.versions.length > 0
      ? await compareVersions(opts, corpora.find((c) => c.name === opts.versionsCorpus) ?? corpusOf(opts.versionsCorpus), context)
      : previous?.versions;
    // --versions-only alone keeps the lengths measured before.
    // The tools named by --tools (all of --lengths-tools with --lengths-only).
    const lengthsTools = opts.lengthsOnly ? opts.lengthsTools : opts.lengthsTools.filter((t) => opts.tools.includes(t));
    const lengths = opts.lengths.length > 0 && lengthsTools.length > 0 && (!only || opts.lengthsOnly)
      ? await measureLengths({ ...opts, lengthsTools }, context) : previous?.lengths;
    let start = previous?.startup;
    if (opts.startupBatches > 0 && (opts.startupOnly || !only)) {
      log(`start-up: ${opts.startupBatches} batches of ${STARTUP_BATCH} runs`);
      start = await startup(opts, work, info.gnu_time);
      log(start.status === 'ok' ? `  ${start.filter_cpu_ms} ms against ${start.node_cpu_ms} ms: ${start.ratio}x` : `  ${start.note}`);
    }
    // The section modules: those named measure (with --only, alone), the others keep their last figures.
    const measuredSections = { ...previous?.sections };
    if (!only || opts.sectionsOnly) {
      for (const section of sections.filter((m) => opts.sections.includes(m.name))) {
        log(`section ${section.name}`);
        const load = [round(loadavg()[0], 1)];
        const data = await section.measure(sectionKit(context, section.name));
        load.push(round(loadavg()[0], 1));
        if (data !== undefined) measuredSections[section.name] = { generated_at: new Date().toISOString(), load_average_1m: load, data };
      }
    }
    const allTargets = (base) => [...base, ...sectionTargets(measuredSections)];
    const report = kept ? {
      ...kept, versions, lengths, startup: start, sections: measuredSections,
      targets: allTargets(targets(kept.rows, kept.latency, lengths, versions, start)),
    } : {
      generated_at: new Date().toISOString(),
      machine: info,
      options: { reps: opts.reps, events: opts.events, single_mb: opts.singleMb, seed: opts.seed, latency_events: opts.latencyEvents },
      corpora: corpora.map(({ file, ...rest }) => ({ ...rest, file: relative(ROOT, file) })),
      ...(tree ? { tree: { name: tree.name, files: tree.files.length, bytes: tree.bytes, events: tree.events, recipe: tree.recipe } } : {}),
      rows,
      latency: lat ?? null,
      targets: allTargets(targets(rows, lat, lengths, versions, start)),
      sections: measuredSections,
      ...(start ? { startup: start } : {}),
      ...(versions ? { versions } : {}),
      ...(lengths ? { lengths } : {}),
    };
    mkdirSync(opts.outDir, { recursive: true });
    writeFileSync(join(opts.outDir, 'performance.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(opts.outDir, 'performance.md'), markdown(report));
    log(`wrote ${join(opts.outDir, 'performance.md')} and performance.json`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
