// Profiles the filter on a corpus and prints where the time goes (self time per function, top N), from
// V8's `--cpu-prof`. `node bench/profile.mjs [--events 100000] [--top 25]` (generates the corpus if needed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCorpus } from './generate.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Self time per function (ms), summed over a `.cpuprofile`, biggest first. */
export function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const ms = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i]);
    const frame = node.callFrame;
    const file = frame.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/').replace(/^node:/, '');
    const key = `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
    ms.set(key, (ms.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...ms.entries()].sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { events: { type: 'string', default: '100000' }, top: { type: 'string', default: '25' }, seed: { type: 'string', default: '1' } },
  });
  const corpus = join(ROOT, 'bench', 'out', `events-${values.events}.ndjson`);
  generateCorpus(corpus, { events: Number(values.events), seed: Number(values.seed) });
  const work = mkdtempSync(join(tmpdir(), 'asyncai-log-profile-'));
  try {
    const run = spawnSync(process.execPath, [
      '--cpu-prof', `--cpu-prof-dir=${work}/prof`, process.env.BENCH_BIN ?? join(ROOT, 'dist', 'bin', 'asyncai-log.js'),
      '--session-dir', `claude-code-cli=${work}/sessions`, '--cwd', '/bench',
    ], { stdio: [openSync(corpus, 'r'), 'ignore', 'inherit'] });
    if (run.status !== 0) throw new Error(`the filter exited ${run.status}`);
    const file = readdirSync(`${work}/prof`)[0];
    const profile = JSON.parse(readFileSync(join(work, 'prof', file), 'utf8'));
    const times = selfTimes(profile);
    const total = times.reduce((sum, [, t]) => sum + t, 0);
    process.stdout.write(`total ${total.toFixed(0)} ms sampled\n`);
    for (const [name, t] of times.slice(0, Number(values.top))) {
      process.stdout.write(`${t.toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
