// Regenerates fixtures/opencode/session.json on purpose: runs the real OpenCode (pinned in test/clients/) in an
// isolated home against the loopback chat-completions mock (its model that takes images), with an image
// attached (`-f pixel.png`), a reasoning step, a tool call that succeeds and one that fails; exports the
// session with `opencode export` (pretty-printed, as it prints it), sanitizes and trims it, and rewrites the
// golden events from the built
// `opencode-export` adapter. The model requests the mock received are kept beside it (session.requests.json),
// trimmed to their messages, so what OpenCode sends of the attached image is on record.
//   npx tsc -p tsconfig.json && node scripts/capture-opencode-fixtures.mjs           capture + goldens
//   node scripts/capture-opencode-fixtures.mjs --goldens                              goldens only
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTs, installClients, listAndReadTurns, makeProject, ROOT, sanitizeDocument, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'opencode');

async function capture() {
  await installClients();
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { OPENCODE_VISION_MODEL, opencodeHome, runOpencode } = await importTs('test/support/opencode.ts');
  const mock = await startMockChat();
  try {
    const home = opencodeHome(mock.url);
    const project = makeProject(home.home);
    mock.script(
      ...listAndReadTurns({ command: 'ls', description: 'List files' }, { filePath: join(project, 'missing.txt') }),
    );
    const ran = await runOpencode(home, project, ['run', '--dir', project, '-m', OPENCODE_VISION_MODEL, 'What', 'is', 'here?', '-f', 'pixel.png']);
    if (ran.code !== 0) throw new Error(`opencode run failed: ${ran.stderr}`);
    const listed = await runOpencode(home, project, ['session', 'list', '--format', 'json']);
    const [session] = JSON.parse(listed.stdout);
    const exported = await runOpencode(home, project, ['export', session.id]);
    if (exported.code !== 0) throw new Error(`opencode export failed: ${exported.stderr}`);
    const replacements = [[project, '/home/user/project'], [home.home, '/home/user'], [realpathSync(home.home), '/home/user']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'session.json'), sanitizeDocument(exported.stdout.slice(exported.stdout.indexOf('{')), replacements));
    const requests = mock.turns().map((body) => ({ messages: body.messages.filter((m) => m.role !== 'system') }));
    writeFileSync(join(DIR, 'session.requests.json'), sanitizeDocument(JSON.stringify(requests), replacements));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
// export.json: an earlier capture (a permission the run rejected), kept for the round-trip test.
for (const name of ['session', 'export']) await writeGolden('opencode-export', join(DIR, `${name}.json`));
