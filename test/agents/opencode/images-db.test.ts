// What the real opencode does with a user image of the generic events written as an OpenCode session (a file
// part with a `data:` URL): a model configured to take images gets it as an image; any other model gets
// OpenCode's own text saying it cannot read it. And where the session lands: `--session-dir opencode=<dir>`
// not named `opencode` is OPENCODE_DB=<dir>/opencode.db; without --session-dir, an OPENCODE_DB the user set
// is honoured as OpenCode honours it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import {
  OPENCODE_MODEL, OPENCODE_VISION_MODEL, continueWithOpencode, opencodeHome, runOpencode, type OpencodeHome,
} from '../../support/opencode.js';
import { runBin, sessionOf } from '../../support/run.js';
import { binEnv, ev, projectDir, writeOpencodeSession } from './support.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, second)).toISOString();
const STREAM = [
  ev({ type: 'user', text: 'What is in this picture?', images: [{ media_type: 'image/png', data: PNG }], timestamp: at(0) }),
  ev({ type: 'assistant', text: 'A single pixel.', timestamp: at(1) }),
].join('');

/** The first user message of a chat-completions request, its content parts as [type, text or url]. */
function firstUser(body: any): unknown[] {
  const user = body.messages.find((m: any) => m.role === 'user');
  const content = typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
  return content.map((c: any) => [c.type, c.type === 'image_url' ? c.image_url.url : c.text]);
}

/** The ids `opencode session list` shows in `dir` with `env`. */
async function listed(home: OpencodeHome, dir: string, env: Record<string, string> = {}): Promise<string[]> {
  const r = await runOpencode({ ...home, env: { ...home.env, ...env } }, dir, ['session', 'list', '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim() === '' ? [] : (JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id);
}

let mock: MockChat;
let home: OpencodeHome;
beforeAll(async () => {
  mock = await startMockChat();
  home = opencodeHome(mock.url);
});
afterAll(async () => {
  await mock.close();
});

describe('a user image', () => {
  let dir: string;
  let id: string;
  beforeAll(async () => {
    dir = projectDir(home, 'pictures', false);
    const { result, id: written } = await writeOpencodeSession(home, dir, STREAM);
    expect(result.code, result.stderr).toBe(0);
    id = written;
  }, 120_000);

  test('is kept as a file part with a data: URL', () => {
    const journal = readFileSync(join(home.dataDir, 'asyncai-log', `${id}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const user = journal.find((m) => m.info?.role === 'user');
    expect(user.parts.map((p: any) => [p.type, p.text ?? p.url])).toEqual([['text', 'What is in this picture?'], ['file', `data:image/png;base64,${PNG}`]]);
  });

  test('reaches a model that takes images as an image when opencode run --session continues the session', async () => {
    const before = mock.turns().length;
    const r = await continueWithOpencode(home, dir, id, 'Reply with exactly: resumed-ok', OPENCODE_VISION_MODEL);
    expect(r.code, r.stderr).toBe(0);
    expect(firstUser(mock.turns()[before])).toEqual([['text', 'What is in this picture?'], ['image_url', `data:image/png;base64,${PNG}`]]);
  }, 120_000);

  test('reaches a model without image input as OpenCode\'s note that it cannot read it', async () => {
    const before = mock.turns().length;
    const r = await continueWithOpencode(home, dir, id, 'Reply with exactly: resumed-ok', OPENCODE_MODEL);
    expect(r.code, r.stderr).toBe(0);
    expect(firstUser(mock.turns()[before])).toEqual([
      ['text', 'What is in this picture?'],
      ['text', 'ERROR: Cannot read "image-1" (this model does not support image input). Inform the user.'],
    ]);
  }, 120_000);
});

describe('OPENCODE_DB', () => {
  test('--session-dir opencode=<dir> not named opencode: the session is in <dir>/opencode.db, which OPENCODE_DB opens', async () => {
    const dir = projectDir(home, 'db-dir', false);
    const data = join(home.home, 'elsewhere');
    const r = await runBin(['--session-format', 'opencode', '--session-dir', `opencode=${data}`, '--cwd', dir], { input: STREAM, env: binEnv(home), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { session_id: id, session_file: journal } = sessionOf(r);
    expect(journal).toBe(join(data, 'asyncai-log', `${id}.jsonl`));
    expect(existsSync(join(data, 'opencode.db'))).toBe(true);
    // OpenCode's own database does not have it; the one OPENCODE_DB names does.
    expect(await listed(home, dir)).not.toContain(id);
    expect(await listed(home, dir, { OPENCODE_DB: join(data, 'opencode.db') })).toContain(id);
  }, 180_000);

  test('without --session-dir, the OPENCODE_DB of the environment decides, as it does for OpenCode', async () => {
    const dir = projectDir(home, 'db-env', false);
    const db = join(home.home, 'mine.db');
    const r = await runBin(['--session-format', 'opencode', '--cwd', dir], { input: STREAM, env: { ...binEnv(home), OPENCODE_DB: db }, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const id = sessionOf(r).session_id;
    // The journal stays in OpenCode's data directory; the session is in the database OPENCODE_DB names.
    expect(sessionOf(r).session_file).toBe(join(home.dataDir, 'asyncai-log', `${id}.jsonl`));
    expect(await listed(home, dir, { OPENCODE_DB: db })).toContain(id);
  }, 180_000);
});
