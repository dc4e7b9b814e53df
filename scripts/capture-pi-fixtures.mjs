// Regenerates fixtures/pi/ on purpose: runs the real pi (pinned in test/clients/) in an isolated home against the
// loopback chat-completions mock, with its reasoning model (`mock-think`, `--thinking high`), an image attached
// (`@pixel.png`), a tool call that succeeds (`bash ls`) and one that fails (`read` of a missing file), then resumes
// the session once (`--session <file>`). The session file is sanitized (no machine path) and kept as
// session.jsonl, the model requests the mock received beside it (session.requests.json, their messages only). Then
// a `pi --mode json -p` run (reasoning, text, a bash call, a failing read) is kept as json-run.jsonl, its streaming deltas left out.
// The golden events of both are rewritten from the built `pi-session` adapter.
//   npx tsc -p tsconfig.json && node scripts/capture-pi-fixtures.mjs           capture + goldens
//   node scripts/capture-pi-fixtures.mjs --goldens                              goldens only
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTs, installClients, listAndReadTurns, makeProject, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'pi');

async function capture() {
  await installClients();
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { piHome, runPi } = await importTs('test/support/pi.ts');
  const mock = await startMockChat();
  try {
    const home = piHome(mock.url);
    const top = realpathSync(join(home.agentDir, '..'));
    const project = makeProject(top);
    mock.script(
      ...listAndReadTurns({ command: 'ls' }, { path: 'missing.txt' }),
      [{ reasoning: 'Nothing more to run.' }, { text: 'Nothing else is here.' }],
    );
    const model = ['--provider', 'mock', '--model', 'mock-think', '--thinking', 'high'];
    const first = await runPi(home, project, [...model, '-p', '@pixel.png', 'What is here? Run ls and read missing.txt.']);
    if (first.code !== 0) throw new Error(`pi -p failed: ${first.stderr}`);
    const [folder] = readdirSync(join(home.agentDir, 'sessions'));
    const [name] = readdirSync(join(home.agentDir, 'sessions', folder));
    const file = join(home.agentDir, 'sessions', folder, name);
    const resumed = await runPi(home, project, [...model, '--session', file, '-p', 'Anything else?']);
    if (resumed.code !== 0) throw new Error(`pi --session failed: ${resumed.stderr}`);
    const replacements = [[project, '/home/user/project'], [top, '/home/user'], [home.agentDir, '/home/user/.pi/agent']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'session.jsonl'), sanitize(readFileSync(file, 'utf8'), replacements));
    mock.script(
      [
        { reasoning: 'A listing answers it.' }, { text: 'Listing.' },
        { tool: { id: 'call_ls', name: 'bash', arguments: { command: 'ls' } } },
        { tool: { id: 'call_read', name: 'read', arguments: { path: 'missing.txt' } } },
      ],
      [{ text: 'There are notes.txt and pixel.png; missing.txt does not exist.' }],
    );
    const json = await runPi(home, project, [...model, '--mode', 'json', '-p', 'What files are here?']);
    if (json.code !== 0) throw new Error(`pi --mode json failed: ${json.stderr}`);
    const kept = json.stdout.split('\n').filter((line) => line.trim() !== '' && !/^\{"type":"message_update","assistantMessageEvent":\{"type":"[a-z]+_delta"/.test(line));
    writeFileSync(join(DIR, 'json-run.jsonl'), `${sanitize(kept.join('\n'), replacements)}\n`);
    const requests = mock.requests.slice(0, 3).map((body) => ({ messages: body.messages.filter((m) => m.role !== 'system') }));
    writeFileSync(join(DIR, 'session.requests.json'), `${sanitize(JSON.stringify(requests), replacements)}\n`);
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const name of ['session', 'json-run']) await writeGolden('pi-session', join(DIR, `${name}.jsonl`));
