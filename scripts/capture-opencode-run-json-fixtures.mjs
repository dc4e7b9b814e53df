// Regenerates fixtures/opencode-run-json/ on purpose: runs the real OpenCode (pinned in test/clients/) with
// `opencode run --format json` in an isolated home against the loopback chat-completions mock, keeps what it
// prints, sanitized, and rewrites the golden events from the built `opencode-run-json` adapter. Two runs:
// `run` (text, a tool call that succeeds and one that fails, an attached image) and `thinking` (the same with
// `--thinking`, so the reasoning step is printed too).
//   npx tsc -p tsconfig.json && node scripts/capture-opencode-run-json-fixtures.mjs      capture + goldens
//   node scripts/capture-opencode-run-json-fixtures.mjs --goldens                         goldens only
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTs, installClients, listAndReadTurns, makeProject, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'opencode-run-json');

async function capture(name, flags) {
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { OPENCODE_VISION_MODEL, opencodeHome, runOpencode } = await importTs('test/support/opencode.ts');
  const mock = await startMockChat();
  try {
    const home = opencodeHome(mock.url);
    const project = makeProject(home.home);
    mock.script(
      ...listAndReadTurns({ command: 'ls', description: 'List files' }, { filePath: join(project, 'missing.txt') }),
    );
    const args = ['run', '--format', 'json', ...flags, '--dir', project, '-m', OPENCODE_VISION_MODEL, 'What', 'is', 'here?', '-f', 'pixel.png'];
    const ran = await runOpencode(home, project, args);
    if (ran.code !== 0) throw new Error(`opencode run failed: ${ran.stderr}`);
    const replacements = [[project, '/home/user/project'], [home.home, '/home/user'], [realpathSync(home.home), '/home/user']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, `${name}.jsonl`), sanitize(ran.stdout, replacements));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) {
  await installClients();
  await capture('run', []);
  await capture('thinking', ['--thinking']);
}
for (const name of ['run', 'thinking']) await writeGolden('opencode-run-json', join(DIR, `${name}.jsonl`));
