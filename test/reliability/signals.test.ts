// The signals that end a run (SIGINT, SIGTERM and SIGHUP: a closed terminal, a dropped SSH connection) end
// each command the same way: the filter writes what it read and the monitors' stopped notices and keeps no
// empty session, `read -` removes its temporary copy of stdin (convert: test/convert/cli.test.ts "convert:
// signals"); the exit code is 128 + the signal's number.
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, readdirSync, readFileSync, readlinkSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, FIXTURES, tempDir } from '../support/run.js';
import { finished, listTree, sessionFromStdout, spawnBin, transcriptState, until } from './support.js';

const SIGNALS = [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const;

/** The first stdout line of a live run: the session line. */
function firstLine(stdout: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out);
    });
  });
}

describe('the filter on each signal before the first record', () => {
  test.each(SIGNALS)('%s: exit %i, and the session file made for no record is removed', async (signal, code) => {
    const root = tempDir();
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project']);
    const { session_id: id, session_file: file } = sessionFromStdout(await firstLine(live.child.stdout));
    live.child.kill(signal);
    const exited = await finished(live);
    expect(exited.code).toBe(code);
    expect(listTree(root).filter((path) => path.endsWith('.jsonl'))).toEqual([]);
    expect(exited.stderr).toContain(`no events to write, so session ${id} was not kept (removed ${file})`);
  });

  test.each(SIGNALS)('%s with a monitor: exit %i, the monitor\'s stopped notice is written, no empty file is left', async (signal, code) => {
    const root = tempDir();
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', '--monitor', 'exec sleep 300', '--monitor-description', 'waiting']);
    const file = sessionFromStdout(await firstLine(live.child.stdout)).session_file;
    live.child.kill(signal);
    const exited = await finished(live);
    expect(exited.code).toBe(code);
    const sessions = listTree(root).filter((path) => path.endsWith('.jsonl'));
    expect(sessions.every((path) => statSync(join(root, path)).size > 0)).toBe(true);
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(JSON.stringify(state.records.at(-1))).toContain('Monitor \\"waiting\\" stopped');
  });
});

describe('read - on each signal', () => {
  const transcript = join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');

  test.each(SIGNALS)('%s while stdin is being kept in a temporary copy: exit %i, the copy and its directory are removed', async (signal, code) => {
    const tmp = tempDir();
    const live = spawnBin(['read', '-'], { env: cleanEnv({ TMPDIR: tmp }) });
    const data = readFileSync(transcript);
    // The whole transcript, and stdin left open: the copy is complete on disk and still being kept.
    live.child.stdin.write(data);
    const copies = () => listTree(tmp).filter((path) => path.endsWith('.jsonl'));
    await until(() => copies().length === 1 && statSync(join(tmp, copies()[0]!)).size === data.length);
    expect(copies()).toHaveLength(1);
    live.child.kill(signal);
    const exited = await finished(live);
    expect(exited.code).toBe(code);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

/** A SIGHUP sent to process `pid` is not yet delivered (pending, in /proc/<pid>/status). */
function hangupPending(pid: number): boolean {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return ['SigPnd', 'ShdPnd'].some((field) => (BigInt(`0x${new RegExp(`^${field}:\\s+([0-9a-f]+)$`, 'm').exec(status)![1]}`) & 1n) !== 0n);
}

describe('a hangup said twice', () => {
  test('a second SIGHUP (the shell passing the kernel\'s on) does not end the run at once: the slow monitor\'s stopped notice is written, exit 129', async () => {
    const root = tempDir();
    // A monitor that ignores SIGTERM: stopping it takes the kill grace period, so a run ended at once loses its notice.
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project',
      '--monitor', 'trap "" TERM; echo up; while :; do sleep 1; done', '--monitor-description', 'stubborn']);
    const file = sessionFromStdout(await firstLine(live.child.stdout)).session_file;
    await until(() => readFileSync(file, 'utf8').includes('up'));
    live.child.kill('SIGHUP');
    // Two signals sent before the first is taken are one: the second goes once the first was delivered.
    await until(() => !hangupPending(live.child.pid!));
    live.child.kill('SIGHUP');
    const exited = await finished(live);
    expect(exited.code).toBe(129);
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(JSON.stringify(state.records.at(-1))).toContain('Monitor \\"stubborn\\" stopped');
  });
});

/** Process `pid` holds `path` open. */
function holds(pid: number, path: string): boolean {
  const dir = `/proc/${pid}/fd`;
  return readdirSync(dir).some((fd) => {
    try {
      return readlinkSync(join(dir, fd)) === path;
    } catch {
      return false;
    }
  });
}

describe('a FIFO named as input, with no writer yet', () => {
  // Opening it waits for a writer: an open that waits on Node's thread pool could not be ended, and even the
  // exit a signal asks for waited on that thread for ever. It is opened without waiting, and read as cat reads it.
  test.each([
    ['the filter', (fifo: string, root: string) => ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', fifo]],
    ['read', (fifo: string) => ['read', fifo]],
  ])('%s ends on each signal', async (_what, args) => {
    for (const [signal, code] of SIGNALS) {
      const dir = tempDir();
      const fifo = join(dir, 'events.fifo');
      execFileSync('mkfifo', ['-m', '600', fifo]);
      const live = spawnBin(args(fifo, join(dir, 'root')));
      await until(() => holds(live.child.pid!, fifo));
      live.child.kill(signal);
      const exited = await finished(live);
      expect(exited.code).toBe(code);
      expect(listTree(dir).filter((path) => path.endsWith('.jsonl'))).toEqual([]);
    }
  });

  test('the filter waits for the writer and reads what it writes', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'events.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const root = join(dir, 'root');
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', fifo]);
    await until(() => holds(live.child.pid!, fifo));
    const writer = openSync(fifo, 'w');
    writeSync(writer, readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson')));
    closeSync(writer);
    const exited = await finished(live);
    expect(exited.code).toBe(0);
    const file = sessionFromStdout(exited.stdout).session_file;
    expect(transcriptState(file).records.length).toBeGreaterThan(1);
  });
});
