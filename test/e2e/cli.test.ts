import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, cleanEnv, runBin, sessionOf, tempDir, run, until, FIXTURES } from '../support/run.js';

function records(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

function args(root: string, ...more: string[]): string[] {
  return ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', ...more];
}

const ev = (o: object) => `${JSON.stringify(o)}\n`;

describe('filter command line', () => {
  test('the session line is the first stdout line and names the file written', async () => {
    const root = tempDir();
    const r = await runBin(args(root), { input: readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson')) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const s = sessionOf(r);
    expect(s.session_file).toBe(join(root, 'projects', '-home-user-project', `${s.session_id}.jsonl`));
    expect(JSON.parse(lines[0]!)).toMatchObject({ work_name: 'session', result: { harness: 'claude-code-cli', agent_name: 'asyncai-log' } });
    const recs = records(s.session_file);
    expect(recs.map((x) => [x.type, x.message.content[0]?.type ?? 'string'])).toEqual([
      ['user', 'string'], ['assistant', 'text'], ['assistant', 'tool_use'], ['user', 'tool_result'], ['assistant', 'text'],
    ]);
    expect(recs[0].timestamp).toBe('2026-11-29T10:00:00.000Z');
  });

  test('with --cwd the session line is printed before any input arrives', async () => {
    const root = tempDir();
    const child = spawn(process.execPath, [BIN, ...args(root)], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    expect(JSON.parse(first.split('\n')[0]!).work_name).toBe('session');
    expect(existsSync(JSON.parse(first).result.session_file)).toBe(true);
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
  }, 15_000);

  test('--agent-name and --model reach the session line and the records', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--agent-name', 'bot-7', '--model', 'claude-opus-5-5'), { input: ev({ type: 'assistant', text: 'x' }) });
    expect(sessionOf(r)).toMatchObject({});
    expect(JSON.parse(r.stdout.split('\n')[0]!).result.agent_name).toBe('bot-7');
    expect(records(sessionOf(r).session_file)[0].message.model).toBe('claude-opus-5-5');
  });

  test('each kind of bad line gets one located stderr line and the good lines around it are written', async () => {
    const root = tempDir();
    const input = [
      ev({ type: 'user', text: 'first' }),
      '{"type":"user", broken\n',
      '[1,2]\n',
      ev({ type: 'mystery' }),
      ev({ type: 'tool_call', id: 'x' }),
      ev({ type: 'user', text: 42 }),
      ev({ type: 'user', text: 'last' }),
    ].join('');
    const r = await runBin(args(root), { input });
    expect(r.code).toBe(0);
    const errs = r.stderr.trim().split('\n');
    expect(errs).toEqual([
      expect.stringMatching(/^asyncai-log: stdin:2: invalid JSON: /),
      'asyncai-log: stdin:3: expected a JSON object, got an array',
      expect.stringMatching(/^asyncai-log: stdin:4: unknown event type "mystery"/),
      'asyncai-log: stdin:5: missing "name"',
      'asyncai-log: stdin:6: "text" must be a string, got a number',
    ]);
    expect(records(sessionOf(r).session_file).map((x) => x.message.content)).toEqual(['first', 'last']);
  });

  test('a first line cut to a lone { is one bad line: the lines after it are read (filter, --strict, convert)', async () => {
    const input = `{\n${ev({ type: 'user', text: 'a' })}${ev({ type: 'user', text: 'b' })}`;
    const r = await runBin(args(tempDir()), { input });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:1: invalid JSON[^\n]*\n$/);
    expect(records(sessionOf(r).session_file).map((x) => x.message.content)).toEqual(['a', 'b']);
    const strict = await runBin(args(tempDir(), '--strict'), { input });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^asyncai-log: stdin:1: invalid JSON[^\n]*\nasyncai-log: no events to write/);
    // convert: a file whose first line is not JSON is no log it knows, unless --from says what it is.
    const dir = tempDir();
    writeFileSync(join(dir, 'events.ndjson'), input);
    const convert = (...more: string[]) => runBin(['convert', dir, '--session-dir', `claude-code-cli=${tempDir()}`, '--cwd', tempDir(), ...more]);
    expect(JSON.parse((await convert()).stdout.trim())).toMatchObject({ status: 'skipped', reason: 'unrecognised' });
    const from = await convert('--from', 'events');
    const line = JSON.parse(from.stdout.trim());
    expect(line).toMatchObject({ status: 'converted', records: 3, events: 2, warnings: 1 });
    expect(from.stderr).toMatch(/events\.ndjson:1: invalid JSON/);
    expect(records(line.harnesses[0].session_file).map((x) => x.message.content)).toEqual(['a', 'b']);
  });

  test('--strict stops at the first bad line, keeps what came before, and exits 1', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--strict'), { input: ev({ type: 'user', text: 'a' }) + 'nope\n' + ev({ type: 'user', text: 'b' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^asyncai-log: stdin:2: invalid JSON/);
    expect(records(sessionOf(r).session_file).map((x) => x.message.content)).toEqual(['a']);
  });

  test('CRLF, a BOM, a missing final newline and invalid UTF-8 are handled', async () => {
    const root = tempDir();
    const input = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"type":"user","text":"one"}\r\n{"type":"user","text":"t'),
      Buffer.from([0xc3]),
      Buffer.from('wo"}\r\n{"type":"user","text":"three"}'),
    ]);
    const r = await runBin(args(root), { input });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('asyncai-log: stdin:2: invalid UTF-8 replaced with U+FFFD');
    expect(records(sessionOf(r).session_file).map((x) => x.message.content)).toEqual(['one', 't\uFFFDwo', 'three']);
  });

  test('a line over --max-line-bytes is reported with its size and skipped', async () => {
    const root = tempDir();
    const big = ev({ type: 'user', text: 'x'.repeat(5000) });
    const r = await runBin(args(root, '--max-line-bytes', '1000'), { input: ev({ type: 'user', text: 'a' }) + big + ev({ type: 'user', text: 'b' }) });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe(`asyncai-log: stdin:2: line of ${big.length - 1} bytes is over the limit of 1000 bytes; skipped`);
    expect(records(sessionOf(r).session_file).map((x) => x.message.content)).toEqual(['a', 'b']);
  });

  test('an unknown session format exits 2 naming the known ones and writes nothing', async () => {
    const root = tempDir();
    const r = await runBin(['--session-format', 'vim-cli', '--session-dir', `claude-code-cli=${root}`], { input: ev({ type: 'user', text: 'a' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown session format "vim-cli" \(known: claude-code-cli/);
    expect(readdirSync(root)).toEqual([]);
  });

  test('a malformed --session-dir exits 2', async () => {
    const r = await runBin(['--session-dir', 'no-equals-sign'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--session-dir wants <format>=<path>/);
  });

  test('an unknown flag exits 2', async () => {
    const r = await runBin(['--frobnicate'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("asyncai-log: unknown option --frobnicate\nTry 'asyncai-log --help'.\n");
  });

  test('--no-session writes no file and prints no session line', async () => {
    const home = tempDir();
    const r = await runBin(['--no-session', '--cwd', '/x'], { input: ev({ type: 'user', text: 'a' }), env: cleanEnv({ CLAUDE_CONFIG_DIR: home }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(home)).toEqual([]);
  });

  test('--echo copies the input bytes after the session line', async () => {
    const root = tempDir();
    const input = '{"type":"user","text":"a"}\r\nnot json\n{"type":"user","text":"b"}';
    const r = await runBin(args(root, '--echo'), { input });
    const [first, ...rest] = r.stdout.split('\n');
    expect(JSON.parse(first!).work_name).toBe('session');
    expect(rest.join('\n')).toBe(input);
  });

  test('--echo without --cwd still prints the session line first', async () => {
    const root = tempDir();
    const input = ev({ type: 'user', text: 'a' }) + ev({ type: 'user', text: 'b' });
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--echo'], { input });
    expect(r.stdout.startsWith('{"work_name":"session"')).toBe(true);
    expect(r.stdout.slice(r.stdout.indexOf('\n') + 1)).toBe(input);
  });

  test('the Claude Code root defaults to $CLAUDE_CONFIG_DIR, else ~/.claude', async () => {
    const config = tempDir();
    const a = await runBin(['--cwd', '/p'], { input: ev({ type: 'user', text: 'a' }), env: cleanEnv({ CLAUDE_CONFIG_DIR: config }) });
    expect(sessionOf(a).session_file.startsWith(join(config, 'projects', '-p'))).toBe(true);
    const env = cleanEnv();
    const b = await runBin(['--cwd', '/p'], { input: ev({ type: 'user', text: 'a' }), env });
    expect(sessionOf(b).session_file.startsWith(join(env.HOME!, '.claude', 'projects', '-p'))).toBe(true);
  });

  test('without --cwd the session belongs to the current directory', async () => {
    const root = tempDir();
    const cwd = tempDir();
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`], { input: ev({ type: 'user', text: 'a' }), cwd });
    expect(records(sessionOf(r).session_file)[0].cwd).toBe(cwd);
  });

  test('empty input with a known format prints the session line, then removes the empty file it made, says so and exits 0', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--from', 'events'), { input: '' });
    expect(r.code).toBe(0);
    const file = sessionOf(r).session_file;
    expect(existsSync(file)).toBe(false);
    expect(r.stderr).toBe(`asyncai-log: no events to write, so session ${sessionOf(r).session_id} was not kept (removed ${file})\n`);
  });

  test('an unknown --from exits 2', async () => {
    const r = await runBin(['--from', 'morse'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown input format "morse"/);
  });

  test('a closed stdout (EPIPE) does not stop the transcript', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 3000 }, (_, i) => ev({ type: 'user', text: `line ${i} ${'p'.repeat(200)}` })).join('');
    const file = join(tempDir(), 'in.ndjson');
    writeFileSync(file, lines);
    // `head -c 1` closes the pipe after one byte, while the bin is still echoing.
    const r = await run('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" --echo --session-dir claude-code-cli="${root}" --cwd /p < "${file}" | head -c 1 >/dev/null; echo "exit=\${PIPESTATUS:-done}"`], { env: cleanEnv() });
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
    const dir = join(root, 'projects', '-p');
    const [name] = readdirSync(dir);
    expect(records(join(dir, name!))).toHaveLength(3000);
  });

  test('SIGTERM stops reading, keeps what was read, and exits 143', async () => {
    const root = tempDir();
    const child = spawn(process.execPath, [BIN, ...args(root)], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const file = JSON.parse(line).result.session_file as string;
    child.stdin.write(ev({ type: 'user', text: 'kept' }));
    // The signal comes once the line is written (not after a fixed time): what was read is kept.
    await until(() => readFileSync(file, 'utf8') !== '');
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(143);
    expect(records(file).map((x) => x.message.content)).toEqual(['kept']);
  }, 15_000);

  test('SIGINT exits 130', async () => {
    const child = spawn(process.execPath, [BIN, ...args(tempDir())], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(130);
  }, 15_000);

  test('a write failure (file size limit) is reported once and exits 1 without a crash', async () => {
    const root = tempDir();
    const big = Array.from({ length: 50 }, (_, i) => ev({ type: 'user', text: `${i} ${'z'.repeat(1000)}` })).join('');
    const file = join(tempDir(), 'in.ndjson');
    writeFileSync(file, big);
    // ulimit -f counts 512-byte blocks (bash: 1024): a few KiB fit, the rest does not.
    const r = await run('/bin/bash', ['-c', `ulimit -f 8; exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p < "${file}"`], { env: cleanEnv() });
    expect(r.code).toBe(1);
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^asyncai-log: claude-code-cli: cannot write .*EFBIG/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  test('--help lists the flags and exits 0', async () => {
    const r = await runBin(['--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--session-format', '--session-dir', '--no-session', '--cwd', '--model', '--agent-name', '--echo', '--strict']) {
      expect(r.stdout).toContain(flag);
    }
  });
});

test('the package bin runs the built filter', async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const root = tempDir();
  const r = await run(join(ROOT, pkg.bin['asyncai-log']), ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p'], { input: ev({ type: 'user', text: 'a' }), env: cleanEnv() });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  expect(sessionOf(r).session_file.startsWith(root)).toBe(true);
  const direct = await runBin(['--version']);
  expect((await run(join(ROOT, pkg.bin['asyncai-log']), ['--version'], { env: cleanEnv() })).stdout).toBe(direct.stdout);
});

describe('the installed command', () => {
  // Its node flags, from its shebang: 4 MB semi-spaces, an old generation grown by half, and `gc` for read
  // (bin/asyncai-log.ts says why). Seen from inside the process the command starts, through a module
  // NODE_OPTIONS imports first.
  const FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=50', '--expose-gc'];
  const PROBE = '--import=data:text/javascript,process.stderr.write(JSON.stringify(process.execArgv)+String.fromCharCode(10))';

  test('runs node with its V8 flags; the built bin names the same ones (the benchmark runs it with them)', async () => {
    const r = await run(join(ROOT, 'bin', 'launch.mjs'), ['--version'], { env: cleanEnv({ NODE_OPTIONS: PROBE }) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stderr.split('\n')[0]!)).toEqual(FLAGS);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const firstLine = (file: string) => readFileSync(file, 'utf8').split('\n', 1)[0];
    expect(firstLine(BIN)).toBe(firstLine(join(ROOT, 'bin', 'launch.mjs')));
  });

  test('a plain filter run loads no built-in module of what it does not do: child processes, worker threads, readline', async () => {
    // What the process loaded, said as it exits (docs/performance.md: each of these took CPU on every short run).
    const seen = "--import=data:text/javascript,process.on('exit',()=>process.stderr.write(JSON.stringify(process.moduleLoadList"
      + '.filter((m)=>/^NativeModule.(child_process|worker_threads|readline)$/.test(m)))+String.fromCharCode(10)))';
    const root = tempDir();
    const args = ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p'];
    const r = await run(join(ROOT, 'bin', 'launch.mjs'), args, { input: ev({ type: 'user', text: 'a' }), env: cleanEnv({ NODE_OPTIONS: seen }) });
    expect(r.code, r.stderr).toBe(0);
    expect(sessionOf(r).session_file.startsWith(root)).toBe(true);
    expect(JSON.parse(r.stderr)).toEqual([]);
    // The probe sees them where they are used: a monitor starts a child process.
    const monitored = await run(join(ROOT, 'bin', 'launch.mjs'), [...args, '--monitor', 'echo hi'], { env: cleanEnv({ NODE_OPTIONS: seen }) });
    expect(monitored.code, monitored.stderr).toBe(0);
    expect(JSON.parse(monitored.stderr)).toContain('NativeModule child_process');
  });
});
