// Faults from outside: SIGKILL at random points while writing (and the real claude resuming what was
// left), signals while monitors run, a full disk and a file-size limit, and closed or failing stdio. What
// was written is always whole records of an unbroken chain, at most the last line partial.
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startMockAnthropic, type MockAnthropic } from '../support/mock-anthropic.js';
import { BIN, cleanEnv, resumeWithClaude, run, tempDir } from '../support/run.js';
import { settledGroup } from '../monitor/process-group.js';
import {
  ev, feed, finished, listTree, scanTranscript, sessionFromStdout, spawnBin, transcriptState, until, withSeed, type Rng, type Spawned,
} from './support.js';

/** A stream of alternating user and assistant turns, each text starting with its marker, some of them large. */
function turns(rng: Rng, count: number): { data: Buffer; markers: string[] } {
  const lines: string[] = [];
  const markers: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const marker = `<${i}>`;
    markers.push(marker);
    const size = rng.chance(0.02) ? rng.between(20_000, 200_000) : rng.between(10, 2000);
    lines.push(ev({ type: i % 2 === 0 ? 'user' : 'assistant', text: `${marker} ${'w'.repeat(size)}` }));
  }
  return { data: Buffer.from(lines.join('')), markers };
}

function textOf(record: any): string {
  const c = record.message?.content;
  return typeof c === 'string' ? c : c?.[0]?.text ?? '';
}

/** The transcript is whole records of one unbroken chain whose texts are the first markers, in order. */
function expectIntactPrefix(file: string, markers: string[]): ReturnType<typeof transcriptState> {
  const state = transcriptState(file);
  expect(state.damaged).toEqual([]);
  const got = state.records.map((r) => textOf(r).split(' ')[0]);
  expect(got).toEqual(markers.slice(0, got.length));
  state.records.forEach((r, i) => expect(r.parentUuid).toBe(i === 0 ? null : state.records[i - 1].uuid));
  if (state.partial !== undefined) expect(state.partial.startsWith('{')).toBe(true);
  return state;
}

/** How many complete lines `file` holds (cheaper than parsing them while polling). */
function completeLines(file: string): number {
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch {
    return 0;
  }
  let n = 0;
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) n += 1;
  return n;
}

/**
 * Start the bin and keep feeding it `data` through a pipe (16 KiB at a time, as a producer would), so a kill
 * lands while it is reading and writing. The last line is held back until the process ends, so the run can
 * never finish before the kill, however fast the machine. Resolves once the transcript holds `atLeast`
 * records, so the kill can never come before the writing started, however slow the machine.
 */
async function startFeeding(root: string, cwd: string, data: Buffer, atLeast: number): Promise<{ spawned: Spawned; file: string }> {
  const spawned = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', cwd]);
  const file = await new Promise<string>((resolve) => {
    let out = '';
    spawned.child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(sessionFromStdout(out).session_file);
    });
  });
  const fed = data.subarray(0, data.lastIndexOf(10, data.length - 2) + 1);
  void (async () => {
    // Paced, so that the stream is still flowing whenever the kill comes.
    for (let offset = 0; offset < fed.length && spawned.child.exitCode === null && spawned.child.signalCode === null; offset += 16384) {
      if (!spawned.child.stdin.write(fed.subarray(offset, offset + 16384))) {
        await new Promise((resolve) => {
          spawned.child.stdin.once('drain', resolve);
          spawned.child.once('exit', resolve);
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  await until(() => completeLines(file) >= atLeast);
  return { spawned, file };
}

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
});

describe('SIGKILL at random points while writing', () => {
  test('after each of 24 kills every complete line is a valid record of an unbroken chain, in input order, at most the last line partial', async () => {
    await withSeed('SIGKILL', async (rng) => {
      let partials = 0;
      let midway = 0;
      for (let batch = 0; batch < 8; batch += 1) {
        // Three at a time: the machine has two cores, and a kill should land while the writer is busy.
        await Promise.all([0, 1, 2].map(async () => {
          const { data, markers } = turns(rng, 3000);
          const delay = rng.between(20, 400);
          const { spawned, file } = await startFeeding(tempDir(), '/home/user/project', data, 1);
          // A random moment of the writing (the run cannot have ended: its last line is held back).
          await new Promise((resolve) => setTimeout(resolve, delay));
          spawned.child.kill('SIGKILL');
          await spawned.exit;
          const state = expectIntactPrefix(file, markers);
          if (state.partial !== undefined) partials += 1;
          if (state.records.length > 0 && state.records.length < markers.length) midway += 1;
        }));
      }
      console.log(`SIGKILL: 24 runs, ${midway} killed mid-stream, ${partials} left a partial last line`);
      // The kills must have landed while writing, or the test proves nothing: startFeeding makes sure of it.
      expect(midway).toBe(24);
    });
  }, 120_000);

  test('the real claude --resume loads sessions killed mid-write and sends every complete record in order', async () => {
    await withSeed('SIGKILL resume', async (rng) => {
      let resumed = 0;
      for (let attempt = 0; attempt < 12 && resumed < 3; attempt += 1) {
        const { data, markers } = turns(rng, 400);
        const root = tempDir();
        const cwd = tempDir();
        const { spawned, file } = await startFeeding(root, cwd, data, 3);
        await new Promise((resolve) => setTimeout(resolve, rng.between(20, 150)));
        spawned.child.kill('SIGKILL');
        await spawned.exit;
        let state = expectIntactPrefix(file, markers);
        if (state.records.length < 3 || state.records.length === markers.length) continue;
        if (resumed > 0 && state.partial === undefined) {
          // What a kill inside the last write leaves (the window is microseconds, so it is made here): the
          // last record cut at a random byte.
          const text = readFileSync(file);
          const lastStart = text.lastIndexOf(10, text.length - 2) + 1;
          truncateSync(file, lastStart + rng.between(1, text.length - lastStart - 2));
          state = expectIntactPrefix(file, markers);
          expect(state.partial).toBeDefined();
        }
        const session = basename(file, '.jsonl');
        const before = mock.requests.length;
        const r = await resumeWithClaude({ configDir: root, cwd, session, baseUrl: mock.url });
        expect(r.stderr).toBe('');
        expect(r.stdout.trim()).toBe('resumed-ok');
        expect(mock.requests.length).toBeGreaterThan(before);
        const sent = (mock.requests.at(-1)!.body.messages as any[]).flatMap((m) => (typeof m.content === 'string'
          ? [m.content] : m.content.filter((b: any) => b.type === 'text').map((b: any) => b.text as string)));
        const conversation = sent.filter((t) => /^<\d+> /.test(t)).map((t) => t.split(' ')[0]);
        expect(conversation).toEqual(state.records.map((rec) => textOf(rec).split(' ')[0]));
        resumed += 1;
      }
      expect(resumed).toBe(3);
    });
  }, 120_000);
});

/**
 * Bytes appended to a growing file since the last call (a flooded transcript is too big to re-read).
 * `skipTo` moves past bytes not yet read: the reader can fall behind a flood, and what was written before a
 * point in time must not be counted as written after it.
 */
function tailer(file: string): (() => Buffer) & { skipTo: (position: number) => void } {
  let offset = 0;
  const skipTo = (position: number) => {
    offset = Math.max(offset, position);
  };
  return Object.assign(() => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return Buffer.alloc(0);
    }
    if (size <= offset) return Buffer.alloc(0);
    const fd = openSync(file, 'r');
    try {
      // At most 16 MiB a call: a flood written faster than this process scans it must not make one read of
      // hundreds of megabytes (a string of over 512 MiB cannot be made).
      const buf = Buffer.alloc(Math.min(size - offset, 16 * 1024 * 1024));
      const n = readSync(fd, buf, 0, buf.length, offset);
      offset += n;
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }, { skipTo });
}

/** Times `pattern` starts in `buf` at `from` or later (scanned natively: the flood comes at hundreds of MB/s). */
function occurrences(buf: Buffer, pattern: string, from: number): number {
  let count = 0;
  for (let at = buf.indexOf(pattern, from); at !== -1; at = buf.indexOf(pattern, at + pattern.length)) count += 1;
  return count;
}

describe('signals while monitors run', () => {
  const args = (root: string, ...more: string[]) => ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', ...more];

  test('SIGHUP stops the monitors (process group gone), writes what arrived and the stopped notification, and exits 129', async () => {
    const root = tempDir();
    const live = spawnBin(args(root, '--monitor', 'echo "pgid $$"; sleep 300 & wait', '--monitor-description', 'forever'));
    const first = await new Promise<string>((resolve) => live.child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const file = sessionFromStdout(first).session_file;
    live.child.stdin.write(ev({ type: 'user', text: 'before the hangup' }));
    const text = () => (transcriptState(file).records.map((r) => JSON.stringify(r)).join('\n'));
    await until(() => text().includes('pgid ') && text().includes('before the hangup'));
    const pgid = Number(/pgid (\d+)/.exec(text())![1]);
    live.child.kill('SIGHUP');
    const { code } = await finished(live);
    expect(code).toBe(129);
    expect(await settledGroup(pgid)).toEqual([]);
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(state.partial).toBeUndefined();
    expect(state.records.some((r) => r.type === 'user' && r.message.content === 'before the hangup')).toBe(true);
    expect(JSON.stringify(state.records.at(-1))).toContain('Monitor \\"forever\\" stopped');
  });

  test('SIGTERM while a monitor floods and stdin streams: stdin events keep their turn, every record is whole, the group is gone, exit 143', async () => {
    const root = tempDir();
    const live = spawnBin(args(root, '--monitor', 'echo "pgid $$"; exec yes flood-line', '--monitor-description', 'flood'), { sampleRss: true });
    // Whatever fails below, the flood stops: it would fill the disk.
    onTestFinished(() => {
      if (live.child.exitCode === null && live.child.signalCode === null) live.child.kill('SIGKILL');
    });
    const first = await new Promise<string>((resolve) => live.child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const file = sessionFromStdout(first).session_file;
    const tail = tailer(file);
    await until(() => tail().includes('flood-line'));
    const between: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      // How many monitor events are recorded after a stdin line is sent and before it is: a handful of the
      // flood's chunks at most, not the flood's whole backlog (fairness, counted in events, not time). The
      // count starts at the file's size when the line is sent: this reader may lag behind the flood, and what
      // it has not read yet was written before the line was sent.
      tail.skipTo(statSync(file).size);
      live.child.stdin.write(ev({ type: 'user', text: `stdin event ${i}` }));
      let count = 0;
      let found = false;
      // The last bytes read are read again with the next ones, so that a marker or a record type cut in two
      // is still found; what lies wholly in them was counted already.
      const attachment = '"type":"attachment"';
      let carry = Buffer.alloc(0);
      await until(() => {
        const text = Buffer.concat([carry, tail()]);
        const at = text.indexOf(`stdin event ${i}`);
        const before = at === -1 ? text : text.subarray(0, at);
        count += occurrences(before, attachment, Math.max(0, carry.length - attachment.length + 1));
        found = at !== -1;
        carry = text.subarray(Math.max(0, text.length - 64));
        return found;
      });
      expect(found).toBe(true);
      between.push(count);
    }
    live.child.kill('SIGTERM');
    const { code, peakRssKiB } = await finished(live);
    expect(code).toBe(143);
    const head = Buffer.alloc(100_000);
    const fd = openSync(file, 'r');
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const pgid = Number(/pgid (\d+)/.exec(head.toString('utf8'))![1]);
    expect(await settledGroup(pgid)).toEqual([]);
    // Read as bytes: on a busy machine the flood can pass V8's longest string before the signal.
    const state = scanTranscript(file, (r) => r.type === 'user');
    expect(state.damaged).toEqual([]);
    expect(state.partial).toBeUndefined();
    expect(state.kept.map((r) => r.message.content)).toEqual([0, 1, 2, 3, 4].map((i) => `stdin event ${i}`));
    expect(JSON.stringify(state.last)).toContain('Monitor \\"flood\\" stopped');
    console.log(`monitor flood: ${state.count} records, monitor events recorded while a stdin line waited: ${between.join(', ')}; peak RSS ${(peakRssKiB / 1024).toFixed(0)} MiB`);
    // One 64 KiB chunk of `yes` is about 5,900 lines; libuv alone would read 32 chunks (190,000 events) in a row.
    for (const n of between) expect(n).toBeLessThan(40_000);
    expect(peakRssKiB / 1024).toBeLessThan(400);
  });

  test('SIGINT with a monitor that ignores SIGTERM: it is killed after the grace period, what arrived is written, exit 130', async () => {
    const root = tempDir();
    const live = spawnBin(args(root, '--monitor', 'trap "" TERM; echo "pgid $$"; while :; do sleep 1; done'));
    const first = await new Promise<string>((resolve) => live.child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    const file = sessionFromStdout(first).session_file;
    await until(() => readFileSync(file, 'utf8').includes('pgid '));
    const pgid = Number(/pgid (\d+)/.exec(readFileSync(file, 'utf8'))![1]);
    live.child.kill('SIGINT');
    const { code } = await finished(live);
    expect(code).toBe(130);
    expect(await settledGroup(pgid)).toEqual([]);
    const state = transcriptState(file);
    expect(state.damaged).toEqual([]);
    expect(state.records.filter((r) => r.type === 'attachment')).toHaveLength(2);
  });
});

/** Mount a tmpfs of `size` at a fresh directory; undefined (with the reason) when mounting is not allowed here. */
function mountTmpfs(size: string): { dir: string; unmount: () => void } | { reason: string } {
  const dir = tempDir('asyncai-log-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    return { reason: `mount -t tmpfs is not allowed here (${String((error as Error).message).split('\n')[0]})` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir]);
      rmdirSync(dir);
    },
  };
}

describe('a full disk and a file-size limit', () => {
  test('a disk that fills mid-stream (64 KiB tmpfs): one clear ENOSPC diagnostic, exit 1, whole records before the failure', async (context) => {
    const tmpfs = mountTmpfs('64k');
    if ('reason' in tmpfs) {
      context.skip(tmpfs.reason);
      return;
    }
    try {
      const lines = Array.from({ length: 400 }, (_, i) => ev({ type: i % 2 ? 'assistant' : 'user', text: `<${i}> ${'d'.repeat(1000)}` }));
      const r = await run(process.execPath, [BIN, '--session-dir', `claude-code-cli=${tmpfs.dir}`, '--cwd', '/p'], { env: cleanEnv(), input: lines.join('') });
      expect(r.code).toBe(1);
      const errs = r.stderr.trim().split('\n');
      expect(errs).toHaveLength(1);
      expect(errs[0]).toMatch(/^asyncai-log: claude-code-cli: cannot write .*ENOSPC.*; no further records are written to it$/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const state = expectIntactPrefix(JSON.parse(r.stdout.split('\n')[0]!).result.session_file, lines.map((_, i) => `<${i}>`));
      expect(state.records.length).toBeGreaterThan(10);
      expect(state.records.length).toBeLessThan(400);
    } finally {
      tmpfs.unmount();
    }
  });

  test('a disk already full: the session cannot be written, one diagnostic, exit 1, no crash', async (context) => {
    const tmpfs = mountTmpfs('64k');
    if ('reason' in tmpfs) {
      context.skip(tmpfs.reason);
      return;
    }
    try {
      mkdirSync(join(tmpfs.dir, 'projects', '-p'), { recursive: true });
      // Fill it to the last byte.
      try {
        writeFileSync(join(tmpfs.dir, 'filler'), Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: full, as wanted.
      }
      const r = await run(process.execPath, [BIN, '--session-dir', `claude-code-cli=${tmpfs.dir}`, '--cwd', '/p'], { env: cleanEnv(), input: ev({ type: 'user', text: 'x'.repeat(5000) }) });
      expect(r.code).toBe(1);
      const errs = r.stderr.trim().split('\n');
      expect(errs).toHaveLength(1);
      expect(errs[0]).toMatch(/^asyncai-log: .*ENOSPC/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      tmpfs.unmount();
    }
  });

  test.for([
    ['claude-code-cli', 'projects'],
    ['codex-cli', 'sessions'],
    // Gemini's registry and its project marker are small files of their own, made before the chat.
    ['gemini-cli', '.'],
  ])('a disk already full (%s): no session file is left that never got a record', async ([format, below], context) => {
    const tmpfs = mountTmpfs('64k');
    if ('reason' in tmpfs) {
      context.skip(tmpfs.reason);
      return;
    }
    try {
      // Claude's file is created empty and its first write fails; Codex's session_meta line fails at once.
      try {
        writeFileSync(join(tmpfs.dir, 'filler'), Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: full, as wanted.
      }
      const r = await run(process.execPath, [BIN, '--session-format', format!, '--session-dir', `${format}=${tmpfs.dir}`, '--cwd', '/p'], { env: cleanEnv(), input: ev({ type: 'user', text: 'x'.repeat(5000) }) });
      context.expect(r.code).toBe(1);
      context.expect(r.stderr.trim().split('\n')).toHaveLength(1);
      context.expect(listTree(join(tmpfs.dir, below!)).filter((rel) => !rel.endsWith('/') && rel !== 'filler')).toEqual([]);
    } finally {
      tmpfs.unmount();
    }
  });

  test('over the file-size limit (ulimit -f) the transcript holds whole records up to the failure, at most the last line partial', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 50 }, (_, i) => ev({ type: i % 2 ? 'assistant' : 'user', text: `<${i}> ${'z'.repeat(1500)}` }));
    const input = join(tempDir(), 'in.ndjson');
    writeFileSync(input, lines.join(''));
    const r = await run('/bin/bash', ['-c', `ulimit -f 16; exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p < "${input}"`], { env: cleanEnv() });
    expect(r.code).toBe(1);
    const file = JSON.parse(r.stdout.split('\n')[0]!).result.session_file;
    const state = expectIntactPrefix(file, lines.map((_, i) => `<${i}>`));
    expect(state.records.length).toBeGreaterThan(0);
    // The limit cut the write that crossed it: the partial record is the last line, and nothing follows it.
    expect(state.partial).toBeDefined();
    expect(statSync(file).size).toBe(16 * 1024);
  });

  test('over the file-size limit while a monitor runs: one diagnostic (not one per event), exit 1 once the monitor ends', async () => {
    const root = tempDir();
    const r = await run('/bin/bash', ['-c', `ulimit -f 16; exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p --monitor "seq 1 3000" </dev/null`], { env: cleanEnv() });
    expect(r.code).toBe(1);
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^asyncai-log: claude-code-cli: cannot write .*EFBIG/);
    const state = transcriptState(JSON.parse(r.stdout.split('\n')[0]!).result.session_file);
    expect(state.damaged).toEqual([]);
  });
});

describe('closed and failing stdio', () => {
  const input = ev({ type: 'user', text: 'a' }) + 'not json\n' + ev({ type: 'assistant', text: 'b' });

  async function shell(redirects: string, root: string): Promise<{ code: number | null; stderr: string }> {
    const file = join(tempDir(), 'in.ndjson');
    writeFileSync(file, input);
    const r = await run('/bin/bash', ['-c', `exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p < "${file}" ${redirects}`], { env: cleanEnv() });
    return { code: r.code, stderr: r.stderr };
  }

  function onlySession(root: string): ReturnType<typeof transcriptState> {
    const dir = join(root, 'projects', '-p');
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    return transcriptState(join(dir, names[0]!));
  }

  test('a closed stdout (fd 1 closed before the start) writes the whole transcript, exit 0', async () => {
    const root = tempDir();
    const r = await shell('>&-', root);
    expect(r.code).toBe(0);
    expect(onlySession(root).records.map(textOf)).toEqual(['a', 'b']);
  });

  test('stdout and stderr on a full device (/dev/full): the transcript is whole, no crash, exit 0', async () => {
    const root = tempDir();
    const r = await shell('>/dev/full 2>/dev/full', root);
    expect(r.code).toBe(0);
    expect(onlySession(root).records.map(textOf)).toEqual(['a', 'b']);
  });

  test('a stdout reader that is gone before the session line: the transcript is whole, exit 0, no EPIPE noise', async () => {
    const root = tempDir();
    const file = join(tempDir(), 'in.ndjson');
    writeFileSync(file, input);
    // stdout is a FIFO whose only reader opened it and has exited (waited for, not slept on) before the start.
    const out = join(tempDir(), 'out');
    const r = await run('/bin/bash', ['-c', `mkfifo "${out}" || exit 1; ( exec <"${out}" ) & reader=$!; exec 3>"${out}"; wait $reader; `
      + `"${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p < "${file}" >&3 3>&-; echo "exit=$?"`], { env: cleanEnv() });
    expect(r.stdout.trim()).toBe('exit=0');
    expect(r.stderr).toBe('asyncai-log: stdin:2: invalid JSON: Unexpected token \'o\': "not json"\n');
    expect(onlySession(root).records.map(textOf)).toEqual(['a', 'b']);
  });

  test('a closed stdin (fd 0 closed) is empty input: exit 0, and the empty session is not kept', async () => {
    const root = tempDir();
    const r = await run('/bin/bash', ['-c', `exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p <&-`], { env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(readdirSync(join(root, 'projects', '-p'))).toEqual([]);
    expect(r.stderr).toMatch(/^asyncai-log: no events to write, so session [0-9a-f-]{36} was not kept \(removed .*\.jsonl\)\n$/);
  });

  test('stdin that ends in the middle of a line (the writer died): the complete events are written, the cut line gets one diagnostic', async () => {
    const root = tempDir();
    const live = spawnBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p']);
    await feed(live.child, Buffer.from(`${ev({ type: 'user', text: 'whole' })}{"type":"assistant","te`));
    const { code, stdout, stderr } = await finished(live);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^asyncai-log: stdin:2: invalid JSON: [^\n]*\n$/);
    expect(transcriptState(sessionFromStdout(stdout).session_file).records.map(textOf)).toEqual(['whole']);
  });

  test('a monitor flooding its stderr while our stderr is a full device does not hang the run', async () => {
    const root = tempDir();
    const r = await run('/bin/bash', ['-c', `exec "${process.execPath}" "${BIN}" --session-dir claude-code-cli="${root}" --cwd /p --monitor 'i=0; while [ $i -lt 5000 ]; do echo "err $i" >&2; echo "out $i"; i=$((i+1)); done' </dev/null 2>/dev/full`], { env: cleanEnv() });
    expect(r.code).toBe(0);
    const state = onlySession(root);
    expect(state.records.filter((rec) => rec.type === 'attachment')).toHaveLength(5001);
  });
});
