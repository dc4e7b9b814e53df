// The filter on worker threads, end to end: the real claude resumes a transcript written on threads (a tool
// call and its result in different jobs, on different threads) and sends the whole conversation; the bin
// reads a large file on stdin on threads and writes every record on one chain.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runFilter } from '../../dist/lib/filter/index.js';
import { fileInput } from '../../dist/lib/input/file-input.js';
import { JOB_BYTES } from '../../dist/lib/agents/claude-code-cli/threads/run.js';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { BIN, ROOT, cleanEnv, resumeWithClaude, runBin, tempDir } from '../support/run.js';

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

const ev = (o: object) => `${JSON.stringify(o)}\n`;

function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}

describe('the filter on worker threads, end to end', () => {
  test('the real claude resumes a transcript written on threads and sends the whole conversation in order', async () => {
    const cwd = tempDir();
    const root = tempDir();
    const file = join(tempDir(), 'events.ndjson');
    // Calls longer than a job: each result is in a later job than its call, on the other thread.
    const long = (tag: string) => `${tag} ${'long text ü '.repeat(Math.ceil((JOB_BYTES * 1.5) / 12))}`;
    writeFileSync(file, [
      ev({ type: 'user', text: 'List the files.' }),
      ev({ type: 'tool_call', id: 'toolu_ls', name: 'Bash', arguments: { command: 'ls', description: long('first') } }),
      ev({ type: 'tool_result', id: 'toolu_ls', content: 'a.txt\nb.txt' }),
      ev({ type: 'monitor_event', event: 'build started', description: 'build' }),
      ev({ type: 'assistant', text: long('second') }),
      ev({ type: 'tool_call', id: 'toolu_cat', name: 'Read', arguments: { file_path: 'a.txt' } }),
      ev({ type: 'assistant', text: long('third') }),
      ev({ type: 'tool_result', id: 'toolu_cat', content: 'hello', is_error: true }),
      ev({ type: 'assistant', text: 'Done.' }),
    ].join(''));
    const fd = openSync(file, 'r');
    let result;
    try {
      result = await runFilter({
        formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, agentName: 'test', noSession: false,
        echo: false, strict: false, from: 'auto', env: {}, homedir: root, processCwd: cwd, cwd, threads: 2, threadsMinBytes: 0,
      }, { stdin: fileInput(fd)!, stdinFd: fd, stdout: discard(), stderr: discard() });
    } finally {
      closeSync(fd);
    }
    expect(result.code).toBe(0);
    expect(result.threads).toBe(2);
    const session = result.harnesses[0]!.sessionId;
    const before = mock.requests.length;
    const resumed = await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url });
    expect(resumed.stdout.trim()).toBe('resumed-ok');
    expect(mock.requests.length).toBeGreaterThan(before);
    const blocks = mock.requests.at(-1)!.body.messages.flatMap((m: any) => (typeof m.content === 'string'
      ? [{ role: m.role, type: 'text', text: m.content }]
      : m.content.map((b: any) => ({ role: m.role, ...b }))));
    const summary = blocks.map((b: any) => (b.type === 'text' ? `${b.role}:text:${String(b.text).slice(0, 12)}`
      : b.type === 'tool_use' ? `tool_use:${b.id}` : b.type === 'tool_result' ? `tool_result:${b.tool_use_id}:${b.is_error === true}` : b.type));
    const expected = ['user:text:List the fil', 'tool_use:toolu_ls', 'tool_result:toolu_ls:false'];
    expect(summary.slice(0, expected.length)).toEqual(expected);
    expect(summary).toContain('tool_use:toolu_cat');
    expect(summary).toContain('tool_result:toolu_cat:true');
    expect(summary.some((s: string) => s.includes('assistant:text:Done.'))).toBe(true);
    expect(JSON.stringify(blocks)).toContain('build started');
  });

  test('the bin reads a large file on stdin on threads: every event written, on one chain', async () => {
    const root = tempDir();
    const file = join(tempDir(), 'big.ndjson');
    const lines: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 9 * 1024 * 1024; i += 1) {
      const line = i % 3 === 0 ? ev({ type: 'tool_call', id: `t${i}`, name: 'Bash', arguments: { command: `echo ${i}` } })
        : i % 3 === 1 ? ev({ type: 'tool_result', id: `t${i - 1}`, content: `out ${i} ${'é'.repeat(i % 500)}` })
        : ev({ type: 'assistant', text: `step ${i}` });
      lines.push(line);
      bytes += Buffer.byteLength(line);
    }
    writeFileSync(file, lines.join(''));
    const fd = openSync(file, 'r');
    const child = spawn(process.execPath, [BIN, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], {
      env: cleanEnv(), stdio: [fd, 'pipe', 'pipe'],
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sessionFile = JSON.parse(stdout.split('\n')[0]!).result.session_file as string;
    const records = readFileSync(sessionFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(records).toHaveLength(lines.length);
    let previous: string | null = null;
    records.forEach((r, i) => {
      expect(r.parentUuid).toBe(previous);
      previous = r.uuid;
      const event = JSON.parse(lines[i]!);
      if (event.type === 'tool_result') expect(r.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: event.id, content: event.content });
      if (event.type === 'tool_call') expect(r.message.content[0]).toMatchObject({ type: 'tool_use', id: event.id });
    });
  });

  test('SIGTERM during a threaded run writes the jobs under way, leaves whole records on one chain, exits 143', async () => {
    const root = tempDir();
    const dir = tempDir();
    const file = join(dir, 'big.ndjson');
    const line = ev({ type: 'assistant', text: `a reply ü ${'x'.repeat(400)}` });
    const lines = Math.ceil((40 * 1024 * 1024) / Buffer.byteLength(line));
    writeFileSync(file, line.repeat(lines));
    // The test holds the input: the bin's reads of stdin stop at a gate after 4 jobs (test/support/stdin-gate.mjs)
    // until the signal has been sent, so the run is under way when it comes, however fast or busy the machine.
    const gate = join(dir, 'gate');
    expect(spawnSync('mkfifo', [gate]).status).toBe(0);
    const fd = openSync(file, 'r');
    const child = spawn(process.execPath, ['--import', join(ROOT, 'test', 'support', 'stdin-gate.mjs'), BIN, '--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], {
      env: cleanEnv({ ASYNCAI_LOG_TEST_GATE: gate, ASYNCAI_LOG_TEST_GATE_AFTER: String(4 * JOB_BYTES) }), stdio: [fd, 'pipe', 'pipe'],
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Opening the gate's write end returns once the run waits at the gate.
    const door = await open(gate, 'w');
    child.kill('SIGTERM');
    await door.write(Buffer.from('go'));
    await door.close();
    expect(await closed, stderr).toBe(143);
    expect(stderr).toBe('');
    const sessionFile = JSON.parse(stdout.split('\n')[0]!).result.session_file as string;
    const text = readFileSync(sessionFile, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('asyncai-log-');
    const records = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    // The jobs read before the gate were written; the run stopped long before the end of the input.
    expect(records.length).toBeGreaterThanOrEqual(Math.floor((4 * JOB_BYTES - 64 * 1024) / Buffer.byteLength(line)));
    expect(records.length).toBeLessThan(lines);
    let previous: string | null = null;
    for (const r of records) {
      expect(r.parentUuid).toBe(previous);
      previous = r.uuid;
    }
  });

  test('--threads takes a whole number of 0 or more, for the filter and for read', async () => {
    for (const bad of ['-1', '1.5', 'many']) {
      for (const args of [['--threads', bad], ['read', '--threads', bad, 'some.jsonl']]) {
        const r = await runBin(args, { input: '' });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/--threads wants a whole number/);
      }
    }
  });

  test('read --threads 0 prints what read prints on threads', async () => {
    const root = tempDir();
    const lines: string[] = [];
    // A transcript of about 20 MB: read uses its threads from 16 MiB.
    for (let i = 0, bytes = 0; bytes < 9 * 1024 * 1024; i += 1) {
      lines.push(ev({ type: 'user', text: `q${i}` }), ev({ type: 'assistant', text: `a${i} ${'é'.repeat(i % 300)}` }));
      bytes += Buffer.byteLength(lines[lines.length - 1]!) + Buffer.byteLength(lines[lines.length - 2]!);
    }
    const wrote = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], { input: lines.join('') });
    expect(wrote.code).toBe(0);
    const file = JSON.parse(wrote.stdout.split('\n')[0]!).result.session_file as string;
    const threaded = await runBin(['read', file]);
    const alone = await runBin(['read', '--threads', '0', file]);
    expect(threaded.code).toBe(0);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe(threaded.stdout);
    expect(alone.stdout.split('\n').filter((l) => l !== '')).toHaveLength(lines.length);
  });
});
