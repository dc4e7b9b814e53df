// Usage over a Codex tree: `asyncai-log read --usage` (no argument, CODEX_HOME at the tree) against the pinned
// ccusage's `codex session --json --offline` on a deterministic tree of Codex rollouts (`<tree>/sessions/YYYY/MM/
// DD/rollout-<time>-<uuid>.jsonl`), each written as Codex 0.171 writes one (see rollout below): session_meta,
// a turn_context per turn, response_item lines (user message, reasoning, function calls and their output,
// assistant message) with their events, and an event_msg token_count after each response with running totals
// (cached input, reasoning), the odd count repeated. Medians of whole-process runs, the two tools taking turns; the totals of both compared. A section
// module of bench/run.mjs (bench/sections.md): `npm run bench` measures it; alone, `node bench/run.mjs --only
// usage_codex`, or `node bench/usage-codex.mjs [--files N] [--turns T] [--reps R] [--seed S] [--cache-dir DIR]`
// to print its table without writing anything.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRandom } from './generate.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Bumped whenever the output for the same options changes: cached trees are regenerated. */
const TREE_VERSION = 2;
const WORDS = ['the', 'file', 'function', 'return', 'value', 'test', 'error', 'build', 'module', 'import', 'Größe', '日本語', '🙂'];
const MODELS = ['gpt-5-codex', 'gpt-5', 'gpt-5-mini'];

const hex = (random, n) => {
  let out = '';
  for (let i = 0; i < n; i += 1) out += Math.floor(random.next() * 16).toString(16);
  return out;
};
const words = (random, n) => Array.from({ length: n }, () => random.pick(WORDS)).join(' ');

const uuid7 = (random) => `${hex(random, 8)}-${hex(random, 4)}-7${hex(random, 3)}-8${hex(random, 3)}-${hex(random, 12)}`;
const RATE_LIMITS = {
  limit_id: 'codex', limit_name: null, primary: null, secondary: null, credits: null, individual_limit: null,
  spend_control_reached: null, plan_type: null, rate_limit_reached_type: null,
};

/**
 * One rollout's lines and its totals (what ccusage and read --usage should both count), in the shape Codex
 * 0.171.0 writes its own rollouts (fixtures/codex-rollout/resumed.jsonl): an `ordinal` on every line, a
 * task_started, turn_context (its model at the top and again in collaboration_mode) and thread_settings_applied
 * per turn, an item_completed beside each item and a token_usage_record beside each count.
 */
function rollout(random, id, start, turns) {
  const lines = [];
  let ms = start;
  let ordinal = 0;
  const at = () => new Date((ms += random.int(5, 4000))).toISOString();
  const line = (type, payload) => lines.push(JSON.stringify({ timestamp: at(), ordinal: ordinal++, type, payload }));
  line('session_meta', {
    account_scoped: true, session_id: id, id, timestamp: new Date(start).toISOString(), cwd: '/home/user/project',
    runtime_workspace_roots: ['/home/user/project'], originator: 'codex_exec', cli_version: '0.171.0', source: 'exec', model_provider: 'openai',
  });
  const total = { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  for (let turn = 0; turn < turns; turn += 1) {
    const turnId = uuid7(random);
    const model = random.pick(MODELS);
    const item = (payload) => line('event_msg', { type: 'item_completed', thread_id: id, turn_id: turnId, item: payload, started_at_ms: ms, completed_at_ms: ms });
    const passthrough = { turn_id: turnId, create_time: Math.floor(ms / 1000) };
    line('event_msg', {
      type: 'task_started', turn_attribution: { turn_id: turnId, turn_trigger: 'exec', parent_turn_id: null, initiating_agent_path: null, root_turn_id: turnId },
      turn_id: turnId, root_turn_id: turnId, started_at: Math.floor(ms / 1000), model_context_window: 258400, collaboration_mode_kind: 'default',
    });
    line('turn_context', {
      turn_id: turnId, root_turn_id: turnId, disabled_plugin_ids: [], cwd: '/home/user/project', approval_policy: 'never', approvals_reviewer: 'user',
      permission_profile: { type: 'disabled' }, model, collaboration_mode: { mode: 'default', settings: { model, reasoning_effort: null, developer_instructions: null } },
      multi_agent_version: 'v1', realtime_active: false, summary: 'none', sandbox_policy: { type: 'danger-full-access' },
    });
    line('event_msg', {
      type: 'thread_settings_applied', thread_id: id, thread_settings: {
        model, model_provider_id: 'openai', approval_policy: 'never', approvals_reviewer: 'user', requested_approvals_reviewer: 'user',
        permission_profile: { type: 'disabled' }, cwd: '/home/user/project', runtime_workspace_roots: ['/home/user/project'],
        collaboration_mode: { mode: 'default', settings: { model, reasoning_effort: null, developer_instructions: null } }, disabled_plugin_ids: [],
      },
    });
    const prompt = words(random, random.int(5, 60));
    line('response_item', { type: 'message', id: `msg_${uuid7(random)}`, role: 'user', content: [{ type: 'input_text', text: prompt }], internal_chat_message_metadata_passthrough: passthrough });
    item({ type: 'UserMessage', id: uuid7(random), content: [{ type: 'text', text: prompt, text_elements: [] }] });
    for (let response = 0; response < random.int(1, 3); response += 1) {
      line('response_item', { type: 'reasoning', id: `rs_${hex(random, 16)}`, summary: [{ type: 'summary_text', text: words(random, random.int(5, 40)) }], encrypted_content: hex(random, 64) });
      const call = `call_${hex(random, 16)}`;
      const cmd = `ls ${words(random, 2)}`;
      line('response_item', { type: 'function_call', status: 'completed', id: `fc_${hex(random, 16)}`, name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: call, internal_chat_message_metadata_passthrough: passthrough });
      const output = words(random, random.int(20, 400));
      item({
        type: 'CommandExecution', id: call, process_id: String(random.int(1000, 99999)), command: ['/bin/bash', '-lc', cmd], cwd: 'file:///home/user/project',
        parsed_cmd: [{ type: 'unknown', cmd }], source: 'unified_exec_startup', status: 'completed', aggregated_output: output, exit_code: 0, duration: { secs: 0, nanos: random.int(1000, 99999) },
      });
      line('response_item', { type: 'function_call_output', id: `fco_${uuid7(random)}`, call_id: call, output, internal_chat_message_metadata_passthrough: passthrough });
      const text = words(random, random.int(10, 120));
      const message = `msg_${hex(random, 16)}`;
      item({ type: 'AgentMessage', id: message, content: [{ type: 'Text', text }] });
      line('response_item', { type: 'message', status: 'completed', id: message, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }], internal_chat_message_metadata_passthrough: passthrough });
      const input = random.int(2000, 40000);
      const last = {
        input_tokens: input, cached_input_tokens: random.int(0, input), cache_write_input_tokens: 0,
        output_tokens: random.int(50, 3000), reasoning_output_tokens: 0, total_tokens: 0,
      };
      last.reasoning_output_tokens = random.int(0, last.output_tokens);
      last.total_tokens = last.input_tokens + last.output_tokens;
      for (const key of Object.keys(total)) total[key] += last[key];
      line('token_usage_record', { thread_id: id, turn_id: turnId, session_id: id, root_turn_id: turnId, response_id: `resp_${hex(random, 16)}`, usage: last, turn_token_usage: last, thread_token_usage: { ...total } });
      const count = () => line('event_msg', { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last, last_usage_includes_reasoning: false, model_context_window: 258400 }, rate_limits: RATE_LIMITS });
      count();
      if (random.chance(0.2)) count(); // Codex repeats a count now and then: the same running total.
    }
    line('event_msg', { type: 'task_complete', root_turn_id: turnId, turn_id: turnId, last_agent_message: 'done', started_at: Math.floor(ms / 1000), completed_at: Math.floor(ms / 1000), duration_ms: random.int(100, 90000), time_to_first_token_ms: random.int(20, 2000) });
  }
  return { text: `${lines.join('\n')}\n`, total };
}

/** The tree of `files` rollouts of `turns` turns under .cache/bench (reused when it is there). */
export function codexTree({ files, turns, seed, cacheDir = join(ROOT, '.cache', 'bench') }) {
  const dir = join(cacheDir, `codex-usage-v${TREE_VERSION}-${files}x${turns}-${seed}`);
  const done = join(dir, 'tree.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const random = createRandom(seed);
  let bytes = 0;
  let start = Date.UTC(2026, 10, 20, 9);
  for (let i = 0; i < files; i += 1) {
    start += random.int(1, 30) * 3600_000;
    const date = new Date(start);
    const day = join(dir, 'sessions', String(date.getUTCFullYear()), String(date.getUTCMonth() + 1).padStart(2, '0'), String(date.getUTCDate()).padStart(2, '0'));
    mkdirSync(day, { recursive: true });
    const id = uuid7(random);
    const { text } = rollout(random, id, start, turns);
    writeFileSync(join(day, `rollout-${date.toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  const tree = { dir, files, turns, seed, bytes, recipe: `node bench/usage-codex.mjs --files ${files} --turns ${turns} --seed ${seed}` };
  writeFileSync(done, JSON.stringify(tree));
  return tree;
}

/** Wall seconds of one run, and its stdout. */
function timed(command, args, env) {
  const began = process.hrtime.bigint();
  const r = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wall = Number(process.hrtime.bigint() - began) / 1e9;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { wall, stdout: r.stdout };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Run both tools `reps` times over the tree: the figures docs/performance.json keeps under `usage_codex`. */
export function measureUsageCodex({ files = 20, turns = 200, reps = 3, seed = 7, cacheDir = undefined } = {}) {
  const tree = codexTree({ files, turns, seed, ...(cacheDir !== undefined ? { cacheDir } : {}) });
  const home = mkdtempSync(join(tmpdir(), 'asyncai-log-bench-home-'));
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: tree.dir, TZ: 'UTC', LANG: 'C.UTF-8' };
    const ccusage = resolve(ROOT, '.cache', 'test-clients', 'node_modules', 'ccusage', 'src', 'cli.js');
    const bin = resolve(ROOT, 'dist', 'bin', 'asyncai-log.js');
    const runs = { ccusage: [], 'read-usage': [] };
    let theirs;
    let ours;
    for (let rep = 0; rep < reps; rep += 1) {
      const a = timed(process.execPath, [ccusage, 'codex', 'session', '--json', '--offline'], env);
      const b = timed(process.execPath, [bin, 'read', '--usage', '--by', 'session'], env);
      runs.ccusage.push(a.wall);
      runs['read-usage'].push(b.wall);
      theirs = JSON.parse(a.stdout).totals;
      ours = JSON.parse(b.stdout.trim().split('\n').at(-1));
    }
    const t = (x) => [x.inputTokens, x.outputTokens, x.cacheReadTokens, x.reasoningOutputTokens, x.totalTokens];
    const o = (x) => [x.input_tokens, x.output_tokens, x.cache_read_tokens, x.reasoning_tokens, x.total_tokens];
    const wall = { ccusage: median(runs.ccusage), read_usage: median(runs['read-usage']) };
    return {
      tree: { files: tree.files, turns: tree.turns, bytes: tree.bytes, recipe: tree.recipe },
      commands: { ccusage: 'CODEX_HOME=<tree> ccusage codex session --json --offline', read_usage: 'CODEX_HOME=<tree> asyncai-log read --usage --by session' },
      reps, wall_s: wall, speed_vs_ccusage: wall.ccusage / wall.read_usage,
      same_totals: JSON.stringify(t(theirs)) === JSON.stringify(o(ours)), totals: { ccusage: t(theirs), read_usage: o(ours) },
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** docs/performance.md's part for `usage_codex` (bench/performance.template.md). */
export function usageCodexMarkdown(u) {
  const f = (n, d = 2) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  return [
    `${u.tree.files} rollouts of ${u.tree.turns} turns, ${f(u.tree.bytes / 1e6, 1)} MB (\`${u.tree.recipe}\`), median of ${u.reps} runs.`, '',
    '| tool | command | wall s | totals (input, output, cache read, reasoning, total) |', '|---|---|---:|---|',
    `| ccusage | \`${u.commands.ccusage}\` | ${f(u.wall_s.ccusage)} | ${u.totals.ccusage.join(', ')} |`,
    `| read-usage | \`${u.commands.read_usage}\` | ${f(u.wall_s.read_usage)} | ${u.totals.read_usage.join(', ')} |`, '',
    `read --usage is ${f(u.speed_vs_ccusage)}x ccusage's speed; the totals are ${u.same_totals ? 'the same' : 'NOT the same'}.`,
  ].join('\n');
}

const positive = (values, name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} wants a whole number of 1 or more, got ${JSON.stringify(values[name])}`);
  return n;
};

export default {
  name: 'usage_codex',
  usage: `  --usage-codex-files N, --usage-codex-turns T: the Codex tree (default 200 rollouts of 150 turns, about
                      540 MB); --usage-codex-reps N: runs each (default 3)`,
  options: {
    'usage-codex-files': { type: 'string', default: '200' },
    'usage-codex-turns': { type: 'string', default: '150' },
    'usage-codex-reps': { type: 'string', default: '3' },
  },
  quick: { 'usage-codex-files': '4', 'usage-codex-turns': '20', 'usage-codex-reps': '1' },

  async measure(kit) {
    const v = kit.opts.values;
    const files = positive(v, 'usage-codex-files');
    const turns = positive(v, 'usage-codex-turns');
    kit.log(`codex tree: node bench/usage-codex.mjs --files ${files} --turns ${turns} --seed ${kit.opts.seed}`);
    return measureUsageCodex({ files, turns, reps: positive(v, 'usage-codex-reps'), seed: kit.opts.seed, cacheDir: kit.opts.treeDir });
  },
  render: (data) => usageCodexMarkdown(data),
  targets: (data, kit) => [
    { target: 'read --usage --by session over the Codex tree at least as fast as ccusage codex session (side by side)', value: kit.round(data.speed_vs_ccusage), pass: data.speed_vs_ccusage >= 1 },
    { target: 'read --usage over the Codex tree totals what ccusage codex session totals', value: data.same_totals ? 1 : 0, pass: data.same_totals },
  ],
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: {
    files: { type: 'string', default: '200' }, turns: { type: 'string', default: '150' }, reps: { type: 'string', default: '3' },
    seed: { type: 'string', default: '7' }, 'cache-dir': { type: 'string' },
  } });
  if (!existsSync(join(ROOT, 'dist', 'bin', 'asyncai-log.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const result = measureUsageCodex({
    files: Number(values.files), turns: Number(values.turns), reps: Number(values.reps), seed: Number(values.seed),
    ...(values['cache-dir'] !== undefined ? { cacheDir: resolve(values['cache-dir']) } : {}),
  });
  process.stdout.write(`${usageCodexMarkdown(result)}\n`);
  if (!result.same_totals) process.exitCode = 1;
}
