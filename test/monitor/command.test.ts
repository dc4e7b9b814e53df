// Command monitors with real child processes (through the library, not the bin): lines to events in order,
// awkward output (CRLF, invalid UTF-8, long lines, bursts, no final newline), stderr, exit codes, a shell
// that cannot start, and stopping a whole process group.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { GenericEvent, MonitorEndEvent, MonitorEvent } from '../../lib/events.js';
import { startCommandMonitor, type CommandMonitorOptions } from '../../lib/monitor/command.js';
import { monitorSpecs } from '../../lib/monitor/index.js';
import { eventText } from '../../lib/monitor/source.js';
import { settledGroup } from './process-group.js';

interface Run {
  events: MonitorEvent[];
  ends: MonitorEndEvent[];
  wheres: string[];
  flushes: number;
  reports: string[];
  stderr: string[];
}

function monitor(command: string, extra: Partial<CommandMonitorOptions> = {}) {
  const run: Run = { events: [], ends: [], wheres: [], flushes: 0, reports: [], stderr: [] };
  const stderr = new PassThrough();
  stderr.on('data', (d: Buffer) => run.stderr.push(d.toString('utf8')));
  const handle = startCommandMonitor({
    command,
    shell: '/bin/sh',
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    sink: {
      write(event: GenericEvent, where: string) {
        run.wheres.push(where);
        if (event.type === 'monitor_event') run.events.push(event);
        else if (event.type === 'monitor_end') run.ends.push(event);
      },
      flush() {
        run.flushes += 1;
      },
    },
    stderr,
    report: (message) => run.reports.push(message),
    ...extra,
  });
  return { handle, run };
}

describe('command monitor output', () => {
  test('every stdout line becomes one monitor event, in order, with the description and task id', async () => {
    const { handle, run } = monitor('echo one; echo two; echo three', { description: 'counter' });
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['one', 'two', 'three']);
    expect(run.events.every((e) => e.description === 'counter' && e.task_id === handle.source.taskId)).toBe(true);
    expect(handle.source.taskId).toMatch(/^b[a-z0-9]{8}$/);
  });

  test('the description defaults to the command line', async () => {
    const { handle, run } = monitor('echo x');
    await handle.done;
    expect(run.events[0]!.description).toBe('echo x');
  });

  test('CR before LF is dropped, lines are trimmed, blank lines make no event, as in Claude Code', async () => {
    const { handle, run } = monitor("printf 'a\\r\\n\\n   \\n  b  \\r\\n'");
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['a', 'b']);
  });

  test("Claude Code's own hint lines make no event", async () => {
    const { handle, run } = monitor("echo '<claude-code-hint v=\"1\" type=\"plugin\" value=\"x@y\" />'; echo real");
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['real']);
  });

  test('a last line without a newline is still an event', async () => {
    const { handle, run } = monitor("printf 'first\\nlast'");
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['first', 'last']);
  });

  test('invalid UTF-8 is replaced with U+FFFD and reported with the line number', async () => {
    const { handle, run } = monitor("printf 'ok\\n\\377bad\\n'", { description: 'bytes' });
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['ok', '\uFFFDbad']);
    expect(run.reports).toEqual(['monitor "bytes":2: invalid UTF-8 replaced with U+FFFD']);
  });

  test('a line of 2 MB is one event, kept whole', async () => {
    const { handle, run } = monitor("head -c 2000000 /dev/zero | tr '\\0' x; echo; echo after");
    await handle.done;
    expect(run.events.map((e) => e.event.length)).toEqual([2_000_000, 5]);
  });

  test('a line over the limit is reported and skipped; the lines around it are kept', async () => {
    const { handle, run } = monitor("echo before; head -c 5000 /dev/zero | tr '\\0' x; echo; echo after", { maxLineBytes: 1000, description: 'long' });
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['before', 'after']);
    expect(run.reports).toEqual(['monitor "long":2: line of 5000 bytes is over the limit; skipped']);
  });

  test('a burst of 50,000 lines loses none and keeps their order', async () => {
    const { handle, run } = monitor('seq 1 50000');
    await handle.done;
    expect(run.events).toHaveLength(50_000);
    expect(run.events.every((e, i) => e.event === String(i + 1))).toBe(true);
  });

  test('events are flushed per chunk of output, not per line', async () => {
    const { handle, run } = monitor('seq 1 50000');
    await handle.done;
    expect(run.flushes).toBeGreaterThan(0);
    expect(run.flushes).toBeLessThan(50_000);
  });

  test('each event is located as monitor "<description>":<line>', async () => {
    const { handle, run } = monitor('echo a; echo b', { description: 'd' });
    await handle.done;
    expect(run.wheres.slice(0, 2)).toEqual(['monitor "d":1', 'monitor "d":2']);
  });

  test('stderr lines go to stderr, whole and prefixed with the description, and make no event', async () => {
    const { handle, run } = monitor('echo out; echo oops >&2; printf part >&2; printf ial >&2', { description: 'noisy' });
    await handle.done;
    expect(run.stderr.join('')).toBe('asyncai-log: monitor "noisy": oops\nasyncai-log: monitor "noisy": partial\n');
    expect(run.events.map((e) => e.event)).toEqual(['out']);
  });
});

describe('command monitor lifecycle', () => {
  test('exit 0 ends with a monitor_end of exit code 0 after the last event', async () => {
    const { handle, run } = monitor('echo x');
    expect(await handle.done).toEqual({ started: true, exitCode: 0, stopped: false, signal: null });
    expect(run.ends).toEqual([expect.objectContaining({ type: 'monitor_end', exit_code: 0, task_id: handle.source.taskId })]);
    expect(run.ends[0]).not.toHaveProperty('stopped');
    expect(run.wheres.at(-1)).toBe('monitor "echo x"');
  });

  test('a failing command ends with its exit code', async () => {
    const { handle, run } = monitor('echo x; exit 7');
    await handle.done;
    expect(run.ends.map((e) => e.exit_code)).toEqual([7]);
  });

  test('a command killed from outside ends as failed with 128 + the signal number', async () => {
    const { handle, run } = monitor('kill -KILL $$');
    await handle.done;
    expect(run.ends.map((e) => [e.exit_code, e.stopped])).toEqual([[137, undefined]]);
  });

  test('a shell that cannot start is reported and writes nothing', async () => {
    const { handle, run } = monitor('echo x', { shell: '/nonexistent/shell', description: 'broken' });
    expect(await handle.done).toEqual({ started: false });
    expect(run.reports).toHaveLength(1);
    expect(run.reports[0]).toMatch(/^monitor "broken": cannot start \/nonexistent\/shell: .*ENOENT/);
    expect(run.events).toEqual([]);
    expect(run.ends).toEqual([]);
  });

  test('stop() ends the whole process group, background children included, and the end says stopped', async () => {
    const { handle, run } = monitor('sleep 300 & echo started; wait');
    const pgid = handle.pid!;
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (run.events.length > 0) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    handle.stop();
    const exit = await handle.done;
    expect(exit).toMatchObject({ started: true, stopped: true });
    expect(run.events.map((e) => e.event)).toEqual(['started']);
    expect(run.ends).toEqual([expect.objectContaining({ stopped: true })]);
    expect(await settledGroup(pgid)).toEqual([]);
  });

  test('a command that ignores SIGTERM is killed after the grace period', async () => {
    const { handle, run } = monitor("trap '' TERM; echo ready; while :; do sleep 1; done", { killGraceMs: 200 });
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (run.events.length > 0) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    handle.stop();
    expect(await handle.done).toMatchObject({ started: true, stopped: true, signal: 'SIGKILL' });
    expect(await settledGroup(handle.pid!)).toEqual([]);
  });

  test('the command runs with stdin closed, so it cannot take the event stream', async () => {
    const { handle, run } = monitor('cat; echo "cat ended"');
    await handle.done;
    expect(run.events.map((e) => e.event)).toEqual(['cat ended']);
  });
});

describe('monitor specs and lines', () => {
  test('descriptions pair with monitors by position; an empty --monitor is stdin', () => {
    expect(monitorSpecs(['tail -f a', '', 'b'], ['A', 'S'])).toEqual([
      { command: 'tail -f a', description: 'A' }, { description: 'S' }, { command: 'b' },
    ]);
  });

  test('more descriptions than monitors is a usage error', () => {
    expect(monitorSpecs(['a'], ['A', 'B'])).toBe('--monitor-description given 2 times for 1 --monitor');
  });

  test('stdin can be monitored only once', () => {
    expect(monitorSpecs(['', ''], [])).toBe('--monitor without a command (stdin) given more than once');
  });

  test('a line is trimmed into event text; a blank one makes none', () => {
    expect(eventText('  x y\t')).toBe('x y');
    expect(eventText(' \t ')).toBeUndefined();
  });
});
