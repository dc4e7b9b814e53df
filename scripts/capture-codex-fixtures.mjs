// Regenerates fixtures/codex-exec-json/ and fixtures/codex-rollout/ on purpose: runs the real Codex CLI
// (pinned in test/clients/) against the loopback Responses mock, keeps its `exec --json` output and its rollout files,
// sanitizes and trims them, and rewrites the golden event files from the built adapters.
//   npx tsc -p tsconfig.json && node scripts/capture-codex-fixtures.mjs            capture + goldens
//   node scripts/capture-codex-fixtures.mjs --goldens                               goldens only
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, importTs, sanitize, writeGolden } from './input-fixture-tools.mjs';

const EXEC_DIR = join(ROOT, 'fixtures', 'codex-exec-json');
const ROLLOUT_DIR = join(ROOT, 'fixtures', 'codex-rollout');

/** A tiny MCP stdio server ("demo", one tool "echo"; the text "fail" makes it answer with isError). */
const MCP_SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'demo', version: '1.0.0' } } });
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'echo', description: 'Echo text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] } });
  else if (msg.method === 'tools/call') {
    const text = msg.params.arguments?.text ?? '';
    send({ jsonrpc: '2.0', id: msg.id, result: text === 'fail' ? { content: [{ type: 'text', text: 'echo refused: fail' }], isError: true } : { content: [{ type: 'text', text: 'echo: ' + text }] } });
  } else send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no such method' } });
});
`;

const call = (call_id, cmd) => ({ type: 'function_call', call_id, name: 'exec_command', arguments: { cmd } });
const say = (text) => ({ type: 'message', text });
const raw = (item) => ({ type: 'raw', item });

/**
 * Each scenario is one Codex thread: its runs (the first `codex exec`, then `codex exec resume`s), what
 * each run's --json output is saved as, and the name of the thread's rollout file (if kept).
 */
const SCENARIOS = [
  { rollout: null, runs: [{ save: 'text', prompt: 'Say hi.', replies: [[say('Hi! What shall we work on?')]] }] },
  {
    rollout: null,
    runs: [{ save: 'tool', prompt: 'Run echo hi.', replies: [[call('call_echo', 'echo hi')], [say('It printed hi.')]] }],
  },
  {
    rollout: 'parallel',
    runs: [{
      save: 'parallel',
      prompt: 'Run two commands at once.',
      replies: [
        [say('Running both.'), call('call_one', 'echo one'), call('call_two', 'echo two; exit 3')],
        [say('one printed one; two failed with exit code 3.')],
      ],
    }],
  },
  {
    rollout: 'actions',
    mcp: true,
    runs: [{
      save: 'actions',
      prompt: 'Plan, patch a file, search the web and ask the demo server.',
      replies: [
        [raw({ type: 'reasoning', id: 'rs_fixture_1', summary: [{ type: 'summary_text', text: '**Planning** Patch, search, then ask demo.' }], content: null, encrypted_content: 'gAAAAB-fixture' }),
          { type: 'function_call', call_id: 'call_plan', name: 'update_plan', arguments: { plan: [{ step: 'Patch notes.txt', status: 'in_progress' }, { step: 'Search', status: 'pending' }] } }],
        [raw({ type: 'custom_tool_call', id: 'ctc_fixture_1', status: 'completed', call_id: 'call_patch_tool', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: draft.txt\n+draft\n*** End Patch\n' })],
        [call('call_patch', "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.txt\n+hello notes\n*** End Patch\nEOF")],
        [raw({ type: 'web_search_call', id: 'ws_fixture_1', status: 'completed', action: { type: 'search', query: 'node stream backpressure' } }),
          raw({ type: 'function_call', id: 'fc_fixture_mcp1', status: 'completed', call_id: 'call_mcp_ok', namespace: 'mcp__demo', name: 'echo', arguments: '{"text":"hello"}' })],
        [raw({ type: 'function_call', id: 'fc_fixture_mcp2', status: 'completed', call_id: 'call_mcp_fail', namespace: 'mcp__demo', name: 'echo', arguments: '{"text":"fail"}' })],
        [say('Patched notes.txt, searched, and the demo server echoed hello.')],
      ],
    }],
  },
  {
    rollout: 'resumed',
    runs: [
      { save: 'resumed-run1', prompt: 'Create a.txt holding x.', replies: [[call('call_create', "printf x > a.txt && ls")], [say('Created a.txt.')]] },
      { save: 'resumed-run2', prompt: 'Show it.', replies: [[call('call_show', 'cat a.txt')], [say('a.txt holds x.')]] },
      { save: 'resumed-run3-failed', prompt: 'Once more, with everything.', replies: [[{ type: 'fail', code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' }]] },
    ],
  },
];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

async function capture() {
  const { startMockOpenAI, writeCodexConfig } = await importTs('test/support/mock-openai.ts');
  const { runCodex } = await importTs('test/support/run.ts');
  mkdirSync(EXEC_DIR, { recursive: true });
  mkdirSync(ROLLOUT_DIR, { recursive: true });
  for (const scenario of SCENARIOS) {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'asyncai-codex-capture-')));
    const home = join(base, 'codex-home');
    const cwd = join(base, 'project');
    mkdirSync(cwd, { recursive: true });
    const mock = await startMockOpenAI();
    writeCodexConfig(home, mock.url);
    const server = join(base, 'mcp-demo.mjs');
    if (scenario.mcp) {
      writeFileSync(server, MCP_SERVER);
      appendFileSync(join(home, 'config.toml'), `[mcp_servers.demo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(server)}]\n`);
    }
    const replacements = [[cwd, '/home/user/project'], [home, '/home/user/.codex'], [server, '/home/user/mcp-demo.mjs'], [process.execPath, '/usr/bin/node'], [base, '/home/user']];
    let thread;
    try {
      for (const run of scenario.runs) {
        mock.script(...run.replies);
        const args = ['--dangerously-bypass-approvals-and-sandbox', ...(thread ? ['resume', thread] : []), run.prompt];
        const result = await runCodex({ codexHome: home, cwd, args });
        thread ??= JSON.parse(result.stdout.split('\n')[0]).thread_id;
        writeFileSync(join(EXEC_DIR, `${run.save}.jsonl`), sanitize(result.stdout, replacements));
        console.log(`codex-exec-json/${run.save}.jsonl (codex exit ${result.code})`);
      }
      if (scenario.rollout) {
        const [file] = files(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
        writeFileSync(join(ROLLOUT_DIR, `${scenario.rollout}.jsonl`), sanitize(readFileSync(file, 'utf8'), replacements));
        console.log(`codex-rollout/${scenario.rollout}.jsonl`);
      }
    } finally {
      await mock.close();
    }
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const [format, dir] of [['codex-exec-json', EXEC_DIR], ['codex-rollout', ROLLOUT_DIR]]) {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) await writeGolden(format, join(dir, name));
}
console.log('goldens written; review them with git diff before committing');
