// End to end: the built bin with --monitor running real commands (several at once, one failing, one ended by
// SIGTERM or SIGINT), stdin in monitor mode through a real pipe, and the order of stdin events and monitor
// events in the transcript.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, cleanEnv, run, runBin, sessionOf, tempDir } from '../support/run.js';
import { args, ev, records, start, story, until } from './live-bin.js';
import { settledGroup } from './process-group.js';

describe('--monitor with commands', () => {
  test('several monitors run at once; each line is an event, each end its notification, stdin events are logged too', async () => {
    const root = tempDir();
    const r = await runBin(args(root,
      '--monitor', 'echo a1; echo a2', '--monitor-description', 'first',
      '--monitor', 'echo b1; exit 4',
      '--monitor', 'exit 0'), { input: ev({ type: 'user', text: 'hello' }) });
    expect(r.code).toBe(0);
    const labels = story(sessionOf(r).session_file);
    expect(labels).toContain('user:hello');
    expect(labels.filter((l) => l.startsWith('event:')).sort()).toEqual(['event:a1', 'event:a2', 'event:b1']);
    expect(labels.filter((l) => l.startsWith('end:')).sort()).toEqual([
      'end:completed:Monitor "exit 0" ended without producing output (exit 0)',
      'end:completed:Monitor "first" stream ended',
      'end:failed:Monitor "echo b1; exit 4" script failed (exit 4)',
    ]);
    expect(labels.indexOf('event:a1')).toBeLessThan(labels.indexOf('event:a2'));
    expect(labels.indexOf('event:a2')).toBeLessThan(labels.indexOf('end:completed:Monitor "first" stream ended'));
  });

  test('each monitor has its own task id in Claude Code form, shared by its events and its end', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'echo a', '--monitor', 'echo b'), { input: '' });
    const ids = records(sessionOf(r).session_file).filter((x) => x.type === 'attachment')
      .map((x) => [/<summary>Monitor(?: event:)? "(.*?)"/.exec(x.attachment.prompt)![1], /<task-id>(.*)<\/task-id>/.exec(x.attachment.prompt)![1]]);
    const byMonitor = new Map<string, Set<string>>();
    for (const [name, id] of ids) byMonitor.set(name!, (byMonitor.get(name!) ?? new Set()).add(id!));
    expect([...byMonitor.values()].map((s) => s.size)).toEqual([1, 1]);
    const [a, b] = [...byMonitor.values()].map((s) => [...s][0]!);
    expect(a).toMatch(/^b[a-z0-9]{8}$/);
    expect(b).toMatch(/^b[a-z0-9]{8}$/);
    expect(a).not.toBe(b);
  });

  test('monitor events are never turned into user turns', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'echo line'), { input: '' });
    const recs = records(sessionOf(r).session_file);
    expect(recs.filter((x) => x.type === 'user' || x.type === 'assistant')).toEqual([]);
    expect(recs.map((x) => x.type)).toEqual(['queue-operation', 'attachment', 'queue-operation', 'queue-operation', 'attachment', 'queue-operation']);
  });

  test('after stdin ends the monitors run on until they exit', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'sleep 0.5; echo late'), { input: '' });
    expect(r.code).toBe(0);
    expect(story(sessionOf(r).session_file)).toEqual(['event:late', 'end:completed:Monitor "sleep 0.5; echo late" stream ended']);
  });

  test("a monitor's stderr goes to stderr, prefixed with its description", async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'echo oops >&2', '--monitor-description', 'checker'), { input: '' });
    expect(r.stderr).toBe('asyncai-log: monitor "checker": oops\n');
  });

  test('a failing monitor does not fail the run: its failure is in the transcript', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'exit 9'), { input: ev({ type: 'user', text: 'x' }) });
    expect(r.code).toBe(0);
    expect(story(sessionOf(r).session_file)).toContain('end:failed:Monitor "exit 9" script failed (exit 9)');
  });

  test('monitors that cannot start are reported; the event stream is still logged', async () => {
    const root = tempDir();
    const r = await run(process.execPath, [BIN, ...args(root, '--monitor', 'echo a', '--monitor', 'echo b')], {
      env: cleanEnv({ SHELL: '/nonexistent/shell' }), input: ev({ type: 'user', text: 'still here' }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^asyncai-log: monitor "echo a": cannot start \/nonexistent\/shell: /),
      expect.stringMatching(/^asyncai-log: monitor "echo b": cannot start \/nonexistent\/shell: /),
    ]);
    expect(story(sessionOf(r).session_file)).toEqual(['user:still here']);
  });

  test('commands run in $SHELL, in the current directory', async () => {
    const root = tempDir();
    const cwd = tempDir();
    const r = await run(process.execPath, [BIN, ...args(root, '--monitor', 'echo "$0 $(pwd)"')], {
      cwd, env: cleanEnv({ SHELL: '/bin/bash' }), input: '',
    });
    expect(story(sessionOf(r).session_file)[0]).toBe(`event:/bin/bash ${cwd}`);
  });

  test('more --monitor-description than --monitor is a usage error and writes nothing', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', 'echo a', '--monitor-description', 'x', '--monitor-description', 'y'), { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("asyncai-log: --monitor-description given 2 times for 1 --monitor\nTry 'asyncai-log --help'.\n");
    expect(r.stdout).toBe('');
    expect(existsSync(join(root, 'projects'))).toBe(false);
  });
});

describe('stopping monitors', () => {
  test('SIGTERM ends a monitor that never exits: exit 143, its process group is gone, what arrived is written', async () => {
    const root = tempDir();
    const live = start(args(root, '--monitor', 'echo "pgid $$"; sleep 300 & wait', '--monitor-description', 'forever'), tempDir());
    const file = await live.session;
    live.child.stdin.write(ev({ type: 'user', text: 'before the signal' }));
    await until(() => story(file).some((l) => l.startsWith('event:pgid')) && story(file).includes('user:before the signal'));
    const pgid = Number(story(file).find((l) => l.startsWith('event:pgid'))!.split(' ')[1]);
    live.child.kill('SIGTERM');
    const { code } = await live.exit;
    expect(code).toBe(143);
    expect(await settledGroup(pgid)).toEqual([]);
    expect(story(file).filter((l) => !l.startsWith('event:pgid'))).toEqual(['user:before the signal', 'end:killed:Monitor "forever" stopped']);
  });

  test('SIGINT ends monitors too, with exit 130', async () => {
    const root = tempDir();
    const live = start(args(root, '--monitor', 'echo up; exec sleep 300'), tempDir());
    const file = await live.session;
    await until(() => story(file).includes('event:up'));
    live.child.kill('SIGINT');
    expect((await live.exit).code).toBe(130);
    expect(story(file)).toEqual(['event:up', 'end:killed:Monitor "echo up; exec sleep 300" stopped']);
  });

  test('SIGTERM while waiting for monitors after stdin ended stops them the same way', async () => {
    const root = tempDir();
    const live = start(args(root, '--monitor', 'echo up; exec sleep 300'), tempDir());
    const file = await live.session;
    live.child.stdin.end();
    await until(() => story(file).includes('event:up'));
    live.child.kill('SIGTERM');
    expect((await live.exit).code).toBe(143);
    expect(story(file)).toEqual(['event:up', 'end:killed:Monitor "echo up; exec sleep 300" stopped']);
  });
});

describe('order of stdin events and monitor events', () => {
  test('records appear in arrival order, each before the next input arrives', async () => {
    const root = tempDir();
    const dir = tempDir();
    const script = 'while [ ! -f go1 ]; do sleep 0.02; done; echo m1; while [ ! -f go2 ]; do sleep 0.02; done; echo m2';
    const live = start(args(root, '--monitor', script, '--monitor-description', 'gate'), dir);
    const file = await live.session;
    live.child.stdin.write(ev({ type: 'user', text: 'u1' }));
    await until(() => story(file).includes('user:u1'));
    writeFileSync(join(dir, 'go1'), '');
    await until(() => story(file).includes('event:m1'));
    live.child.stdin.write(ev({ type: 'assistant', text: 'a1' }));
    await until(() => story(file).includes('assistant:a1'));
    writeFileSync(join(dir, 'go2'), '');
    await until(() => story(file).includes('end:completed:Monitor "gate" stream ended'));
    live.child.stdin.end(ev({ type: 'user', text: 'u2' }));
    expect((await live.exit).code).toBe(0);
    expect(story(file)).toEqual(['user:u1', 'event:m1', 'assistant:a1', 'event:m2', 'end:completed:Monitor "gate" stream ended', 'user:u2']);
  });

  test('interleaved bursts from several monitors and stdin lose no line and never split one', async () => {
    const root = tempDir();
    const input = Array.from({ length: 2000 }, (_, i) => ev({ type: 'user', text: `u${i}` })).join('');
    const r = await runBin(args(root,
      '--monitor', 'seq -f "a%g" 1 20000', '--monitor', 'seq -f "b%g" 1 20000'), { input });
    expect(r.code).toBe(0);
    const labels = story(sessionOf(r).session_file); // parses every line: none is split or interleaved
    const of = (prefix: string) => labels.filter((l) => l.startsWith(prefix));
    expect(of('event:a')).toEqual(Array.from({ length: 20000 }, (_, i) => `event:a${i + 1}`));
    expect(of('event:b')).toEqual(Array.from({ length: 20000 }, (_, i) => `event:b${i + 1}`));
    expect(of('user:')).toEqual(Array.from({ length: 2000 }, (_, i) => `user:u${i}`));
  });
});

describe('stdin in monitor mode', () => {
  test('`cmd | asyncai-log --monitor`: each line of a real pipe is one event described "stdin", and the end closes it', async () => {
    const root = tempDir();
    const r = await run('/bin/sh', ['-c', `printf 'one\\r\\ntwo & <three>\\n\\n  four' | "${process.execPath}" "${BIN}" --session-dir "claude-code-cli=${root}" --cwd /home/user/project --monitor`], { env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const recs = records(sessionOf(r).session_file);
    expect(recs.filter((x) => x.type === 'attachment').map((x) => /<summary>.*<\/summary>/.exec(x.attachment.prompt)![0])).toEqual([
      '<summary>Monitor event: "stdin"</summary>', '<summary>Monitor event: "stdin"</summary>',
      '<summary>Monitor event: "stdin"</summary>', '<summary>Monitor "stdin" stream ended</summary>',
    ]);
    expect(story(sessionOf(r).session_file)).toEqual(['event:one', 'event:two &amp; &lt;three&gt;', 'event:four', 'end:completed:Monitor "stdin" stream ended']);
  });

  test('a JSON line on stdin in monitor mode is text, not an event', async () => {
    const root = tempDir();
    const line = ev({ type: 'user', text: 'not a turn' }).trim();
    const r = await runBin(args(root, '--monitor', '', '--monitor-description', 'agent log'), { input: `${line}\n` });
    const labels = story(sessionOf(r).session_file);
    expect(labels[0]).toBe(`event:${line.replace(/</g, '&lt;')}`);
    expect(labels.some((l) => l.startsWith('user:'))).toBe(false);
  });

  test('stdin monitor mode and command monitors run together', async () => {
    const root = tempDir();
    const r = await runBin(args(root, '--monitor', '--monitor', 'echo from-command'), { input: 'from-stdin\n' });
    expect(story(sessionOf(r).session_file).filter((l) => l.startsWith('event:')).sort()).toEqual(['event:from-command', 'event:from-stdin']);
  });
});

describe('monitor events in the event stream', () => {
  test('a monitor_event line writes the same triple as a monitored command', async () => {
    const root = tempDir();
    const r = await runBin(args(root), { input: [
      ev({ type: 'monitor_event', event: 'build & test', description: 'ci', task_id: 'bci000001' }),
      ev({ type: 'monitor_end', exit_code: 2, description: 'ci', task_id: 'bci000001' }),
    ].join('') });
    const recs = records(sessionOf(r).session_file);
    expect(recs.map((x) => x.type)).toEqual(['queue-operation', 'attachment', 'queue-operation', 'queue-operation', 'attachment', 'queue-operation']);
    expect(recs[1].attachment.prompt).toBe('<task-notification>\n<task-id>bci000001</task-id>\n<summary>Monitor event: "ci"</summary>\n<event>build &amp; test</event>\n</task-notification>');
    expect(recs[4].attachment.prompt).toBe('<task-notification>\n<task-id>bci000001</task-id>\n<status>failed</status>\n<summary>Monitor "ci" script failed (exit 2)</summary>\n</task-notification>');
  });
});
