// Regenerates fixtures/kilo/ on purpose: runs the real Kilo (pinned in test/clients/) in an isolated home against
// the loopback chat-completions mock (its model takes images), with an image attached (`-f pixel.png`), a
// reasoning step, a tool call that succeeds and one that fails, printed as `kilo run --format json --thinking`
// (run.jsonl); then continues the session once with `kilo run --session`; exports it with `kilo export`
// (pretty-printed, as it prints it), sanitizes and trims both, and rewrites the golden events from the built
// `kilo-export` and `opencode-run-json` adapters. The model requests the mock received are kept beside the export
// (session.requests.json), trimmed to their messages, so what Kilo sends of the attached image is on record.
//   npx tsc -p tsconfig.json && node scripts/capture-kilo-fixtures.mjs           capture + goldens
//   node scripts/capture-kilo-fixtures.mjs --goldens                              goldens only
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTs, installClients, listAndReadTurns, makeProject, ROOT, sanitize, sanitizeDocument, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'kilo');

async function capture() {
  await installClients();
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { KILO_MODEL, kiloHome, runKilo } = await importTs('test/support/kilo.ts');
  const mock = await startMockChat();
  try {
    const home = kiloHome(mock.url);
    const project = makeProject(home.home);
    mock.script(
      ...listAndReadTurns({ command: 'ls', description: 'List files' }, { filePath: join(project, 'missing.txt') }),
      [{ text: 'Nothing else: the notes say hi.' }],
    );
    // The prompt's words apart: one argument with spaces is stored and sent wrapped in quotes.
    const ran = await runKilo(home, project, ['run', '--format', 'json', '--thinking', '--dir', project, '-m', KILO_MODEL,
      'What', 'is', 'here?', '-f', 'pixel.png']);
    if (ran.code !== 0) throw new Error(`kilo run failed: ${ran.stderr}`);
    const id = /"sessionID":"(ses_[0-9A-Za-z]+)"/.exec(ran.stdout)?.[1];
    if (id === undefined) throw new Error(`kilo run printed no session id: ${ran.stdout.slice(0, 400)}`);
    const resumed = await runKilo(home, project, ['run', '--dir', project, '--session', id, '-m', KILO_MODEL, 'Anything', 'else?']);
    if (resumed.code !== 0) throw new Error(`kilo run --session failed: ${resumed.stderr}`);
    const exported = await runKilo(home, project, ['export', id]);
    if (exported.code !== 0) throw new Error(`kilo export failed: ${exported.stderr}`);
    const replacements = [[project, '/home/user/project'], [home.home, '/home/user'], [realpathSync(home.home), '/home/user']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'run.jsonl'), sanitize(ran.stdout, replacements));
    writeFileSync(join(DIR, 'session.json'), sanitizeDocument(exported.stdout.slice(exported.stdout.indexOf('{')), replacements));
    const requests = mock.turns().map((body) => ({ messages: body.messages.filter((m) => m.role !== 'system') }));
    writeFileSync(join(DIR, 'session.requests.json'), sanitizeDocument(JSON.stringify(requests), replacements));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
await writeGolden('kilo-export', join(DIR, 'session.json'));
await writeGolden('opencode-run-json', join(DIR, 'run.jsonl'));
