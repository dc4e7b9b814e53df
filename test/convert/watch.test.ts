// `convert --watch`: after the first pass the bin keeps running and converts what is new or grew, one report
// line per change (a line still being written is taken once complete), until SIGINT (exit 130). The polling
// fallback does the same where no file system events are to be had.
import { afterEach, describe, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { watchConvert } from '../../lib/convert/index.js';
import { COMPACT_AFTER } from '../../lib/convert/watch.js';
import { BIN, cleanEnv, runBin, tempDir, until } from '../support/run.js';
import { manifestEntries, manifestFiles, records } from './support.js';

const ev = (o: object): string => `${JSON.stringify(o)}\n`;
const texts = (file: string) => records(file).filter((r: any) => r.type === 'user' || r.type === 'assistant')
  .flatMap((r: any) => (typeof r.message.content === 'string' ? [r.message.content] : r.message.content.map((c: any) => c.text)));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `convert --watch tree` in `dir` into the Claude Code root `root`: its output so far, and how it ended. */
function watchTree(dir: string, root: string) {
  const child = spawn(process.execPath, [BIN, 'convert', '--watch', 'tree', '--session-dir', `claude-code-cli=${root}`], {
    cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => { out.stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out.stderr += d.toString(); });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const lines = () => out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  return { child, out, exited, lines };
}

describe('convert --watch', () => {
  test('mirrors growth (a partial line once complete) and new files, one line per change; SIGINT ends it with 130', async () => {
    const dir = tempDir('asyncai-log-watch-');
    const root = join(dir, 'claude');
    mkdirSync(join(dir, 'tree'));
    const source = join(dir, 'tree', 'log.ndjson');
    writeFileSync(source, ev({ type: 'user', text: 'First question.' }) + ev({ type: 'assistant', text: 'First answer.' }));
    const { child, out, exited, lines } = watchTree(dir, root);

    await until(() => out.stderr.includes('asyncai-log: convert: watching tree (file system events; SIGINT or SIGTERM ends)\n'));
    expect(lines()).toHaveLength(1);
    const first = lines()[0];
    expect(first).toMatchObject({ source: join('tree', 'log.ndjson'), status: 'converted', reason: 'new' });
    const session = first.harnesses[0];
    expect(texts(session.session_file)).toEqual(['First question.', 'First answer.']);

    // The writer is in the middle of a line: what is complete is taken now, the rest when it ends.
    const third = ev({ type: 'assistant', text: 'Second answer.' });
    appendFileSync(source, ev({ type: 'user', text: 'Second question.' }) + third.slice(0, 20));
    await until(() => lines().length >= 2);
    expect(lines()[1]).toMatchObject({ source: join('tree', 'log.ndjson'), status: 'converted', reason: 'grew' });
    expect(lines()[1].harnesses[0].session_id).toBe(session.session_id);
    expect(texts(session.session_file)).toEqual(['First question.', 'First answer.', 'Second question.']);

    appendFileSync(source, third.slice(20));
    await until(() => lines().length >= 3);
    expect(lines()[2]).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(texts(session.session_file)).toEqual(['First question.', 'First answer.', 'Second question.', 'Second answer.']);

    // A new file in a new folder.
    mkdirSync(join(dir, 'tree', 'more'));
    writeFileSync(join(dir, 'tree', 'more', 'other.ndjson'), ev({ type: 'user', text: 'Another log.' }));
    await until(() => lines().length >= 4);
    expect(lines()[3]).toMatchObject({ source: join('tree', 'more', 'other.ndjson'), status: 'converted', reason: 'new' });
    expect(lines()).toHaveLength(4);

    child.kill('SIGINT');
    expect((await exited).code).toBe(130);
    expect(lines()).toHaveLength(4);
    expect(readFileSync(session.session_file, 'utf8')).toContain('Second answer.');
  }, 60_000);

  test('the polling fallback converts growth too and stops when aborted', async () => {
    const dir = tempDir('asyncai-log-watch-poll-');
    const root = join(dir, 'claude');
    const source = join(dir, 'log.ndjson');
    writeFileSync(source, ev({ type: 'user', text: 'First question.' }));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => { out += d.toString(); });
    stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const controller = new AbortController();
    const running = watchConvert({
      inputs: ['log.ndjson'], from: 'auto', formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root },
      agentName: 'asyncai-log', env: cleanEnv(), homedir: dir, processCwd: dir,
    }, { stdout, stderr, signal: controller.signal }, { forcePoll: true, pollMs: 50 });
    const lines = () => out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    await until(() => err.includes('listing again every 0.05 s'));
    expect(lines()).toMatchObject([{ status: 'converted', reason: 'new' }]);
    appendFileSync(source, ev({ type: 'assistant', text: 'First answer.' }));
    await until(() => lines().length >= 2);
    expect(lines()[1]).toMatchObject({ status: 'converted', reason: 'grew' });
    expect(texts(lines()[0].harnesses[0].session_file)).toEqual(['First question.', 'First answer.']);
    controller.abort();
    const summary = await running;
    expect(summary).toMatchObject({ code: 0, converted: 2, failed: 0 });
    expect(lines()).toHaveLength(2);
  }, 60_000);

  test('a file whose name is not UTF-8 is mirrored as it grows', async () => {
    const dir = tempDir('asyncai-log-watch-bytes-');
    const root = join(dir, 'claude');
    mkdirSync(join(dir, 'tree'));
    const name = Buffer.concat([Buffer.from(join(dir, 'tree', 'caf')), Buffer.from([0xe9, 0xff]), Buffer.from('.ndjson')]);
    writeFileSync(name, ev({ type: 'user', text: 'First question.' }));
    const { out, lines } = watchTree(dir, root);
    await until(() => out.stderr.includes('watching tree'));
    expect(lines()).toMatchObject([{ status: 'converted', reason: 'new' }]);
    appendFileSync(name, ev({ type: 'assistant', text: 'First answer.' }));
    await until(() => lines().length >= 2);
    expect(lines()[1]).toMatchObject({ status: 'converted', reason: 'grew', harnesses: [{ session_id: lines()[0].harnesses[0].session_id }] });
    expect(texts(lines()[0].harnesses[0].session_file)).toEqual(['First question.', 'First answer.']);
    expect(out.stderr).not.toContain('ENOENT');
  }, 60_000);

  test('twelve passes of a watch keep one error listener on stdout: no MaxListenersExceededWarning', async () => {
    const dir = tempDir('asyncai-log-watch-passes-');
    const root = join(dir, 'claude');
    const source = join(dir, 'log.ndjson');
    writeFileSync(source, ev({ type: 'user', text: 'Question 0.' }));
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => { out += d.toString(); });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      const running = watchConvert({
        inputs: ['log.ndjson'], from: 'auto', formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root },
        agentName: 'asyncai-log', env: cleanEnv(), homedir: dir, processCwd: dir,
      }, { stdout, stderr: new PassThrough(), signal: controller.signal }, { forcePoll: true, pollMs: 20 });
      const lines = () => out.split('\n').filter((l) => l !== '');
      await until(() => lines().length >= 1);
      const listeners = stdout.listenerCount('error');
      for (let n = 1; n <= 12; n += 1) {
        appendFileSync(source, ev({ type: n % 2 === 1 ? 'assistant' : 'user', text: `Turn ${n}.` }));
        await until(() => lines().length >= 1 + n);
      }
      expect(lines()).toHaveLength(13);
      controller.abort();
      await running;
      // A warning is emitted on the next tick: let it come before looking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(stdout.listenerCount('error')).toBe(listeners);
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);

  test('a long watch keeps a bounded number of manifest files; after kill -9 a new run still knows what was converted', async () => {
    const dir = tempDir('asyncai-log-watch-compact-');
    const root = join(dir, 'claude');
    mkdirSync(join(dir, 'tree'));
    const source = join(dir, 'tree', 'log.ndjson');
    const other = join(dir, 'tree', 'other.ndjson');
    writeFileSync(source, ev({ type: 'user', text: 'Question 0.' }));
    writeFileSync(other, ev({ type: 'user', text: 'Another log.' }));
    const { child, out, exited, lines } = watchTree(dir, root);
    await until(() => out.stderr.includes('watching tree'));
    const session = lines().find((l) => l.source === join('tree', 'log.ndjson')).harnesses[0];

    const changes = 4 * COMPACT_AFTER;
    let most = 0;
    for (let n = 1; n <= changes; n += 1) {
      appendFileSync(source, ev({ type: n % 2 === 1 ? 'assistant' : 'user', text: `Turn ${n}.` }));
      await until(() => lines().length >= 2 + n);
      expect(lines()[1 + n]).toMatchObject({ status: 'converted', reason: 'grew', harnesses: [{ session_id: session.session_id }] });
      most = Math.max(most, manifestFiles(root).length);
    }
    expect(out.stderr).not.toContain('cannot');
    // One file per pass would be changes + 1 of them. At most: the folded-in ones, the last pass's, and the
    // new one written before they go.
    expect(most).toBeLessThanOrEqual(COMPACT_AFTER + 2);
    expect(manifestFiles(root).length).toBeLessThanOrEqual(COMPACT_AFTER + 2);
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    // Both sources are still known, the grown one at its last size (read once the watch is gone: it may be
    // folding files together after its last report line).
    const entries = manifestEntries(root);
    expect(new Set(entries.map((e) => e.source)).size).toBe(2);
    const rerun = await runBin(['convert', 'tree', '--session-dir', `claude-code-cli=${root}`], { cwd: dir });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout.trim().split('\n').map((l) => JSON.parse(l))).toMatchObject([
      { source: join('tree', 'log.ndjson'), status: 'skipped', reason: 'unchanged' },
      { source: join('tree', 'other.ndjson'), status: 'skipped', reason: 'unchanged' },
    ]);
    appendFileSync(source, ev({ type: 'assistant', text: 'After the restart.' }));
    const grown = await runBin(['convert', 'tree', '--session-dir', `claude-code-cli=${root}`], { cwd: dir });
    expect(grown.stdout.trim().split('\n').map((l) => JSON.parse(l))[0]).toMatchObject({ status: 'converted', reason: 'grew', harnesses: [{ session_id: session.session_id }] });
    expect(texts(session.session_file)).toEqual(['Question 0.', ...Array.from({ length: changes }, (_, i) => `Turn ${i + 1}.`), 'After the restart.']);
  }, 120_000);
});
