// The fidelity account at the command line: the filter's one stderr line when a format dropped or changed
// something, `--fidelity-json <file>` (a new file, never over one; a FIFO is written to), and convert's
// account in each file's NDJSON line.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv, FIXTURES, run, runBin, tempDir } from '../support/run.js';

const EVENTS = [
  { type: 'user', text: 'list the files' },
  { type: 'thinking', text: 'private plan' },
  { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' } },
  { type: 'tool_result', id: 'c1', content: 'ls: cannot access', is_error: true },
  { type: 'assistant', text: 'It failed.' },
].map((e) => `${JSON.stringify({ ...e, timestamp: '2026-11-29T10:00:00.000Z' })}\n`).join('');

function place(): { root: string; cwd: string; env: Record<string, string> } {
  const top = tempDir();
  return { root: join(top, 'root'), cwd: tempDir(), env: cleanEnv() };
}

describe('the filter', () => {
  test('says in one line what each format dropped, and writes the whole account to --fidelity-json', async () => {
    const p = place();
    const out = join(tempDir(), 'account.json');
    const r = await runBin([
      '--cwd', p.cwd, '--session-format', 'claude-code-cli', '--session-format', 'codex-cli',
      '--session-dir', `claude-code-cli=${p.root}/c`, '--session-dir', `codex-cli=${p.root}/x`, '--fidelity-json', out,
    ], { input: EVENTS, env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('asyncai-log: fidelity: '));
    expect(lines).toEqual([
      'asyncai-log: fidelity: claude-code-cli: reasoning 1 of 1 dropped (unsigned: the API rejects it on resume); '
      + 'codex-cli: error flags 1 of 1 dropped (Codex results have no error flag), reasoning 1 of 1 dropped (Codex keeps only the API\'s encrypted reasoning)',
    ]);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const account = JSON.parse(readFileSync(out, 'utf8'));
    const session = JSON.parse(r.stdout.split('\n')[0]!).result;
    expect(account.input).toEqual({ events: 5, bad_lines: 0 });
    expect(account.sessions.map((s: any) => [s.format, s.session_id])).toEqual(session.harnesses.map((h: any) => [h.format, h.session_id]));
    expect(account.sessions[1].elements).toEqual({
      user_text: { read: 1, written: 1 },
      assistant_text: { read: 1, written: 1 },
      tool_call: { read: 1, written: 1 },
      tool_result: { read: 1, written: 1 },
      error_flag: { read: 1, written: 0, dropped: { 'Codex results have no error flag': 1 } },
      reasoning: { read: 1, written: 0, dropped: { 'Codex keeps only the API\'s encrypted reasoning': 1 } },
    });
  });

  test('says nothing of fidelity when every element was written', async () => {
    const p = place();
    const r = await runBin(['--cwd', p.cwd, '--session-dir', `claude-code-cli=${p.root}`], {
      input: readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson')), env: p.env, cwd: p.cwd,
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  test('an existing --fidelity-json file is a usage error: nothing read, nothing written, the file as it was', async () => {
    const p = place();
    const out = join(tempDir(), 'mine.json');
    writeFileSync(out, 'keep');
    const r = await runBin(['--cwd', p.cwd, '--session-dir', `claude-code-cli=${p.root}`, '--fidelity-json', out], { input: EVENTS, env: p.env, cwd: p.cwd });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`asyncai-log: --fidelity-json ${out}: it exists, and is never overwritten\nTry 'asyncai-log --help'.\n`);
    expect(readFileSync(out, 'utf8')).toBe('keep');
    expect(readdirSync(p.cwd)).toEqual([]);
  });

  test('a FIFO given as --fidelity-json gets the account', async () => {
    const p = place();
    const fifo = join(tempDir(), 'account.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = run('cat', [fifo]);
    const r = await runBin(['--cwd', p.cwd, '--session-dir', `claude-code-cli=${p.root}`, '--fidelity-json', fifo], { input: EVENTS, env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const account = JSON.parse((await reader).stdout);
    expect(account.sessions[0].elements.reasoning).toEqual({ read: 1, written: 0, dropped: { 'unsigned: the API rejects it on resume': 1 } });
  });
});

describe('convert', () => {
  test('each file\'s NDJSON line holds each session\'s account', async () => {
    const p = place();
    const src = tempDir();
    writeFileSync(join(src, 'run.ndjson'), EVENTS);
    const r = await run(process.execPath, [BIN, 'convert', src, '--cwd', p.cwd, '--session-format', 'codex-cli', '--session-dir', `codex-cli=${p.root}`], { env: p.env, cwd: p.cwd });
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout.split('\n').find((l) => l.includes('"source"'))!);
    expect(line.status).toBe('converted');
    expect(line.harnesses[0].fidelity.reasoning).toEqual({ read: 1, written: 0, dropped: { 'Codex keeps only the API\'s encrypted reasoning': 1 } });
    expect(line.harnesses[0].fidelity.tool_call).toEqual({ read: 1, written: 1 });
  });
});

describe('read --fidelity-json', () => {
  const CLAUDE = join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');
  const ROLLOUT = join(FIXTURES, 'codex-rollout', 'parallel.jsonl');

  test('says per input what was printed, its warnings, and which was cut off (a transcript and another format)', async () => {
    const dir = tempDir();
    const cutClaude = join(dir, 'cut.jsonl');
    const cutRollout = join(dir, 'cut-rollout.jsonl');
    writeFileSync(cutClaude, readFileSync(CLAUDE).subarray(0, -30));
    writeFileSync(cutRollout, readFileSync(ROLLOUT).subarray(0, -20));
    const out = join(dir, 'account.json');
    const r = await run(process.execPath, [BIN, 'read', CLAUDE, cutClaude, cutRollout, '-', '--fidelity-json', out], {
      env: cleanEnv(), input: readFileSync(ROLLOUT),
    });
    expect(r.code, r.stderr).toBe(0);
    const inputs = JSON.parse(readFileSync(out, 'utf8')).inputs;
    expect(inputs.map((i: any) => [i.source, i.warnings, i.partial])).toEqual([
      [CLAUDE, 0, false], [cutClaude, 1, true], [cutRollout, 1, true], ['stdin', 0, false],
    ]);
    // What was printed, counted: the events on stdout of the whole transcript.
    const printed = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const calls = printed.filter((e) => e.type === 'tool_call').length;
    expect(inputs.reduce((n: number, i: any) => n + (i.elements.tool_call?.read ?? 0), 0)).toBe(calls);
    expect(inputs[0].elements).toEqual({
      user_text: { read: 1 }, assistant_text: { read: 2 }, tool_call: { read: 2 }, tool_result: { read: 2 }, error_flag: { read: 1 }, reasoning: { read: 1 },
    });
  });

  test('an existing file is a usage error, left as it was', async () => {
    const out = join(tempDir(), 'mine.json');
    writeFileSync(out, 'keep');
    const r = await run(process.execPath, [BIN, 'read', ROLLOUT, '--fidelity-json', out], { env: cleanEnv() });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`asyncai-log: --fidelity-json ${out}: it exists, and is never overwritten\nTry 'asyncai-log read --help'.\n`);
    expect(readFileSync(out, 'utf8')).toBe('keep');
  });
});
