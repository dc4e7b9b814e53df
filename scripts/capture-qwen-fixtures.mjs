// Regenerates fixtures/qwen-code/ on purpose: runs the real Qwen Code (pinned in test/clients/) against the
// loopback chat-completions mock, keeps the chat file it writes (one session with reasoning, parallel tool calls,
// an error result and an image; the same chat after a resume), sanitizes and trims it, and rewrites the golden
// event files from the built `qwen-chat` adapter. It also keeps what `qwen -p --output-format stream-json`
// prints for such a run (`stream-json.jsonl`: Claude Code's stream-json shape, read by `claude-stream-json`).
//   npx tsc -p tsconfig.json && node scripts/capture-qwen-fixtures.mjs           capture + goldens
//   node scripts/capture-qwen-fixtures.mjs --goldens                              goldens only
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureDirs, importTs, installClients, ROOT, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'qwen-code');

/** Keep only the records the conversation is made of, and the chain through them (telemetry and snapshots go). */
function trim(text) {
  const records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const kept = records.filter((r) => r.type !== 'system' || r.subtype === 'chat_compression' || r.subtype === 'custom_title');
  const byId = new Map(records.map((r) => [r.uuid, r]));
  const keptIds = new Set(kept.map((r) => r.uuid));
  for (const r of kept) {
    let parent = r.parentUuid;
    while (parent !== null && parent !== undefined && !keptIds.has(parent)) parent = byId.get(parent)?.parentUuid ?? null;
    r.parentUuid = parent;
  }
  // The first record carries the project directory (the CLI finds the session by it).
  if (kept[0] !== undefined && kept[0].cwd === undefined) kept[0].cwd = records[0].cwd;
  return kept.map((r) => `${JSON.stringify(r)}\n`).join('');
}

async function capture() {
  await installClients();
  const { startMockChat } = await importTs('test/support/mock-chat-completions.ts');
  const { runQwen, writeQwenSettings } = await importTs('test/support/qwen-code.ts');
  const { home, cwd } = captureDirs('qwen');
  const root = writeQwenSettings(home);
  const mock = await startMockChat();
  const baseUrl = `${mock.url}/v1`;
  mock.script(
    [
      { reasoning: 'I will read the notes and the missing file.' },
      { text: 'Reading both files.' },
      { tool: { id: 'call_notes', name: 'run_shell_command', arguments: { command: 'cat notes.txt' } } },
      { tool: { id: 'call_missing', name: 'read_file', arguments: { file_path: join(cwd, 'missing.txt') } } },
    ],
    [{ text: 'The notes say hi; missing.txt does not exist; the image is one pixel.' }],
  );
  try {
    const first = await runQwen({ home, cwd, baseUrl, args: ['-p', 'Read notes.txt and missing.txt, and look at @pixel.png'] });
    if (first.code !== 0) throw new Error(`qwen failed: ${first.stderr}`);
    const chats = join(root, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');
    const file = join(chats, readdirSync(chats).find((n) => n.endsWith('.jsonl')));
    const session = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).sessionId;
    const replacements = [[cwd, '/home/user/project'], [home, '/home/user'], [root, '/home/user/.qwen']];
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'session.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    mock.script([{ text: 'Nothing else to do.' }]);
    const resumed = await runQwen({ home, cwd, baseUrl, args: ['--resume', session, '-p', 'Anything else?'] });
    if (resumed.code !== 0) throw new Error(`qwen --resume failed: ${resumed.stderr}`);
    writeFileSync(join(DIR, 'resumed.jsonl'), trim(sanitize(readFileSync(file, 'utf8'), replacements)));
    mock.script(
      [
        { reasoning: 'I will read the notes and the missing file.' },
        { text: 'Reading both files.' },
        { tool: { id: 'call_notes', name: 'run_shell_command', arguments: { command: 'cat notes.txt' } } },
        { tool: { id: 'call_missing', name: 'read_file', arguments: { file_path: join(cwd, 'missing.txt') } } },
      ],
      [{ text: 'The notes say hi; missing.txt does not exist.' }],
    );
    const live = await runQwen({ home, cwd, baseUrl, args: ['-p', 'Read notes.txt and missing.txt', '--output-format', 'stream-json'] });
    if (live.code !== 0) throw new Error(`qwen --output-format stream-json failed: ${live.stderr}`);
    writeFileSync(join(DIR, 'stream-json.jsonl'), `${sanitize(live.stdout.trimEnd(), replacements)}\n`);
  } finally {
    await mock.close();
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const name of ['session', 'resumed']) await writeGolden('qwen-chat', join(DIR, `${name}.jsonl`));
await writeGolden('claude-stream-json', join(DIR, 'stream-json.jsonl'));
