// Regenerates fixtures/droid/ on purpose: runs the real Factory Droid (pinned in test/clients/) against the
// loopback chat-completions mock, its own API and telemetry at the same mock, and keeps the session file it
// writes (one session with reasoning, parallel tool calls and an error result, and the same session after
// `droid exec -s`; one whose Read tool returns an image: droid takes no image with a prompt), sanitized and
// trimmed, and what `droid exec -o stream-json` prints for the first; then rewrites the golden event files from the built `droid-session` and `droid-stream-json`
// adapters.
//   npx tsc -p tsconfig.json && node scripts/capture-droid-fixtures.mjs           capture + goldens
//   node scripts/capture-droid-fixtures.mjs --goldens                              goldens only
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureDirs, importTs, installClients, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'droid');

/** The context droid injects (tools, skills, environment, git status) keeps only its first text, trimmed. */
function trim(text) {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => {
    const line = JSON.parse(l);
    if (line.type === 'message' && typeof line.id === 'string' && line.id.startsWith('context-')) {
      line.message.content = line.message.content.slice(0, 1).map((b) => ({ ...b, text: `${b.text.slice(0, 120)}…[trimmed]` }));
    }
    return `${JSON.stringify(line)}\n`;
  }).join('');
}

/** The first run: reasoning, text, a shell call and a failing read; `image`: a read of the image instead. */
function script(mock, cwd, { image = false } = {}) {
  const calls = image
    ? [{ tool: { id: 'call_pixel', name: 'Read', arguments: { file_path: join(cwd, 'pixel.png') } } }]
    : [
      { tool: { id: 'call_notes', name: 'Execute', arguments: { command: 'cat notes.txt', summary: 'print the notes', riskLevel: 'low', riskLevelReason: 'reads a file' } } },
      { tool: { id: 'call_missing', name: 'Read', arguments: { file_path: join(cwd, 'missing.txt') } } },
    ];
  mock.script(
    [{ reasoning: 'I will print the notes and read the missing file.' }, { text: 'Reading them.' }, ...calls],
    [{ text: image ? 'The image is one pixel.' : 'The notes say hi; missing.txt does not exist.' }],
  );
}

async function capture() {
  await installClients();
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { runDroid, writeDroidSettings, DROID_MODEL } = await importTs('test/support/droid.ts');
  const { home, cwd } = captureDirs('droid');
  const mock = await startMockChat();
  const root = writeDroidSettings(home, `${mock.url}/v1`);
  const exec = (args) => runDroid({ home, cwd, api: mock.url, args: ['exec', '-m', DROID_MODEL, '--auto', 'low', ...args] });
  script(mock, cwd);
  try {
    const first = await exec(['-o', 'json', 'Print notes.txt and read missing.txt']);
    if (first.code !== 0) throw new Error(`droid exec failed: ${first.stderr}`);
    const session = JSON.parse(first.stdout.trim().split('\n').at(-1)).session_id;
    const dir = join(root, 'sessions', cwd.replace(/\//g, '-'));
    const file = join(dir, `${session}.jsonl`);
    const replacements = [[cwd, '/home/user/project'], [home, '/home/user'], [root, '/home/user/.factory']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'session.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    mock.script([{ text: 'Nothing else to do.' }]);
    const resumed = await exec(['-s', session, 'Anything else?']);
    if (resumed.code !== 0) throw new Error(`droid exec -s failed: ${resumed.stderr}`);
    writeFileSync(join(DIR, 'resumed.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    script(mock, cwd, { image: true });
    const pixel = await exec(['-o', 'json', 'Look at pixel.png']);
    if (pixel.code !== 0) throw new Error(`droid exec failed: ${pixel.stderr}`);
    const imageFile = join(dir, `${JSON.parse(pixel.stdout.trim().split('\n').at(-1)).session_id}.jsonl`);
    writeFileSync(join(DIR, 'image.jsonl'), trim(sanitize(readFileSync(imageFile, 'utf8'), replacements)));
    script(mock, cwd);
    const live = await exec(['-o', 'stream-json', 'Print notes.txt and read missing.txt']);
    if (live.code !== 0) throw new Error(`droid exec -o stream-json failed: ${live.stderr}`);
    writeFileSync(join(DIR, 'stream-json.jsonl'), `${sanitize(live.stdout.trimEnd(), replacements)}\n`);
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const name of ['session', 'resumed', 'image']) await writeGolden('droid-session', join(DIR, `${name}.jsonl`));
await writeGolden('droid-stream-json', join(DIR, 'stream-json.jsonl'));
