// The edges a user meets first, run as a user runs them: file arguments, numbers, storage that cannot be
// made, signals, terminals (on a pseudo-terminal, test/support/pty.ts) and runs that write nothing.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, FIXTURES, run, runBin, sessionOf, tempDir } from '../support/run.js';
import { screen, startOnTerminal } from '../support/pty.js';
import { until } from '../reliability/support.js';
import { makeTree, TREE_FILES } from '../convert/support.js';

const ev = (o: object) => `${JSON.stringify(o)}\n`;

/** The text of each record of a transcript (a user's string, an assistant's first block). */
function texts(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
    const content = JSON.parse(l).message.content;
    return typeof content === 'string' ? content : content[0].text;
  });
}

/** Files of events in a fresh directory, and the flags that write a session under a fresh root. */
function setup(files: Record<string, string>): { dir: string; root: string; flags: string[] } {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const root = tempDir();
  return { dir, root, flags: ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'] };
}

describe('input files as arguments', () => {
  test('files are read in order as one session; a bad line is named by its file and its line in that file', async () => {
    const { dir, flags } = setup({
      'a.ndjson': ev({ type: 'user', text: 'a1' }) + ev({ type: 'assistant', text: 'a2' }),
      'b.ndjson': ev({ type: 'user', text: 'b1' }) + '{"type":"user", broken\n' + ev({ type: 'assistant', text: 'b3' }),
    });
    const r = await runBin([...flags, 'a.ndjson', 'b.ndjson'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^asyncai-log: b\.ndjson:2: invalid JSON: [^\n]*\n$/);
    expect(texts(sessionOf(r).session_file)).toEqual(['a1', 'a2', 'b1', 'b3']);
  });

  test('- is stdin, in its place among the files, and a file without a final newline does not run into the next', async () => {
    const { dir, flags } = setup({
      'a.ndjson': JSON.stringify({ type: 'user', text: 'from a' }),
      'b.ndjson': ev({ type: 'user', text: 'from b' }),
    });
    const r = await runBin([...flags, 'a.ndjson', '-', 'b.ndjson'], { cwd: dir, input: ev({ type: 'user', text: 'from stdin' }) + 'nope\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:2: invalid JSON: [^\n]*\n$/);
    expect(texts(sessionOf(r).session_file)).toEqual(['from a', 'from stdin', 'from b']);
  });

  test('-- ends the options: what follows is a file even when it looks like a flag or a command', async () => {
    const { dir, flags } = setup({ '--cwd': ev({ type: 'user', text: 'dashes' }), read: ev({ type: 'user', text: 'read' }) });
    const r = await runBin([...flags, '--', '--cwd', 'read', '-'], { cwd: dir, input: ev({ type: 'user', text: 'stdin' }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(texts(sessionOf(r).session_file)).toEqual(['dashes', 'read', 'stdin']);
  });

  test('a repeated flag takes one value each time and never a file after it', async () => {
    const { dir, root, flags } = setup({ 'a.ndjson': ev({ type: 'user', text: 'a' }) });
    const codex = tempDir();
    const r = await runBin([...flags, '--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--session-dir', `codex-cli=${codex}`, 'a.ndjson'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(sessionOf(r).harnesses.map((h) => h.format)).toEqual(['claude-code-cli', 'codex-cli']);
    expect(sessionOf(r).session_file.startsWith(root)).toBe(true);
  });

  test('a missing file and a directory are one line each; the other files are still read; exit 1', async () => {
    const { dir, flags } = setup({ 'a.ndjson': ev({ type: 'user', text: 'a' }), 'b.ndjson': ev({ type: 'user', text: 'b' }) });
    mkdirSync(join(dir, 'sub'));
    const r = await runBin([...flags, 'a.ndjson', 'nope.ndjson', 'sub', 'b.ndjson'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('asyncai-log: nope.ndjson: cannot be read: no such file\nasyncai-log: sub: cannot be read: is a directory\n');
    expect(texts(sessionOf(r).session_file)).toEqual(['a', 'b']);
  });

  test('a pipe given as a file (process substitution) is read like any file', async () => {
    const { root } = setup({});
    const r = await run('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p <(printf '%s\\n' '{"type":"user","text":"piped"}')`], { env: cleanEnv() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(texts(sessionOf(r).session_file)).toEqual(['piped']);
  });

  test('a file argument whose every file is missing writes nothing and exits 1', async () => {
    const { dir, root } = setup({});
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, 'nope.ndjson'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('asyncai-log: nope.ndjson: cannot be read: no such file\nasyncai-log: no events to write, so no session was made\n');
    expect(existsSync(join(root, 'projects'))).toBe(false);
  });
});

describe('numbers and directories in flags', () => {
  const cases: [string[], string, number, number][] = [
    [['--max-line-bytes'], 'max-line-bytes', 1, 1073741824],
    [['read', 'x.jsonl', '--max-record-bytes'], 'max-record-bytes', 1, 1073741824],
    [['read', 'x.jsonl', '--threads'], 'threads', 0, 256],
    [['convert', 'x.jsonl', '--jobs'], 'jobs', 1, 256],
    [['convert', 'x.jsonl', '--max-line-bytes'], 'max-line-bytes', 1, 1073741824],
  ];
  for (const [args, flag, min, max] of cases) {
    test(`${args.join(' ')} wants a whole number from ${min} to ${max}: anything else is one line and exit 2, nothing written`, async () => {
      for (const bad of ['abc', '', '-1', '1.5', '1e3', '0x10', String(min - 1), String(max + 1)]) {
        if (bad === '-1' && min === 0) continue; // the same as min - 1
        const root = tempDir();
        const r = await runBin([...args, bad, '--session-dir', `claude-code-cli=${root}`], { input: ev({ type: 'user', text: 'x' }) });
        expect(r.code, bad).toBe(2);
        expect(r.stderr.split('\n')[0]).toBe(`asyncai-log: --${flag} wants a whole number from ${min} to ${max}, got ${JSON.stringify(bad)}`);
        expect(r.stdout).toBe('');
        expect(readdirSync(root)).toEqual([]);
      }
    });
  }

  test('--max-line-bytes takes its smallest and largest values', async () => {
    const { flags } = setup({});
    const small = await runBin([...flags, '--max-line-bytes', '1'], { input: ev({ type: 'user', text: 'x' }) });
    // Its only line skipped, the input held no event: exit 1, saying why.
    expect(small.code).toBe(1);
    expect(small.stderr.split('\n').slice(0, 2)).toEqual([
      'asyncai-log: stdin:1: line of 26 bytes is over the limit of 1 bytes; skipped',
      'asyncai-log: stdin: no event in 1 line: it is over the line limit (--max-line-bytes)',
    ]);
    const large = await runBin([...flags, '--max-line-bytes', '1073741824'], { input: ev({ type: 'user', text: 'x' }) });
    expect(large.code).toBe(0);
    expect(texts(sessionOf(large).session_file)).toEqual(['x']);
  });

  test('--cwd naming a file, or nothing, is a usage error; one that does not exist is only recorded', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    for (const [cwd, message] of [['file', '--cwd file: not a directory'], ['file/sub', '--cwd file/sub: not a directory'], ['', '--cwd wants a directory, got ""']]) {
      const root = tempDir();
      for (const command of [[], ['convert', 'x.jsonl']]) {
        const r = await runBin([...command, '--session-dir', `claude-code-cli=${root}`, '--cwd', cwd!], { cwd: dir, input: ev({ type: 'user', text: 'x' }) });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`asyncai-log: ${message}\nTry 'asyncai-log${command.length > 0 ? ' convert' : ''} --help'.\n`);
        expect(readdirSync(root)).toEqual([]);
      }
    }
    const { flags } = setup({});
    const r = await runBin([...flags.slice(0, 2), '--cwd', '/nonexistent/project'], { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(sessionOf(r).session_file, 'utf8').split('\n')[0]!).cwd).toBe('/nonexistent/project');
  });
});

describe('storage that cannot be made', () => {
  test.runIf(existsSync('/proc/self'))('a --session-dir the file system refuses is one line and exit 1, at once', async () => {
    const r = await runBin(['--session-dir', 'claude-code-cli=/proc/asyncai-log-nope', '--cwd', '/home/user/project'], { input: ev({ type: 'user', text: 'hi' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('asyncai-log: cannot create the session: cannot make the directory /proc/asyncai-log-nope: no such file\n');
    expect(r.stdout).toBe('');
  });

  test('a --session-dir below a file is one line and exit 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const r = await runBin(['--session-dir', `claude-code-cli=${join(dir, 'file', 'root')}`, '--cwd', '/p'], { input: ev({ type: 'user', text: 'hi' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`asyncai-log: cannot create the session: cannot make the directory ${join(dir, 'file', 'root')}: a part of the path is not a directory\n`);
  });
});

describe('signals end the run whatever it waits for', () => {
  test('SIGTERM while stdout is not being read (a stuck consumer): the records read are written, exit 143', async () => {
    const { dir, root } = setup({});
    const input = join(dir, 'big.ndjson');
    writeFileSync(input, Array.from({ length: 20_000 }, (_, i) => ev({ type: 'user', text: `line ${i} ${'x'.repeat(100)}` })).join(''));
    const fd = openSync(input, 'r');
    // --echo copies the input to a stdout nobody reads: the run waits on it.
    const child = spawn(process.execPath, [BIN, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/p', '--echo'], { env: cleanEnv(), stdio: [fd, 'pipe', 'pipe'] });
    closeSync(fd);
    child.stdout.pause();
    const dirOf = join(root, 'projects', '-p');
    const size = () => (existsSync(dirOf) && readdirSync(dirOf).length === 1 ? readFileSync(join(dirOf, readdirSync(dirOf)[0]!)).length : 0);
    // Stuck: records were written, and the transcript no longer grows (the pipe is full; it stops far short
    // of the 20,000 records).
    let last = -1;
    let still = 0;
    await until(() => {
      const now = size();
      still = now > 0 && now === last ? still + 1 : 0;
      last = now;
      return still >= 10;
    });
    expect(still).toBe(10);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(143);
    const records = readFileSync(join(dirOf, readdirSync(dirOf)[0]!), 'utf8');
    expect(records.endsWith('\n')).toBe(true);
    expect(records.split('\n').filter((l) => l !== '').length).toBeGreaterThan(0);
    expect(records.split('\n').filter((l) => l !== '').length).toBeLessThan(20_000);
    child.stdout.destroy();
  });
});

/** The last `n` lines of a run's stderr (which ends with a newline). */
const lastLines = (stderr: string, n: number) => stderr.split('\n').slice(-n - 1, -1);

describe('runs that write nothing', () => {
  test('empty input keeps no session: no session line, one line on stderr, exit 0', async () => {
    const { root } = setup({});
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('asyncai-log: no events to write, so no session was made\n');
    expect(existsSync(join(root, 'projects'))).toBe(false);
  });

  test('--cwd with nothing: the session line came first; the Claude and Codex files it made are removed, and said so', async () => {
    const { root, flags } = setup({});
    const codex = tempDir();
    const r = await runBin([...flags, '--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--session-dir', `codex-cli=${codex}`], { input: '' });
    expect(r.code).toBe(0);
    const files = sessionOf(r).harnesses.map((h) => h.session_file);
    expect(files).toHaveLength(2);
    for (const file of files) expect(existsSync(file)).toBe(false);
    expect(r.stderr).toBe(`asyncai-log: no events to write, so session ${sessionOf(r).session_id} was not kept (removed ${files.join(', ')})\n`);
    expect(readdirSync(join(root, 'projects', '-home-user-project'))).toEqual([]);
  });

  test('input whose every line is bad keeps no session either, and exits 1 saying what the lines looked like', async () => {
    const { flags } = setup({});
    const r = await runBin(flags, { input: 'nope\n' + ev({ type: 'mystery' }) });
    expect(r.code).toBe(1);
    const { session_id: id, session_file: file } = sessionOf(r);
    expect(existsSync(file)).toBe(false);
    expect(lastLines(r.stderr, 2)).toEqual([
      'asyncai-log: stdin: no event in 2 lines: they look like generic events, but none held an event (see above)',
      `asyncai-log: no events to write, so session ${id} was not kept (removed ${file})`,
    ]);
  });

  test('plain text: exit 1, one line saying it looks like plain text, and the session line\'s id said to be removed', async () => {
    const { flags } = setup({});
    const r = await runBin(flags, { input: 'hello\nworld\n\nagain\n' });
    expect(r.code).toBe(1);
    const { session_id: id, session_file: file } = sessionOf(r);
    expect(existsSync(file)).toBe(false);
    expect(lastLines(r.stderr, 2)).toEqual([
      'asyncai-log: stdin: no event in 3 lines: they look like plain text, not JSON',
      `asyncai-log: no events to write, so session ${id} was not kept (removed ${file})`,
    ]);
  });

  test('a wrong --from: exit 1, one line naming the format the lines look like and the one --from gave', async () => {
    const { root } = setup({});
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--from', 'codex-rollout'], {
      input: readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson')),
    });
    expect(r.code).toBe(1);
    const { session_id: id, session_file: file } = sessionOf(r);
    expect(lastLines(r.stderr, 2)).toEqual([
      'asyncai-log: stdin: no event in 5 lines: they look like generic events, not codex-rollout (--from)',
      `asyncai-log: no events to write, so session ${id} was not kept (removed ${file})`,
    ]);
  });

  test('blank lines only are empty input: exit 0', async () => {
    const { root } = setup({});
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: '\n  \n\r\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('asyncai-log: no events to write, so no session was made\n');
  });
});

describe('on a terminal', () => {
  test('reading events from a terminal says what it expects and how to end; Ctrl-D ends the input', async () => {
    const { root } = setup({});
    const term = startOnTerminal('stdin', ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p']);
    await until(() => term.err().includes('\n'));
    expect(term.err()).toBe('asyncai-log: reading events from the terminal, one JSON object per line (see --help); end with Ctrl-D\n');
    term.type(ev({ type: 'user', text: 'typed' }));
    term.end();
    const { code, out, err } = await term.exit;
    expect(code).toBe(0);
    expect(err.split('\n')).toHaveLength(2);
    expect(texts(JSON.parse(out.split('\n')[0]!).result.session_file)).toEqual(['typed']);
  });

  test('with --monitor and no command, the hint says each line becomes a monitor event', async () => {
    const { root } = setup({});
    const term = startOnTerminal('stdin', ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p', '--monitor']);
    await until(() => term.err().includes('\n'));
    expect(term.err()).toBe('asyncai-log: reading lines from the terminal, each recorded as a monitor event; end with Ctrl-D\n');
    term.end();
    expect((await term.exit).code).toBe(0);
  });

  test('read - on a terminal says so too, and reads what is typed until Ctrl-D', async () => {
    const term = startOnTerminal('stdin', ['read', '-']);
    await until(() => term.err().includes('\n'));
    expect(term.err()).toBe('asyncai-log: reading a transcript or log from the terminal, one JSON object per line; end with Ctrl-D\n');
    term.type(ev({ type: 'user', text: 'typed', timestamp: '2026-11-29T10:00:00.000Z' }));
    term.end();
    const { code, out } = await term.exit;
    expect(code).toBe(0);
    expect(out).toBe(ev({ type: 'user', text: 'typed', timestamp: '2026-11-29T10:00:00.000Z' }));
  });

  test('a file argument is read without a hint, even when stdin is a terminal', async () => {
    const { dir, root } = setup({ 'a.ndjson': ev({ type: 'user', text: 'a' }) });
    const term = startOnTerminal('stdin', ['--session-dir', `claude-code-cli=${root}`, join(dir, 'a.ndjson')]);
    term.end();
    const { code, err } = await term.exit;
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  test('Ctrl-C before any event: exit 130, the empty session is removed, no resume hint, one line saying so', async () => {
    const { root } = setup({});
    const term = startOnTerminal('all', ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p']);
    // Ctrl-C makes the terminal drop output not yet shown: wait until the session line is on the screen.
    await until(() => term.out().includes('"work_name"') && term.out().endsWith('\n'));
    term.type('\u0003');
    const { code, out } = await term.exit;
    expect(code).toBe(130);
    const lines = screen(out);
    const session = JSON.parse(lines.find((l) => l.startsWith('{"work_name"'))!).result;
    expect(existsSync(session.session_file)).toBe(false);
    expect(lines.slice(-2)).toEqual(['^C', `asyncai-log: no events to write, so session ${session.session_id} was not kept (removed ${session.session_file})`]);
    expect(out).not.toContain('resume with');
  });

  test('Ctrl-D after an event: the session is kept and the resume command is shown', async () => {
    const { root } = setup({});
    const term = startOnTerminal('all', ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p']);
    await until(() => term.out().includes('end with Ctrl-D'));
    term.type(ev({ type: 'user', text: 'kept' }));
    term.end();
    const { code, out } = await term.exit;
    expect(code).toBe(0);
    const session = JSON.parse(screen(out).find((l) => l.startsWith('{"work_name"'))!).result;
    expect(texts(session.session_file)).toEqual(['kept']);
    expect(screen(out)).toContain(`asyncai-log: resume with: claude --resume ${session.session_id}  (from /p)`);
  });
});

describe('convert on a terminal', () => {
  /** What the terminal shows of a convert run, line by line. */
  async function convertOnTerminal(tree: { dir: string; root: string }): Promise<{ code: number | null; lines: string[] }> {
    const term = startOnTerminal('all', ['convert', 'tree', '--session-dir', `claude-code-cli=${tree.root}`], { cwd: tree.dir });
    term.end();
    const { code, out } = await term.exit;
    return { code, lines: screen(out) };
  }

  /** Every line is a whole report line, a progress or summary line, or a diagnostic: none runs into another. */
  function expectClean(lines: string[]): void {
    for (const line of lines) {
      if (line.startsWith('{')) expect(() => JSON.parse(line), line).not.toThrow();
      else expect(line, line).toMatch(/^asyncai-log: /);
      expect(line.indexOf('{"source"'), line).toBeLessThanOrEqual(0);
    }
  }

  test('the progress line never runs into a report line; a rerun repeats no warning; the summary splits the skipped by reason', async () => {
    const tree = makeTree();
    const first = await convertOnTerminal(tree);
    expect(first.code).toBe(0);
    expectClean(first.lines);
    expect(first.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).source)).toEqual(Object.values(TREE_FILES));
    expect(first.lines.some((l) => /^asyncai-log: tree\/.*:\d+: /.test(l))).toBe(true);
    expect(first.lines.some((l) => /^asyncai-log: convert: \d+\/8 files, /.test(l))).toBe(true);
    expect(first.lines.at(-1)).toBe('asyncai-log: convert: 6 converted, 2 skipped (1 empty, 1 unrecognised), 0 failed');

    const again = await convertOnTerminal(tree);
    expect(again.code).toBe(0);
    expectClean(again.lines);
    expect(again.lines.filter((l) => l.startsWith('asyncai-log: ') && !l.startsWith('asyncai-log: convert: '))).toEqual([]);
    expect(again.lines.at(-1)).toBe('asyncai-log: convert: 0 converted, 8 skipped (6 unchanged, 1 empty, 1 unrecognised), 0 failed');
  });
});
