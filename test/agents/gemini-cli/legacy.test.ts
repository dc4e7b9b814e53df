// The legacy Gemini chat: one JSON object (`sessionId`, `projectHash`, times, `messages`) pretty-printed over
// many lines in `session-<time>-<id8>.json`, as older CLIs wrote it and 0.61.0 still loads it. It reads as
// `gemini-chat` whole through `read` (file and stdin), the filter's stdin and `convert`; the real gemini
// resumes the fixture, so its shape is one the CLI reads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startMockGemini, type MockGemini } from '../../support/mock-gemini.js';
import { resumeWithGemini } from '../../support/gemini-cli.js';
import { FIXTURES, runBin, sessionOf, tempDir } from '../../support/run.js';
import { PNG, conversation, geminiHome } from './support.js';

const FIXTURE = join(FIXTURES, 'gemini-cli', 'legacy.json');
const TEXT = readFileSync(FIXTURE, 'utf8');
const GOLDEN = JSON.parse(readFileSync(join(FIXTURES, 'gemini-cli', 'legacy.events.json'), 'utf8')) as { events: any[] };
const SESSION = '3f1c2a9e-7b4d-4e21-9c0a-5d6e7f8a9b0c';
/** The golden events without context (what `read` prints unless asked for `--events`). */
const TURNS = GOLDEN.events.filter((e) => e.type !== 'context');
const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

let gemini: MockGemini;
beforeAll(async () => {
  gemini = await startMockGemini();
});
afterAll(async () => {
  await gemini.close();
});

describe('a legacy pretty-printed .json chat', () => {
  test('the fixture is pretty-printed over many lines, as the CLI wrote it', () => {
    expect(TEXT.split('\n')[0]).toBe('{');
    expect(TEXT.split('\n').length).toBeGreaterThan(50);
    expect(TEXT).toBe(`${JSON.stringify(JSON.parse(TEXT), null, 2)}\n`);
  });

  test('read <file> prints its golden events', async () => {
    const r = await runBin(['read', FIXTURE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toEqual(TURNS);
  });

  test('read on stdin detects it and prints the same events; --events adds the UI note', async () => {
    const r = await runBin(['read', '-'], { input: TEXT });
    expect(r.stderr).toBe('');
    expect(ndjson(r.stdout)).toEqual(TURNS);
    const all = await runBin(['read', '--events', '-'], { input: TEXT });
    expect(ndjson(all.stdout)).toEqual(GOLDEN.events);
  });

  test('the filter detects it on stdin and writes a Claude Code session holding the image, the calls and the error', async () => {
    const configDir = join(tempDir(), 'claude');
    const cwd = realpathSync(tempDir());
    const r = await runBin(['--session-dir', `claude-code-cli=${configDir}`, '--cwd', cwd], { input: TEXT, cwd });
    expect(r.code, r.stderr).toBe(0);
    const records = ndjson(readFileSync(sessionOf(r).session_file, 'utf8'));
    const blocks = records.filter((rec) => rec.type === 'user' || rec.type === 'assistant')
      .flatMap((rec) => (typeof rec.message.content === 'string' ? [{ type: 'text', text: rec.message.content }] : rec.message.content)
        .map((b: any) => [rec.type, b.type, b.type === 'image' ? b.source.data : b.type === 'tool_use' ? b.id
          : b.type === 'tool_result' ? [b.tool_use_id, b.is_error ?? false] : b.text ?? b.thinking]));
    expect(blocks).toEqual([
      ['user', 'text', 'Read notes.txt and missing.txt, then describe @pixel.png'],
      ['user', 'text', '\n--- Content from referenced files ---\n\n--- End of content ---'],
      ['user', 'image', PNG],
      ['assistant', 'text', 'I will read both files.'],
      ['assistant', 'tool_use', 'read_file-1751274904731-0'],
      ['assistant', 'tool_use', 'read_file-1751274904731-1'],
      ['user', 'tool_result', ['read_file-1751274904731-0', false]],
      ['user', 'tool_result', ['read_file-1751274904731-1', true]],
      ['assistant', 'text', 'The notes say hi; missing.txt does not exist; the image is a single pixel.'],
    ]);
    // The thoughts are unsigned: said once on stderr, not written.
    expect(r.stderr).toMatch(/unsigned thinking is not written/);
  });

  test('convert takes the .json file as one gemini-chat record', async () => {
    const dir = tempDir();
    const chats = join(dir, 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, 'session-2025-06-30T09-15-3f1c2a9e.json'), TEXT);
    const configDir = join(tempDir(), 'claude');
    const cwd = realpathSync(tempDir());
    const r = await runBin(['convert', join(dir, 'tmp'), '--session-dir', `claude-code-cli=${configDir}`, '--cwd', cwd], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', input_format: 'gemini-chat', records: 1, events: GOLDEN.events.length, warnings: 1 });
    const records = ndjson(readFileSync(line.harnesses[0].session_file, 'utf8'));
    expect(records.filter((rec) => rec.type === 'assistant' && rec.message.content.some((b: any) => b.type === 'tool_use'))).toHaveLength(2);
  });

  test('a document cut short is reported at its first line, not read', async () => {
    const cut = TEXT.split('\n').slice(0, 40).join('\n');
    const r = await runBin(['read', '-'], { input: cut });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('asyncai-log: stdin:1: the JSON document starting here does not end (no closing "}" in the first column)\n');
    expect(r.code).toBe(1);
    const dir = tempDir();
    writeFileSync(join(dir, 'session-cut.json'), cut);
    const f = await runBin(['read', join(dir, 'session-cut.json')]);
    expect(f.stderr).toBe(`asyncai-log: ${join(dir, 'session-cut.json')}:1: the JSON document starting here does not end (no closing "}" in the first column)\n`);
    expect(f.code).toBe(1);
    // Longer than the limit: said so, not read either.
    const long = await runBin(['read', '--max-record-bytes', '1000', FIXTURE]);
    expect(long.stderr).toMatch(new RegExp(`^asyncai-log: ${FIXTURE}:1: JSON document of ${TEXT.length - 1} bytes is over the limit of 1000 bytes; skipped\\n$`));
    expect(long.code).toBe(1);
    const filter = await runBin(['--session-dir', `claude-code-cli=${join(tempDir(), 'claude')}`, '--cwd', tempDir()], { input: cut });
    expect(filter.stderr).toContain('stdin:1: the JSON document starting here does not end');
    const c = await runBin(['convert', dir, '--session-dir', `claude-code-cli=${join(tempDir(), 'claude')}`, '--cwd', tempDir()]);
    expect(JSON.parse(c.stdout.trim())).toMatchObject({ status: 'skipped', reason: 'unrecognised' });
  });

  test('the real gemini 0.61.0 loads the fixture from its chats folder and resumes it with every element in order', async () => {
    const { home, root } = geminiHome();
    const project = realpathSync(tempDir());
    const chats = join(root, 'tmp', basename(project).toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, ''), 'chats');
    mkdirSync(chats, { recursive: true });
    // The start-up cleanup deletes chats last updated over 30 days ago: this copy is current.
    const doc = JSON.parse(TEXT);
    doc.lastUpdated = new Date().toISOString();
    writeFileSync(join(chats, 'session-2025-06-30T09-15-3f1c2a9e.json'), `${JSON.stringify(doc, null, 2)}\n`);
    const before = gemini.streamed().length;
    const result = await resumeWithGemini({ home, cwd: project, baseUrl: gemini.url, session: SESSION });
    expect(result.code, result.stderr).toBe(0);
    expect(conversation(gemini.streamed()[before]!.body)).toEqual([
      { role: 'user', parts: [
        { text: 'Read notes.txt and missing.txt, then describe @pixel.png' },
        { text: '\n--- Content from referenced files ---' }, { inlineData: { mimeType: 'image/png', data: PNG } }, { text: '\n--- End of content ---' },
      ] },
      { role: 'model', parts: [
        { text: 'I will read both files.' },
        { functionCall: { id: 'read_file-1751274904731-0', name: 'read_file', args: { absolute_path: '/home/user/project/notes.txt' } } },
        { functionCall: { id: 'read_file-1751274904731-1', name: 'read_file', args: { absolute_path: '/home/user/project/missing.txt' } } },
      ] },
      { role: 'user', parts: [
        { functionResponse: { id: 'read_file-1751274904731-0', name: 'read_file', response: { output: 'the notes say hi\n' } } },
        { functionResponse: { id: 'read_file-1751274904731-1', name: 'read_file', response: { error: 'File not found: /home/user/project/missing.txt' } } },
      ] },
      { role: 'model', parts: [{ text: 'The notes say hi; missing.txt does not exist; the image is a single pixel.' }] },
      { role: 'user', parts: [{ text: 'Reply with exactly: resumed-ok' }] },
    ]);
  });
});
