// Regenerates fixtures/gemini-stream-json/ on purpose: runs the real Gemini CLI (pinned in test/clients/) with
// `-p ... --output-format stream-json` against the loopback Gemini API mock (a thought, text in two parts, a tool
// call that succeeds and one that fails, an attached image), keeps what it prints, sanitized, and rewrites the
// golden events from the built `gemini-stream-json` adapter.
//   npx tsc -p tsconfig.json && node scripts/capture-gemini-stream-json-fixtures.mjs      capture + goldens
//   node scripts/capture-gemini-stream-json-fixtures.mjs --goldens                         goldens only
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureDirs, importTs, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'gemini-stream-json');

async function capture() {
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
    // Two parts: the CLI prints each as its own delta, which the adapter joins into one reply.
    [{ text: 'The notes say hi; ' }, { text: 'missing.txt does not exist; the image is one pixel.' }],
  );
  try {
    const ran = await runGemini({
      home, cwd, baseUrl: mock.url,
      args: ['-m', GEMINI_MODEL, '--yolo', '--output-format', 'stream-json', '-p', 'Read notes.txt and missing.txt, and look at @pixel.png'],
    });
    if (ran.code !== 0) throw new Error(`gemini failed: ${ran.stderr}`);
    const replacements = [[cwd, '/home/user/project'], [home, '/home/user'], [root, '/home/user/.gemini']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'run.jsonl'), sanitize(ran.stdout, replacements));
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
await writeGolden('gemini-stream-json', join(DIR, 'run.jsonl'));
