// Regenerates fixtures/gemini-cli/ on purpose: runs the real Gemini CLI (pinned in test/clients/) against the loopback
// Gemini API mock, keeps the chat files it writes (one session with parallel tool calls, an error result, a
// thought and an image; the same chat after a resume, with the CLI's `$set` lines; and after a resume in a later
// minute than the file's name, which makes the CLI rewrite the history), sanitizes and trims them, and rewrites
// the golden event files from the built `gemini-chat` adapter.
//   npx tsc -p tsconfig.json && node scripts/capture-gemini-fixtures.mjs           capture + goldens
//   node scripts/capture-gemini-fixtures.mjs --goldens                              goldens only
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { captureDirs, importTs, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'gemini-cli');

/**
 * One chat, resumed once. `later`: the file is first renamed to an hour earlier, as the CLI names a chat begun
 * then, so the resume comes in a later minute than the name (every real resume) and the CLI rewrites the
 * history; the resumed file is kept as `<later>.jsonl`. Otherwise the chat is kept before and after the resume.
 */
async function capture(later) {
  const { startMockGemini } = await importTs('test/support/mock-gemini.ts');
  const { GEMINI_MODEL, runGemini, writeGeminiSettings } = await importTs('test/support/gemini-cli.ts');
  const { home, cwd } = captureDirs('gemini');
  const root = writeGeminiSettings(home);
  const mock = await startMockGemini();
  mock.script(
    [
      { text: '**Reading the notes** I will read both files.', thought: true },
      { text: 'Reading both files.' },
      { functionCall: { name: 'read_file', args: { file_path: 'notes.txt' } } },
      { functionCall: { name: 'read_file', args: { file_path: 'missing.txt' } } },
    ],
    [{ text: 'The notes say hi; missing.txt does not exist; the image is one pixel.' }],
    [{ text: 'Nothing else to do.' }],
  );
  const common = ['-m', GEMINI_MODEL, '--yolo'];
  try {
    const first = await runGemini({ home, cwd, baseUrl: mock.url, args: [...common, '-p', 'Read notes.txt and missing.txt, and look at @pixel.png'] });
    if (first.code !== 0) throw new Error(`gemini failed: ${first.stderr}`);
    const chats = join(root, 'tmp', readdirSync(join(root, 'tmp')).find((d) => d !== 'bin'), 'chats');
    let file = join(chats, readdirSync(chats).find((n) => n.endsWith('.jsonl')));
    if (later) {
      const earlier = join(chats, basename(file).replace(/T(\d\d)-/, (_m, h) => `T${String((Number(h) + 23) % 24).padStart(2, '0')}-`));
      renameSync(file, earlier);
      file = earlier;
    }
    const session = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).sessionId;
    const slug = basename(cwd).toLowerCase();
    const replacements = [[cwd, '/home/user/project'], [home, '/home/user'], [root, '/home/user/.gemini'], [join(root, 'tmp', slug), '/home/user/.gemini/project-temp-dir'], [slug, 'project']];
    // (the sanitizer refuses any `/tmp/` path, so the CLI's temp directory named in its context is renamed)
    mkdirSync(DIR, { recursive: true });
    if (!later) writeFileSync(join(DIR, 'session.jsonl'), sanitize(readFileSync(file, 'utf8'), replacements));
    const resumed = await runGemini({ home, cwd, baseUrl: mock.url, args: [...common, '--resume', session, '-p', 'Anything else?'] });
    if (resumed.code !== 0) throw new Error(`gemini --resume failed: ${resumed.stderr}`);
    writeFileSync(join(DIR, later ? `${later}.jsonl` : 'resumed.jsonl'), sanitize(readFileSync(file, 'utf8'), replacements));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) {
  await capture();
  await capture('resumed-later');
}
for (const name of ['session', 'resumed', 'resumed-later']) await writeGolden('gemini-chat', join(DIR, `${name}.jsonl`));
