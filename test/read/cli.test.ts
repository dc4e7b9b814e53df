// `asyncai-log read` end to end: the built bin with a fixed environment; stdout, stderr and exit codes.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv, FIXTURES, run, runBin, tempDir } from '../support/run.js';
import { assistant, SID, text, toolResult, toolUse, user, writeTranscript } from '../agents/claude-code-cli/reader/support.js';

const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const SUBAGENT = join(FIXTURES, 'claude-code-cli', 'subagent', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000002.jsonl');

function simple(): string {
  return writeTranscript([user('u1', null, 'hi'), assistant('a1', 'u1', [text('hello')])]);
}

/** A config root holding one session under projects/<dir>/. */
function rootWithSession(): string {
  const root = tempDir();
  writeTranscript([user('u1', null, 'found by id')], { dir: join(root, 'projects', '-home-user-project') });
  return root;
}

describe('asyncai-log read', () => {
  test('prints the conversation of a transcript as generic events, one per line', async () => {
    const r = await runBin(['read', simple()]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(lines(r.stdout).map((e) => [e.type, e.text])).toEqual([['user', 'hi'], ['assistant', 'hello']]);
  });

  test('a bare session uuid is looked up under --session-dir claude-code-cli=<root>', async () => {
    const r = await runBin(['read', SID, '--session-dir', `claude-code-cli=${rootWithSession()}`]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toMatchObject({ type: 'user', text: 'found by id' });
  });

  test('--session-dir before the inputs takes one value: the inputs after it are still read', async () => {
    const r = await runBin(['read', '--session-dir', `claude-code-cli=${rootWithSession()}`, SID]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toMatchObject({ type: 'user', text: 'found by id' });
  });

  test('a bare session uuid is looked up under $CLAUDE_CONFIG_DIR', async () => {
    const r = await runBin(['read', SID], { env: cleanEnv({ CLAUDE_CONFIG_DIR: rootWithSession() }) });
    expect(lines(r.stdout)[0]).toMatchObject({ text: 'found by id' });
  });

  test('a bare session uuid is looked up under ~/.claude without $CLAUDE_CONFIG_DIR', async () => {
    const home = tempDir();
    writeTranscript([user('u1', null, 'in home')], { dir: join(home, '.claude', 'projects', '-p') });
    const r = await runBin(['read', SID], { env: { ...cleanEnv(), HOME: home } });
    expect(lines(r.stdout)[0]).toMatchObject({ text: 'in home' });
  });

  test('--session-dir is preferred to $CLAUDE_CONFIG_DIR', async () => {
    const r = await runBin(['read', SID, '--session-dir', `claude-code-cli=${rootWithSession()}`], { env: cleanEnv({ CLAUDE_CONFIG_DIR: tempDir() }) });
    expect(lines(r.stdout)[0]).toMatchObject({ text: 'found by id' });
  });

  test('an unknown session uuid exits 1 after reading the other transcripts', async () => {
    const root = tempDir();
    const r = await runBin(['read', 'aaaaaaaa-0000-4000-8000-000000000000', simple(), '--session-dir', `claude-code-cli=${root}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^asyncai-log: aaaaaaaa-0000-4000-8000-000000000000: no session of this id under ${join(root, 'projects')}, [^\n]+\n$`));
    expect(lines(r.stdout)).toHaveLength(2);
  });

  test('an argument that is not a uuid is a path, never a lookup', async () => {
    const root = rootWithSession();
    const r = await runBin(['read', `../${SID}`, '--session-dir', `claude-code-cli=${root}`], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`asyncai-log: ${join(root, '..', SID)}: cannot be read: no such file\n`);
  });

  test('a missing file exits 1 with one line on stderr', async () => {
    const r = await runBin(['read', '/nonexistent/x.jsonl']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('asyncai-log: /nonexistent/x.jsonl: cannot be read: no such file\n');
  });

  test('warnings name the file and line on stderr and the exit code stays 0', async () => {
    const path = writeTranscript([user('u1', null, 'hi'), '{"type":"user","message":{"ro']);
    const r = await runBin(['read', path]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`asyncai-log: ${path}:2: the last line is cut off (an interrupted write); the session is partial\n`);
    expect(lines(r.stdout)).toHaveLength(1);
  });

  test('--usage prints one JSON object per transcript', async () => {
    const path = writeTranscript([assistant('a1', null, [text('a')], { id: 'm1' }), assistant('a2', 'a1', [toolUse('c')], { id: 'm1' })]);
    const r = await runBin(['read', '--usage', path]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([{ session_id: SID, responses: 1, input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, by_model: { 'claude-opus-5-5': { input_tokens: 10, output_tokens: 5 } } }]);
  });

  test('--usage --subagents adds each subagent\'s totals', async () => {
    const r = await runBin(['read', '--usage', '--subagents', SUBAGENT]);
    const [totals] = lines(r.stdout);
    expect(totals.subagents).toHaveLength(1);
    expect(totals.subagents[0]).toMatchObject({ agent_id: expect.any(String), responses: 2 });
  });

  test('--tree prints one line per branch', async () => {
    const path = writeTranscript([user('u1', null, 'a'), assistant('a1', 'u1', [text('x')]), assistant('a2', 'u1', [text('y')])]);
    const r = await runBin(['read', '--tree', path]);
    expect(lines(r.stdout).map((b) => [b.session_id, b.leaf, b.resumed, b.forks_from])).toEqual([[SID, 'a1', false, 'u1'], [SID, 'a2', true, null]]);
  });

  test('--branch reads another branch, and an unknown one exits 1', async () => {
    const path = writeTranscript([user('u1', null, 'a'), assistant('a1', 'u1', [text('x')]), assistant('a2', 'u1', [text('y')])]);
    const r = await runBin(['read', '--branch', 'a1', path]);
    expect(lines(r.stdout).map((e) => e.text)).toEqual(['a', 'x']);
    const bad = await runBin(['read', '--branch', 'nope', path]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`asyncai-log: ${path}: no record with uuid "nope" (--branch)\n`);
  });

  test('--events adds the context records', async () => {
    const r = await runBin(['read', '--events', SUBAGENT]);
    expect(lines(r.stdout).some((e) => e.type === 'context' && e.kind === 'attachment')).toBe(true);
    const plain = await runBin(['read', SUBAGENT]);
    expect(lines(plain.stdout).some((e) => e.type === 'context')).toBe(false);
  });

  test('--subagents prints each subagent after the session, headed by a context event, every event marked', async () => {
    const r = await runBin(['read', '--subagents', SUBAGENT]);
    const events = lines(r.stdout);
    const start = events.findIndex((e) => e.agent_id !== undefined);
    expect(events.slice(0, start).every((e) => e.agent_id === undefined)).toBe(true);
    expect(events[start]).toMatchObject({ type: 'context', kind: 'subagent', subtype: 'general-purpose', text: 'Count files', data: { toolUseId: 'toolu_fixture_agent' } });
    const agent = events[start].agent_id;
    expect(events.slice(start).every((e) => e.agent_id === agent)).toBe(true);
    expect(events.slice(start + 1).map((e) => e.type)).toEqual(['user', 'tool_call', 'tool_result', 'assistant']);
  });

  test('--no-spills keeps spilled-output pointers', async () => {
    const file = join(tempDir(), SID, 'tool-results', 'out.txt');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'full');
    const path = writeTranscript([user('r1', null, [toolResult('c1', `Full output saved to: ${file}`)])]);
    expect(lines((await runBin(['read', path])).stdout)[0].content).toBe('full');
    expect(lines((await runBin(['read', '--no-spills', path])).stdout)[0].content).toBe(`Full output saved to: ${file}`);
  });

  test('--usage and --tree together are a usage error', async () => {
    const r = await runBin(['read', '--usage', '--tree', simple()]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe("asyncai-log: --usage and --tree cannot be combined\nTry 'asyncai-log read --help'.\n");
  });

  test('a malformed --session-dir is a usage error', async () => {
    const r = await runBin(['read', SID, '--session-dir', 'claude-code-cli']);
    expect(r.code).toBe(2);
  });

  test('read without a transcript is a usage error', async () => {
    const r = await runBin(['read']);
    expect(r.code).toBe(2);
  });

  test('a closed stdout ends the output quietly', async () => {
    const many = [user('u0', null, 'start')];
    for (let i = 1; i < 3000; i += 1) many.push(user(`u${i}`, `u${i - 1}`, `line ${i} ${'x'.repeat(200)}`));
    const path = writeTranscript(many);
    const child = spawn(process.execPath, [BIN, 'read', path], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });

  test('a slow reader of a pipe gets every byte: the process exits only once its output is written', async () => {
    // Output goes a chunk of the file at a time, the last one small: queued behind a full pipe, it is under
    // the stream's high-water mark (64 KiB from Node 22), so nothing says it waits, and exiting cut it off.
    const many = [user('u0', null, 'start')];
    let bytes = 0;
    for (let i = 1; bytes < 2 * 1024 * 1024 + 30_000; i += 1) {
      many.push(user(`u${i}`, `u${i - 1}`, `line ${i} ${'x'.repeat(900)}`));
      bytes += JSON.stringify(many[i]).length + 1;
    }
    const path = writeTranscript(many);
    // A shell pipe (spawn's own stdio is a socket pair, whose buffer takes the whole output), read slowly so
    // it stays full while the bin writes.
    const slow = "process.stdin.on('data', (d) => { process.stdout.write(d); process.stdin.pause(); setTimeout(() => process.stdin.resume(), 20); })";
    const r = await run('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" read "${path}" | "${process.execPath}" -e "${slow}"; echo "exit=\${PIPESTATUS[0]}" >&2`], { env: cleanEnv() });
    expect(r.stderr).toBe('exit=0\n');
    expect(lines(r.stdout).map((e) => e.text)).toEqual(many.map((record) => (record.message as { content: string }).content));
  });

  test('read output piped back into the filter makes a transcript that reads the same', async () => {
    const path = join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');
    const first = await runBin(['read', path]);
    const root = tempDir();
    const written = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], { input: first.stdout });
    expect(written.code).toBe(0);
    const file = JSON.parse(written.stdout.split('\n')[0]!).result.session_file as string;
    const again = await runBin(['read', file]);
    expect(lines(again.stdout)).toEqual(lines(first.stdout));
  });

  test('a project directory named like a session is not mistaken for one', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'projects', `${SID}.jsonl`), { recursive: true });
    const r = await runBin(['read', SID, '--session-dir', `claude-code-cli=${root}`]);
    expect(r.code).toBe(1);
  });
});
