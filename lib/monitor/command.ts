// A command monitor: runs `<shell> -c <command>` in its own process group and turns every line it prints on
// stdout into a monitor event, written and flushed per chunk of output; its stderr goes to ours, line by line,
// prefixed with its description. When it ends, the terminal event; `stop()` ends the whole process group.
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import type { GenericEvent } from '../events.js';
import { LineSplitter } from '../lines/lines.js';
import { MonitorSource } from './source.js';
import { diagnosticLine } from '../util/shown-text.js';

/** Where monitor events go: the same writer as the input's events (one process, one ordered stream). */
export interface MonitorSink {
  /** Hand one event to the session; `where` locates it in diagnostics (`monitor "<description>":<line>`). */
  write(event: GenericEvent, where: string): void;
  /** Write out what the events so far produced: called once per chunk of output, never waiting for more. */
  flush(): void;
}

export interface CommandMonitorOptions {
  command: string;
  /** Default: the command line. */
  description?: string;
  /** Default: a fresh Claude Code-shaped task id. */
  taskId?: string;
  /** The shell that runs the command (`<shell> -c <command>`). */
  shell: string;
  cwd: string;
  env: Record<string, string | undefined>;
  maxLineBytes?: number;
  sink: MonitorSink;
  /** Receives the command's stderr, one whole prefixed line per write. */
  stderr: NodeJS.WritableStream;
  /** One diagnostic line, without the program prefix. */
  report: (message: string) => void;
  /** How long a stopped command has between SIGTERM and SIGKILL (default 1000 ms). */
  killGraceMs?: number;
}

/** How a command monitor ended. `started: false`: the shell could not be started (reported). */
export type MonitorExit =
  | { started: false }
  | { started: true; exitCode: number; stopped: boolean; signal: NodeJS.Signals | null };

export interface CommandMonitor {
  readonly source: MonitorSource;
  /** Process id of the shell, which leads the monitor's process group (undefined if it did not start). */
  readonly pid: number | undefined;
  /** Settles once the command ended, its last line and its terminal event are written. Never rejects. */
  readonly done: Promise<MonitorExit>;
  /** End the command: SIGTERM to its process group, SIGKILL after the grace period. Idempotent. */
  stop(): void;
}

const DEFAULT_KILL_GRACE_MS = 1000;
/** After SIGKILL, how long to wait for the pipes to close before closing them ourselves. */
const PIPE_GRACE_MS = 500;

/** Start a command monitor. Failures to start are reported and settle `done`; nothing throws. */
export function startCommandMonitor(options: CommandMonitorOptions): CommandMonitor {
  const source = new MonitorSource(options.description ?? options.command, options.taskId);
  const label = `monitor "${source.description}"`;
  const splitterOptions = options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {};
  const out = new LineSplitter(splitterOptions);
  const err = new LineSplitter(splitterOptions);
  let stopping = false;
  let settled = false;
  const timers: NodeJS.Timeout[] = [];

  let child: ChildProcess;
  let resolveDone!: (exit: MonitorExit) => void;
  const done = new Promise<MonitorExit>((resolve) => {
    resolveDone = resolve;
  });
  const settle = (exit: MonitorExit) => {
    if (settled) return;
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    resolveDone(exit);
  };

  try {
    child = process.getBuiltinModule('node:child_process').spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      // Its own process group (and session): stopping it reaches every process it started, and a Ctrl-C on
      // our terminal reaches us, not it, so what it printed last is still written.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    options.report(`${label}: cannot start: ${(error as Error).message}`);
    settle({ started: false });
    return { source, pid: undefined, done, stop: () => {} };
  }

  const writeLines = (lines: ReturnType<LineSplitter['push']>, now: string) => {
    for (const line of lines) {
      const where = `${label}:${line.no}`;
      if (line.text === undefined) {
        options.report(`${where}: line of ${line.bytes} bytes is over the limit; skipped`);
        continue;
      }
      if (line.invalidUtf8) options.report(`${where}: invalid UTF-8 replaced with U+FFFD`);
      const event = source.event(line.text, now);
      if (event) options.sink.write(event, where);
    }
  };

  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  // Records are written synchronously inside this handler, so nothing accumulates here: the next chunk is
  // read only after this one is on disk, and a command that prints forever is held back by the pipe.
  stdout.on('data', (chunk: Buffer) => {
    writeLines(out.push(chunk), new Date().toISOString());
    options.sink.flush();
    // Let the rest of the loop run before the next chunk: libuv reads a busy pipe up to 32 times in a row,
    // and a flooding command would otherwise hold back stdin events (and signals) for seconds.
    stdout.pause();
    setImmediate(() => stdout.resume());
  });
  stdout.on('end', () => {
    writeLines(out.end(), new Date().toISOString());
    options.sink.flush();
  });

  const forward = (lines: ReturnType<LineSplitter['push']>) => {
    let ok = true;
    for (const line of lines) {
      const text = line.text ?? `[line of ${line.bytes} bytes over the limit; skipped]`;
      ok = options.stderr.write(diagnosticLine(`${label}: ${text}`)) && ok;
    }
    // Wait for a slow stderr, never for a failed one (closed pipe, full disk): waiting there would block the
    // command on its own stderr pipe for good. Its lines are then lost; its events and its end are not.
    const target = options.stderr as NodeJS.WritableStream & { destroyed?: boolean; errored?: unknown };
    if (!ok && !target.destroyed && !target.errored && !stderr.isPaused()) {
      stderr.pause();
      const resume = () => {
        target.off('drain', resume);
        target.off('error', resume);
        target.off('close', resume);
        stderr.resume();
      };
      target.on('drain', resume);
      target.on('error', resume);
      target.on('close', resume);
    }
  };
  stderr.on('data', (chunk: Buffer) => forward(err.push(chunk)));
  stderr.on('end', () => forward(err.end()));
  // A pipe closed by force (see stop) may report an error: the monitor's end is reported by 'close'.
  stdout.on('error', () => {});
  stderr.on('error', () => {});

  child.on('error', (error) => {
    if (child.pid === undefined) {
      options.report(`${label}: cannot start ${options.shell}: ${error.message}`);
      settle({ started: false });
    } else {
      options.report(`${label}: ${error.message}`);
    }
  });

  child.on('close', (code, signal) => {
    if (settled) return;
    const exitCode = code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0);
    options.sink.write(source.end(exitCode, stopping, new Date().toISOString()), label);
    options.sink.flush();
    settle({ started: true, exitCode, stopped: stopping, signal });
  });

  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: every process of the group is gone already.
    }
  };

  const stop = () => {
    if (stopping || settled || child.pid === undefined) return;
    stopping = true;
    signalGroup('SIGTERM');
    timers.push(setTimeout(() => {
      signalGroup('SIGKILL');
      // A process that left the group may still hold the pipes open: stop waiting for it.
      timers.push(setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
      }, PIPE_GRACE_MS));
    }, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
  };

  return { source, pid: child.pid, done, stop };
}
