// Regenerates fixtures/claude-code-cli/ on purpose: runs the real `claude -p` (pinned in test/clients/) against the
// loopback Messages mock for each scenario of test/support/claude-capture.ts (Bash, parallel calls, a
// subagent, a Monitor, spilled output, images, a compaction), keeps the session's files sanitised and
// trimmed, and writes the golden outputs of `asyncai-log read` beside them. The stream-json stdout of the
// same runs goes to fixtures/claude-stream-json/reader-<scenario>.jsonl.
//   node scripts/capture-claude-fixtures.mjs [scenario...]      capture again and write goldens
//   node scripts/capture-claude-fixtures.mjs --goldens [scenario...]   only rewrite the goldens of the fixtures
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const load = async (relative) => (await runnerImport(join(ROOT, relative))).module;
const capture = await load('test/support/claude-capture.ts');
const reader = await load('lib/agents/claude-code-cli/reader/index.ts');

const ndjson = (values) => values.map((v) => `${JSON.stringify(v)}\n`).join('');

async function collect(iterable) {
  const out = [];
  for await (const value of iterable) out.push(value);
  return out;
}

/** The golden outputs of `read` for one fixture directory; throws on any warning (fixtures read cleanly). */
async function writeGoldens(dir, sessionId) {
  const file = join(dir, `${sessionId}.jsonl`);
  const warnings = [];
  const options = { onWarning: (w) => warnings.push(`${w.line ?? ''}: ${w.message}`) };
  const main = reader.readClaudeTranscript(file, options);
  writeFileSync(join(dir, 'expected.ndjson'), ndjson(await collect(main)));
  writeFileSync(join(dir, 'expected-events.ndjson'), ndjson(await collect(reader.readClaudeTranscript(file, { ...options, includeEvents: true }))));
  const subagents = await main.subagents();
  const usage = { session_id: sessionId, ...(await main.usage()), subagents: [] };
  for (const sub of subagents) usage.subagents.push({ agent_id: sub.agentId, ...(await sub.usage()) });
  writeFileSync(join(dir, 'expected-usage.json'), `${JSON.stringify(usage, null, 2)}\n`);
  const tree = await main.tree();
  writeFileSync(join(dir, 'expected-tree.ndjson'), ndjson(tree.branches.map((b) => ({ session_id: sessionId, ...b }))));
  if (subagents.length > 0) {
    const events = [...await collect(main)];
    for (const sub of subagents) events.push(...await collect(sub));
    writeFileSync(join(dir, 'expected-subagents.ndjson'), ndjson(events));
  }
  if (warnings.length > 0) throw new Error(`reading ${file} warned:\n${warnings.join('\n')}`);
}

const goldensOnly = process.argv.includes('--goldens');
const wanted = process.argv.slice(2).filter((a) => a !== '--goldens');
if (goldensOnly) {
  for (const scenario of capture.SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    const dir = join(ROOT, 'fixtures', 'claude-code-cli', scenario.name);
    await writeGoldens(dir, scenario.sessionId);
    process.stdout.write(`${scenario.name}: goldens -> ${dir}\n`);
  }
  process.exit(0);
}
for (const scenario of capture.SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
  const run = await capture.captureScenario(scenario);
  try {
    const dir = join(ROOT, 'fixtures', 'claude-code-cli', scenario.name);
    rmSync(dir, { recursive: true, force: true });
    for (const { path, text } of capture.sanitizedSessionFiles(run)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const streams = capture.sanitizedStreams(run);
    const streamDir = join(ROOT, 'fixtures', 'claude-stream-json');
    mkdirSync(streamDir, { recursive: true });
    streams.forEach((text, i) => {
      writeFileSync(join(streamDir, `reader-${scenario.name}${streams.length > 1 ? `-${i + 1}` : ''}.jsonl`), text);
    });
    await writeGoldens(dir, scenario.sessionId);
    process.stdout.write(`${scenario.name}: ${capture.sessionFiles(run).length} file(s) -> ${dir}\n`);
  } finally {
    rmSync(dirname(run.configDir), { recursive: true, force: true });
  }
}
