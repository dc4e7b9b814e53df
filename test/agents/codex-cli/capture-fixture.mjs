// Regenerates fixtures/codex-cli/resumed-by-codex.jsonl on purpose: the built bin writes a Codex session,
// the real `codex exec resume` (pinned in test/clients/, against the loopback Responses mock) runs a tool in it and
// appends its own turn, and the file as Codex left it is kept, sanitised and trimmed.
//   npx tsc -p tsconfig.json && node test/agents/codex-cli/capture-fixture.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, importTs, sanitize } from '../../../scripts/input-fixture-tools.mjs';
import { clientBin, installTestClients } from '../../clients/clients.mjs';

installTestClients();
const { startMockOpenAI, writeCodexConfig } = await importTs('test/support/mock-openai.ts');

function run(command, args, { cwd, env, input = '' }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const home = realpathSync(mkdtempSync(join(tmpdir(), 'capture-codex-home-')));
const project = realpathSync(mkdtempSync(join(tmpdir(), 'capture-codex-project-')));
const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TZ: 'UTC' };
const mock = await startMockOpenAI();
try {
  writeCodexConfig(join(home, '.codex'), mock.url);
  const events = [
    { type: 'user', text: 'What is in this project?', timestamp: '2026-11-29T10:00:00.000Z' },
    { type: 'tool_call', id: 'call_ls', name: 'exec_command', arguments: { cmd: 'ls' }, timestamp: '2026-11-29T10:00:01.000Z' },
    { type: 'tool_result', id: 'call_ls', content: 'README.md', timestamp: '2026-11-29T10:00:02.000Z' },
    { type: 'assistant', text: 'It holds README.md.', usage: { input_tokens: 50, output_tokens: 5 }, timestamp: '2026-11-29T10:00:03.000Z' },
  ];
  const written = await run(process.execPath, [join(ROOT, 'dist', 'bin', 'asyncai-log.js'), '--session-format', 'codex-cli', '--cwd', project], {
    cwd: project, env, input: events.map((e) => `${JSON.stringify(e)}\n`).join(''),
  });
  if (written.code !== 0) throw new Error(`the bin failed: ${written.stderr}`);
  const session = JSON.parse(written.stdout.split('\n')[0]).result;
  mock.script(
    [{ type: 'function_call', call_id: 'call_echo', name: 'exec_command', arguments: { cmd: 'echo resumed' } }],
    [{ type: 'message', text: 'resumed-ok' }],
  );
  const resumed = await run(clientBin('codex'), ['exec', '--json', '--skip-git-repo-check', 'resume', session.session_id, 'Run echo resumed.'], {
    cwd: project, env: { ...env, CODEX_HOME: join(home, '.codex'), MOCK_API_KEY: 'sk-test' },
  });
  if (resumed.code !== 0) throw new Error(`codex failed: ${resumed.stderr}`);
  const text = sanitize(readFileSync(session.session_file, 'utf8'), [
    [project, '/home/user/project'],
    [join(home, '.codex'), '/home/user/.codex'],
    [home, '/home/user'],
  ]);
  const out = join(ROOT, 'fixtures', 'codex-cli', 'resumed-by-codex.jsonl');
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await mock.close();
}
