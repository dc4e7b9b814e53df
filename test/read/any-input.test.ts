// `asyncai-log read` of everything the filter reads, run as a user runs it: the foreign streams print the
// events the filter's adapters make (the adapters' golden files), a Claude Code transcript reads the same
// from stdin as from its file, and `-`, `--` and pipes work as for any Unix tool.
import { describe, expect, test } from 'vitest';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, FIXTURES, run, runBin, tempDir } from '../support/run.js';
import { goldenCases } from '../input/support.js';

const TRANSCRIPT = join(FIXTURES, 'claude-code-cli', 'image', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000005.jsonl');
const SESSION = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000005';

function lines(text: string): any[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** The golden events as `read` prints them: a timestamp the input did not give is the time it was read. */
function withoutReadTimes(printed: any[], golden: any[]): any[] {
  return printed.map((event, i) => {
    if (golden[i] && !('timestamp' in golden[i])) {
      const { timestamp: _t, ...rest } = event;
      return rest;
    }
    return event;
  });
}

/** The golden warnings (`line N: ...`, `end: ...`) as the stderr lines `read` gives for input `name`. */
function stderrOf(warnings: string[], name: string): string {
  return warnings.map((w) => {
    const line = /^line (\d+): (?:rejected: )?(.*)$/s.exec(w);
    return line ? `asyncai-log: ${name}:${line[1]}: ${line[2]}\n` : `asyncai-log: ${name}: ${w.replace(/^end: /, '')}\n`;
  }).join('');
}

const cases = [
  ...goldenCases('codex-rollout').map(([name, path, golden]) => ['codex-rollout', name, path, golden] as const),
  ...goldenCases('codex-exec-json').map(([name, path, golden]) => ['codex-exec-json', name, path, golden] as const),
  ...goldenCases('claude-stream-json', 'input-').map(([name, path, golden]) => ['claude-stream-json', name, path, golden] as const),
];

describe('read: every format the filter reads', () => {
  test.each(cases)('%s %s: read --events prints the adapter\'s events, from the file and from stdin', async (_format, _name, path, golden) => {
    const file = await runBin(['read', '--events', path]);
    expect(file.code).toBe(0);
    expect(withoutReadTimes(lines(file.stdout), golden.events)).toEqual(golden.events);
    expect(file.stderr).toBe(stderrOf(golden.warnings, path));
    const stdin = await runBin(['read', '--events', '-'], { input: readFileSync(path) });
    expect(stdin.code).toBe(0);
    expect(withoutReadTimes(lines(stdin.stdout), golden.events)).toEqual(golden.events);
    expect(stdin.stderr).toBe(stderrOf(golden.warnings, 'stdin'));
  });

  test('without --events, the context events are left out, as for a transcript', async () => {
    const [, , path, golden] = cases.find(([format, , , g]) => format === 'codex-rollout' && g.events.some((e: any) => e.type === 'context'))!;
    const r = await runBin(['read', path]);
    expect(r.code).toBe(0);
    const wanted = golden.events.filter((e: any) => e.type !== 'context');
    expect(withoutReadTimes(lines(r.stdout), wanted)).toEqual(wanted);
  });

  test('generic events read back as themselves; a bad line is reported by its line and skipped', async () => {
    const input = [
      JSON.stringify({ type: 'user', text: 'hi', timestamp: '2026-11-29T10:00:00.000Z' }),
      'not json',
      JSON.stringify({ type: 'assistant', text: 'hello', timestamp: '2026-11-29T10:00:01.000Z' }),
    ].join('\n');
    const r = await runBin(['read', '-'], { input });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      { type: 'user', text: 'hi', timestamp: '2026-11-29T10:00:00.000Z' },
      { type: 'assistant', text: 'hello', timestamp: '2026-11-29T10:00:01.000Z' },
    ]);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:2: invalid JSON: [^\n]*\n$/);
  });

  test('--usage, --tree and --branch on another format: one line, exit 1, the other inputs still read', async () => {
    const [, , path] = cases[0]!;
    for (const flag of [['--usage'], ['--tree'], ['--branch', 'x']]) {
      const r = await runBin(['read', ...flag, path, TRANSCRIPT]);
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe(`asyncai-log: ${path}: --usage, --tree and --branch read Claude Code and Pi transcripts; this is codex-rollout input`);
      if (flag[0] === '--usage') expect(lines(r.stdout)).toEqual([expect.objectContaining({ session_id: SESSION })]);
    }
  });
});

describe('read: stdin, pipes and operands', () => {
  test('a Claude Code transcript on stdin reads as from its file; --usage and --tree name its session; the copy is removed', async () => {
    const tmp = tempDir();
    const env = cleanEnv({ TMPDIR: tmp });
    for (const flags of [[], ['--usage'], ['--tree'], ['--events']]) {
      const fromFile = await runBin(['read', ...flags, TRANSCRIPT], { env });
      const fromStdin = await runBin(['read', ...flags, '-'], { env, input: readFileSync(TRANSCRIPT) });
      expect(fromStdin.code).toBe(0);
      expect(fromStdin.stderr).toBe(fromFile.stderr);
      expect(fromStdin.stdout).toBe(fromFile.stdout);
    }
    expect(lines((await runBin(['read', '--usage', '-'], { env, input: readFileSync(TRANSCRIPT) })).stdout)[0].session_id).toBe(SESSION);
    expect(readdirSync(tmp)).toEqual([]);
  });

  test('a damaged transcript on stdin is reported under the name stdin', async () => {
    const r = await runBin(['read', '-'], { input: `${readFileSync(TRANSCRIPT, 'utf8')}{"type":"user","mess` });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:\d+: /);
    expect(r.stderr).not.toContain('asyncai-log-read-');
  });

  test('a transcript whose first line was cut to a lone { is read on from its second line, as for any damaged line', async () => {
    const [, ...rest] = readFileSync(TRANSCRIPT, 'utf8').split('\n');
    const dir = tempDir();
    const cut = join(dir, 'cut.jsonl');
    const other = join(dir, 'other.jsonl');
    writeFileSync(cut, ['{', ...rest].join('\n'));
    writeFileSync(other, ['{"type":"us', ...rest].join('\n'));
    const expected = await runBin(['read', other]);
    expect(lines(expected.stdout).length).toBeGreaterThan(1);
    for (const r of [await runBin(['read', cut]), await runBin(['read', '-'], { input: readFileSync(cut) })]) {
      expect(r.stdout).toBe(expected.stdout);
      expect(r.stderr).toMatch(/^asyncai-log: \S+:1: [^\n]*\n$/);
      expect(r.stderr.split('\n')[0]!.replace(/^.*?:1: /, '')).not.toContain('document');
    }
  });

  test('a Codex rollout whose first line is damaged is still read as one: the first line that is JSON says what it is', async () => {
    const [, ...rest] = readFileSync(join(FIXTURES, 'codex-rollout', 'actions.jsonl'), 'utf8').split('\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'without.jsonl'), rest.join('\n'));
    const expected = await runBin(['read', join(dir, 'without.jsonl')]);
    expect(lines(expected.stdout).length).toBeGreaterThan(3);
    for (const head of ['garbage', '{', '{"type":"session_me']) {
      writeFileSync(join(dir, 'damaged.jsonl'), [head, ...rest].join('\n'));
      for (const r of [await runBin(['read', join(dir, 'damaged.jsonl')]), await runBin(['read', '-'], { input: [head, ...rest].join('\n') })]) {
        expect(r.stdout).toBe(expected.stdout);
        expect(r.stderr).toMatch(/^asyncai-log: \S+:1: invalid JSON[^\n]*\n$/);
      }
    }
  });

  test('a transcript through a pipe given as a file (process substitution) is read', async () => {
    const r = await run('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" read <(cat "${TRANSCRIPT}")`], { env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await runBin(['read', TRANSCRIPT])).stdout);
  });

  test('-- ends the options: a transcript named like a flag is read', async () => {
    const dir = tempDir();
    copyFileSync(TRANSCRIPT, join(dir, '--usage'));
    const r = await runBin(['read', '--', '--usage'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await runBin(['read', TRANSCRIPT])).stdout);
  });

  test('empty stdin reads as an empty transcript: nothing, exit 0', async () => {
    const r = await runBin(['read', '-'], { input: '' });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  test('a missing file among others: one line, the others are read, exit 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'events.ndjson'), `${JSON.stringify({ type: 'user', text: 'x', timestamp: '2026-11-29T10:00:00.000Z' })}\n`);
    const r = await runBin(['read', 'nope.jsonl', 'events.ndjson'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`asyncai-log: ${join(dir, 'nope.jsonl')}: cannot be read: no such file\n`);
    expect(lines(r.stdout)).toEqual([{ type: 'user', text: 'x', timestamp: '2026-11-29T10:00:00.000Z' }]);
  });
});
