// Regenerates fixtures/copilot-cli/ on purpose: runs the real GitHub Copilot CLI (pinned in test/clients/)
// offline against the loopback chat-completions mock, keeps the events file it writes (one session with
// reasoning, two tool calls of which one fails, and an attached image; the same file after a resume),
// sanitized and trimmed, and what `copilot -p --output-format json` prints for such a run; then rewrites the
// golden event files from the built `copilot-events` adapter.
//   node scripts/build.mjs && node scripts/capture-copilot-fixtures.mjs        capture + goldens
//   node scripts/capture-copilot-fixtures.mjs --goldens                         goldens only
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureDirs, importTs, installClients, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'copilot-cli');
const PROMPT = 'Read missing.txt and notes.txt, and look at the image';

/** Events that say nothing about the conversation and are large: the run's skills, tool lists and progress. */
const NOISE = new Set(['session.skills_loaded', 'session.background_tasks_changed', 'session.tools_updated', 'session.mcp_servers_loaded']);

function trim(text) {
  return text.split('\n').filter((l) => l.trim() !== '' && !NOISE.has(JSON.parse(l).type)).map((l) => `${l}\n`).join('');
}

function script(mock, cwd) {
  mock.script(
    [
      { reasoning: 'I will read the missing file and the notes.' },
      { text: 'Reading both files.' },
      // The quick call first: the CLI runs them side by side and records the results as they finish, and every
      // target sends results in their calls' order.
      { tool: { id: 'call_missing', name: 'view', arguments: { path: join(cwd, 'missing.txt') } } },
      { tool: { id: 'call_notes', name: 'bash', arguments: { command: 'cat notes.txt', description: 'Read the notes' } } },
    ],
    [{ text: 'The notes say hi; missing.txt does not exist; the image is one pixel.' }],
  );
}

async function capture() {
  await installClients();
  const { CLIENTS_DIR } = await import(join(ROOT, 'test', 'clients', 'clients.mjs'));
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { runCopilot, copilotRoot } = await importTs('test/support/copilot-cli.ts');
  const { home, cwd } = captureDirs('copilot');
  const root = copilotRoot(home);
  const mock = await startMockChat();
  const baseUrl = `${mock.url}/v1`;
  const replacements = [[cwd, '/home/user/project'], [root, '/home/user/.copilot'], [home, '/home/user'], [join(CLIENTS_DIR, 'copilot-pkg'), '/home/user/.cache/copilot']];
  try {
    script(mock, cwd);
    const first = await runCopilot({ home, cwd, baseUrl, args: ['-p', PROMPT, '--attachment', 'pixel.png'] });
    if (first.code !== 0) throw new Error(`copilot failed: ${first.stderr}`);
    const state = join(root, 'session-state');
    const [session] = readdirSync(state).filter((n) => /^[0-9a-f-]{36}$/.test(n));
    const file = join(state, session, 'events.jsonl');
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'session.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    mock.script([{ text: 'Nothing else to do.' }]);
    const resumed = await runCopilot({ home, cwd, baseUrl, args: [`--resume=${session}`, '-p', 'Anything else?'] });
    if (resumed.code !== 0) throw new Error(`copilot --resume failed: ${resumed.stderr}`);
    writeFileSync(join(DIR, 'resumed.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    script(mock, cwd);
    const live = await runCopilot({ home, cwd, baseUrl, args: ['-p', PROMPT, '--attachment', 'pixel.png', '--output-format', 'json'] });
    if (live.code !== 0) throw new Error(`copilot --output-format json failed: ${live.stderr}`);
    writeFileSync(join(DIR, 'json-run.jsonl'), trim(sanitize(live.stdout.trimEnd(), replacements)));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const name of ['session', 'resumed', 'json-run']) await writeGolden('copilot-events', join(DIR, `${name}.jsonl`));
