// The signals that end a run (SIGINT, SIGTERM and SIGHUP: a closed terminal, a dropped SSH connection) end
// each command the same way: the filter writes what it read and the monitors' stopped notices and keeps no
// empty session, convert finishes the files in progress, `read -` removes its temporary copy of stdin; the
// exit code is 128 + the signal's number.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, FIXTURES, tempDir } from '../support/run.js';
import { makeTree, manifestEntries, writeHugeLog } from '../convert/support.js';
import { finished, listTree, sessionFromStdout, spawnBin, transcriptState, until } from './support.js';

const SIGNALS = [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const;

/** The first stdout line of a live run (the session line, or convert's first report line). */
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
    const file = sessionFromStdout(await firstLine(live.child.stdout)).session_file;
    live.child.kill(signal);
    const exited = await finished(live);
    expect(exited.code).toBe(code);
    expect(listTree(root).filter((path) => path.endsWith('.jsonl'))).toEqual([]);
    expect(exited.stderr).toContain(`no events to write, so the session was not kept (removed ${file})`);
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

describe('convert on SIGHUP', () => {
  test('SIGHUP is SIGTERM: the file in progress is finished and recorded, the rest reported interrupted, exit 129', async () => {
    const tree = makeTree();
    for (let i = 0; i < 4; i += 1) writeHugeLog(join(tree.dir, 'big', `log-${i}.ndjson`), 3);
    const child = spawn(process.execPath, [BIN, 'convert', 'big', '--jobs', '1', '--session-dir', `claude-code-cli=${tree.root}`], {
      cwd: tree.dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    await until(() => stdout.includes('\n'), 60_000);
    child.kill('SIGHUP');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(129);
    expect(stderr).toContain('finishing the files in progress');
    const lines = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    const converted = lines.filter((l) => l.status === 'converted');
    expect(lines.filter((l) => l.status === 'skipped' && l.reason === 'interrupted').length).toBeGreaterThan(0);
    expect(manifestEntries(tree.root).map((e) => e.session_id).sort()).toEqual(converted.map((l) => l.harnesses[0].session_id).sort());
  }, 120_000);
});
