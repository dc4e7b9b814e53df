// File names are untrusted text: one named `a\nasyncai-log: forged` must not forge a diagnostic line, and one
// holding `\x1b[31m` must not reach the terminal as an escape sequence. Every stderr line of the filter,
// `read` and `convert` over such files starts `asyncai-log: ` and holds no raw control character.
import { describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runBin, tempDir, type RunResult } from '../support/run.js';

const FORGED = 'a\nasyncai-log: forged.jsonl';
const COLOURED = '\x1b[31mred.jsonl';

/** A directory `logs` holding both names, each a log with one good event and one line that is no JSON. */
function logs(): { dir: string; home: string } {
  const dir = tempDir();
  const home = tempDir();
  mkdirSync(join(dir, 'logs'));
  for (const name of [FORGED, COLOURED]) writeFileSync(join(dir, 'logs', name), '{"type":"user","text":"hi"}\nnot json\n');
  return { dir, home };
}

/** The stderr lines, each checked: it starts `asyncai-log: ` and holds no control character. */
function diagnostics(r: RunResult): string[] {
  const lines = r.stderr.split('\n');
  expect(lines.pop()).toBe('');
  for (const line of lines) {
    expect(line.startsWith('asyncai-log: '), line).toBe(true);
    expect(line, line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  }
  return lines;
}

describe('names in diagnostics are escaped', () => {
  test('the filter over files so named: one escaped line for each bad line and each missing file', async () => {
    const { dir, home } = logs();
    const r = await runBin(['--no-session', `logs/${FORGED}`, `logs/${COLOURED}`, FORGED, COLOURED], { cwd: dir, env: cleanEnv({ CLAUDE_CONFIG_DIR: home }) });
    expect(diagnostics(r)).toEqual([
      'asyncai-log: logs/a\\nasyncai-log: forged.jsonl:2: invalid JSON: Unexpected token \'o\': "not json"',
      'asyncai-log: logs/\\x1b[31mred.jsonl:2: invalid JSON: Unexpected token \'o\': "not json"',
      'asyncai-log: a\\nasyncai-log: forged.jsonl: cannot be read: no such file',
      'asyncai-log: \\x1b[31mred.jsonl: cannot be read: no such file',
    ]);
  });

  test('read over files so named: each diagnostic names its file escaped', async () => {
    const { dir, home } = logs();
    const r = await runBin(['read', `logs/${FORGED}`, `logs/${COLOURED}`, `missing-${COLOURED}`], { cwd: dir, env: cleanEnv({ CLAUDE_CONFIG_DIR: home }) });
    const lines = diagnostics(r);
    expect(lines.filter((line) => line.includes('a\\nasyncai-log: forged.jsonl:2:'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('\\x1b[31mred.jsonl:2:'))).toHaveLength(1);
    expect(lines).toContain(`asyncai-log: ${join(dir, 'missing-\\x1b[31mred.jsonl')}: cannot be read: no such file`);
  });

  test('convert over a directory holding such names: each diagnostic names its file escaped', async () => {
    const { dir, home } = logs();
    const r = await runBin(['convert', '--session-dir', `claude-code-cli=${home}`, 'logs'], { cwd: dir, env: cleanEnv({ CLAUDE_CONFIG_DIR: home }) });
    const lines = diagnostics(r);
    expect(lines).toContain('asyncai-log: logs/a\\nasyncai-log: forged.jsonl:2: invalid JSON: Unexpected token \'o\': "not json"');
    expect(lines).toContain('asyncai-log: logs/\\x1b[31mred.jsonl:2: invalid JSON: Unexpected token \'o\': "not json"');
  });

  test('a bad line holding control characters is quoted escaped too', async () => {
    const home = tempDir();
    const r = await runBin(['--no-session'], { input: '{"type":"user","text":"hi"}\nx\x1b[2J\u009b\n', env: cleanEnv({ CLAUDE_CONFIG_DIR: home }) });
    expect(diagnostics(r)).toEqual(['asyncai-log: stdin:2: invalid JSON: Unexpected token \'x\': "x\\u001b[2J\\x9b"']);
  });
});
