import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectInputFormat, INPUT_FORMATS, inputFormatNames } from '../../lib/agents/input-formats.js';
import { FIXTURES, runBin, sessionOf, tempDir } from '../support/run.js';
import { fixtureValues } from '../input/support.js';

const FOREIGN = ['claude-stream-json', 'codex-exec-json', 'codex-rollout', 'gemini-stream-json', 'opencode-run-json', 'pi-session', 'droid-session', 'droid-stream-json'];
/** The fixture folder of a format, when it is not the format's name. */
const FOLDER: Record<string, string> = { 'pi-session': 'pi', 'droid-session': 'droid', 'droid-stream-json': 'droid' };

function recordsOf(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

describe('input format registry', () => {
  test.each([
    ['claude-stream-json', 'input-tools'],
    ['codex-exec-json', 'tool'],
    ['codex-rollout', 'resumed'],
    ['gemini-stream-json', 'run'],
    ['opencode-run-json', 'run'],
    ['pi-session', 'session'],
    ['pi-session', 'json-run'],
    ['droid-session', 'session'],
    ['droid-stream-json', 'stream-json'],
  ])('%s is recognised from the first line of a captured stream', (format, fixture) => {
    expect(detectInputFormat(fixtureValues(FOLDER[format] ?? format, fixture)[0])?.name).toBe(format);
  });

  test.each([['codex-exec-json', 'actions'], ['codex-rollout', 'actions'], ['claude-stream-json', 'input-subagent']])(
    'every line of the %s fixture %s would be recognised as its own format', (format, name) => {
      // An exec stream's top-level error line is the one exception: it never starts a stream.
      const strays = fixtureValues(format, name)
        .filter((value) => (value as { type: string }).type !== 'error' && detectInputFormat(value)?.name !== format);
      expect(strays).toEqual([]);
    },
  );

  test('generic events are not mistaken for a foreign format', () => {
    const values = readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(values.map((value) => detectInputFormat(value)?.name)).toEqual(values.map(() => 'events'));
  });

  test('a Claude Code transcript record is not taken for stream-json', () => {
    const record = { type: 'user', parentUuid: null, sessionId: 's', uuid: 'u', timestamp: '2026-11-29T10:00:00.000Z', message: { role: 'user', content: 'hi' } };
    expect(detectInputFormat(record)?.name).not.toBe('claude-stream-json');
  });

  test('the generic events format is tried last', () => {
    expect(INPUT_FORMATS.at(-1)?.name).toBe('events');
    expect(inputFormatNames()).toEqual(expect.arrayContaining([...FOREIGN, 'events']));
  });
});

describe('--from on the command line', () => {
  test('a stream that matches no format exits 1 naming every format expected', async () => {
    const r = await runBin(['--session-dir', `claude-code-cli=${tempDir()}`], { input: '{"hello":"world"}\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:1: input matches no known format \(expected one of: /);
    for (const name of [...FOREIGN, 'claude-transcript', 'events']) expect(r.stderr).toContain(name);
  });

  test('an unknown --from exits 2 naming the known formats', async () => {
    const r = await runBin(['--from', 'morse'], { input: '' });
    expect(r.code).toBe(2);
    for (const name of ['auto', ...FOREIGN]) expect(r.stderr).toContain(name);
  });

  test.each(FOREIGN)('--from %s reads its format', async (format) => {
    const root = tempDir();
    const fixture = {
      'claude-stream-json': 'input-tools', 'codex-exec-json': 'tool', 'codex-rollout': 'parallel', 'gemini-stream-json': 'run', 'opencode-run-json': 'run',
      'pi-session': 'session', 'droid-session': 'session', 'droid-stream-json': 'stream-json',
    }[format]!;
    const input = readFileSync(join(FIXTURES, FOLDER[format] ?? format, `${fixture}.jsonl`));
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', '--from', format], { input });
    expect(r.code).toBe(0);
    const types = recordsOf(sessionOf(r).session_file).map((x) => x.message?.content?.[0]?.type);
    expect(types).toContain('tool_use');
    expect(types).toContain('tool_result');
  });

  test('--prompt becomes the first user turn of a Codex exec stream', async () => {
    const root = tempDir();
    const input = readFileSync(join(FIXTURES, 'codex-exec-json', 'tool.jsonl'));
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', '--prompt', 'Run echo hi.'], { input });
    const records = recordsOf(sessionOf(r).session_file);
    expect(records[0]).toMatchObject({ type: 'user', message: { role: 'user', content: 'Run echo hi.' } });
    expect(records[1]).toMatchObject({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } }] } });
  });

  test('a rollout\'s own cwd decides the project directory unless --cwd is given', async () => {
    const root = tempDir();
    const input = readFileSync(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'));
    const own = await runBin(['--session-dir', `claude-code-cli=${root}`], { input });
    expect(sessionOf(own).session_file).toContain(join(root, 'projects', '-home-user-project', ''));
    const given = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/srv/elsewhere'], { input });
    expect(sessionOf(given).session_file).toContain(join(root, 'projects', '-srv-elsewhere', ''));
  });
});
