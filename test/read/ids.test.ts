// `read <id>` and `convert <id>` for every agent whose sessions are files (issue 41): the built bin writes a session
// under a temp HOME (or the agent's environment variable, or --session-dir), then reads it back by its whole id
// and by a prefix of 8 characters; a prefix two sessions share is "ambiguous" (both named), an id found nowhere is
// "no session", each one stderr line and exit 1; convert <id> converts that one session and says how to resume it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, runBin, sessionOf, tempDir } from '../support/run.js';
import { assistant, text, user, writeTranscript } from '../agents/claude-code-cli/reader/support.js';

const EVENTS = '{"type":"user","text":"found by id"}\n{"type":"assistant","text":"yes"}\n';
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const texts = (stdout: string) => lines(stdout).filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);

/** Each agent whose sessions are files, and the environment variable that moves its root. */
const AGENTS: [format: string, variable: (home: string) => Record<string, string>][] = [
  ['claude-code-cli', (home) => ({ CLAUDE_CONFIG_DIR: join(home, 'claude-elsewhere') })],
  ['codex-cli', (home) => ({ CODEX_HOME: join(home, 'codex-elsewhere') })],
  ['gemini-cli', (home) => ({ GEMINI_CLI_HOME: join(home, 'gemini-elsewhere') })],
  ['qwen-code', (home) => ({ QWEN_HOME: join(home, 'qwen-elsewhere') })],
  ['pi', (home) => ({ PI_CODING_AGENT_DIR: join(home, 'pi-elsewhere') })],
  ['droid', (home) => ({ FACTORY_HOME_OVERRIDE: join(home, 'droid-elsewhere') })],
  ['copilot-cli', (home) => ({ COPILOT_HOME: join(home, 'copilot-elsewhere') })],
];

/** Write one session of `format` with the bin: its id and file. */
async function write(format: string, env: Record<string, string>, extra: string[] = []): Promise<{ id: string; file: string }> {
  const project = tempDir('asyncai-log-project-');
  const w = await runBin(['--session-format', format, '--cwd', project, ...extra], { env, input: EVENTS });
  expect(w.code, w.stderr).toBe(0);
  const { session_id: id, session_file: file } = sessionOf(w);
  return { id, file };
}

describe.each(AGENTS)('read <id> of a %s session', (format, variable) => {
  test('its whole id and a prefix of 8 characters find it under the default root', async () => {
    const env = cleanEnv();
    const { id, file } = await write(format, env);
    expect(file.startsWith(env.HOME!)).toBe(true);
    for (const value of [id, id.slice(0, 8)]) {
      const r = await runBin(['read', value], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(texts(r.stdout)).toEqual(['found by id', 'yes']);
    }
  });

  test('its agent\'s environment variable is honoured', async () => {
    const env = cleanEnv();
    const moved = { ...env, ...variable(env.HOME!) };
    const { id, file } = await write(format, moved);
    expect(file.startsWith(Object.values(variable(env.HOME!))[0]!)).toBe(true);
    const r = await runBin(['read', id.slice(0, 10)], { env: moved });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(texts(r.stdout)).toEqual(['found by id', 'yes']);
  });

  test('--session-dir <format>=<dir> is looked in', async () => {
    const env = cleanEnv();
    const dir = tempDir('asyncai-log-root-');
    const { id } = await write(format, env, ['--session-dir', `${format}=${dir}`]);
    const r = await runBin(['read', id, '--session-dir', `${format}=${dir}`], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(texts(r.stdout)).toEqual(['found by id', 'yes']);
  });
});

describe('Qwen Code\'s advanced.runtimeOutputDir', () => {
  test('the user settings\' runtimeOutputDir is where the writer puts a chat and where read <id> finds it', async () => {
    const env = cleanEnv();
    mkdirSync(join(env.HOME!, '.qwen'));
    writeFileSync(join(env.HOME!, '.qwen', 'settings.json'), JSON.stringify({ advanced: { runtimeOutputDir: '~/qwen-runtime' } }));
    const { id, file } = await write('qwen-code', env);
    expect(file.startsWith(join(env.HOME!, 'qwen-runtime', 'projects'))).toBe(true);
    const r = await runBin(['read', id.slice(0, 8)], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(texts(r.stdout)).toEqual(['found by id', 'yes']);
    // $QWEN_RUNTIME_DIR comes first.
    const runtime = { ...env, QWEN_RUNTIME_DIR: join(env.HOME!, 'env-runtime') };
    expect((await write('qwen-code', runtime)).file.startsWith(join(env.HOME!, 'env-runtime', 'projects'))).toBe(true);
  });
});

describe('read <id>: none, ambiguous, whole', () => {
  /** A HOME holding a Claude Code session and a Qwen Code chat whose ids share their first 8 characters. */
  async function twoSessions(): Promise<Record<string, string>> {
    const env = cleanEnv();
    writeTranscript([user('u1', null, 'claude one'), assistant('a1', 'u1', [text('ok')])], {
      dir: join(env.HOME!, '.claude', 'projects', '-p'), name: '11111111-0000-4000-8000-000000000001.jsonl',
    });
    const chats = join(env.HOME!, '.qwen', 'projects', '-p', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, '11111111-0000-4000-8000-000000000002.jsonl'), `${JSON.stringify({
      uuid: 'r1', parentUuid: null, sessionId: '11111111-0000-4000-8000-000000000002', timestamp: '2026-12-01T10:00:00.000Z',
      type: 'user', cwd: '/p', message: { role: 'user', parts: [{ text: 'qwen one' }] },
    })}\n`);
    return env;
  }

  test('a prefix two sessions share: one line naming both, exit 1, nothing printed', async () => {
    const env = await twoSessions();
    const r = await runBin(['read', '11111111'], { env });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('asyncai-log: 11111111: ambiguous: 2 sessions match: '
      + '11111111-0000-4000-8000-000000000001 (claude-code-cli), 11111111-0000-4000-8000-000000000002 (qwen-code)\n');
  });

  test('a longer prefix, or the whole id, names one of them', async () => {
    const env = await twoSessions();
    const claude = await runBin(['read', '11111111-0000-4000-8000-000000000001'], { env });
    expect(texts(claude.stdout)).toEqual(['claude one', 'ok']);
    const qwen = await runBin(['read', '11111111-0000-4000-8000-0000000000'.concat('02')], { env });
    expect([qwen.code, qwen.stderr]).toEqual([0, '']);
    expect(texts(qwen.stdout)).toEqual(['qwen one']);
  });

  test('an id found nowhere: one line naming where it was looked for, exit 1, the other inputs still read', async () => {
    const env = await twoSessions();
    const r = await runBin(['read', 'deadbeef', '11111111-0000-4000-8000-000000000001'], { env });
    expect(r.code).toBe(1);
    const home = env.HOME!;
    expect(r.stderr).toBe(`asyncai-log: deadbeef: no session of this id under ${join(home, '.claude', 'projects')}, `
      + `${join(home, '.codex', 'sessions')}, ${join(home, '.gemini', 'tmp')}, ${join(home, '.qwen', 'projects')}, ${join(home, '.pi', 'agent', 'sessions')}, `
      + `${join(home, '.factory', 'sessions')}, ${join(home, '.copilot', 'session-state')}\n`);
    expect(texts(r.stdout)).toEqual(['claude one', 'ok']);
  });

  test('fewer than 8 characters, or a path, is never looked up', async () => {
    const env = await twoSessions();
    const r = await runBin(['read', '1111111'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^asyncai-log: \S+1111111: cannot be read: no such file\n$/);
  });

  test('a file of that name in the current directory is read as the file', async () => {
    const env = await twoSessions();
    const cwd = tempDir();
    writeFileSync(join(cwd, '11111111'), '{"type":"user","text":"a file"}\n');
    const r = await runBin(['read', '11111111'], { env, cwd });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(texts(r.stdout)).toEqual(['a file']);
  });
});

describe('convert <id>', () => {
  test('converts that one session into --session-format and says how to resume it', async () => {
    const env = cleanEnv();
    const { id } = await write('claude-code-cli', env);
    const r = await runBin(['convert', id.slice(0, 8), '--session-format', 'pi'], { env });
    expect(r.code, r.stderr).toBe(0);
    const [line] = lines(r.stdout);
    expect(line).toMatchObject({ status: 'converted', input_format: 'claude-transcript', harnesses: [{ format: 'pi' }] });
    expect(line.source.endsWith(`${id}.jsonl`)).toBe(true);
    const written = line.harnesses[0];
    expect(r.stderr).toBe(`asyncai-log: resume with: pi --session ${written.session_file}  (from ${line.cwd})\n`);
    // The session written is found by its own id too.
    const back = await runBin(['read', written.session_id], { env });
    expect(texts(back.stdout)).toEqual(['found by id', 'yes']);
  });

  test('an id naming no session, or several, is a failed input of one line, exit 1', async () => {
    const env = cleanEnv();
    const r = await runBin(['convert', 'deadbeefdead', '--session-format', 'pi'], { env });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toEqual([expect.objectContaining({ source: 'deadbeefdead', status: 'failed', error: expect.stringMatching(/^no session of this id under /) })]);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([expect.stringMatching(/^asyncai-log: deadbeefdead: no session of this id under /)]);
  });
});
