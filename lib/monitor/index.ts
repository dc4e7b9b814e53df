// Monitor sources (`--monitor "<command>"`): the specs the command line asks for, and a group of
// running command monitors that the filter waits for after its input ends, or stops on a signal.
import { startCommandMonitor, type CommandMonitor, type CommandMonitorOptions, type MonitorExit } from './command.js';

export { startCommandMonitor, type CommandMonitor, type CommandMonitorOptions, type MonitorExit, type MonitorSink } from './command.js';
export { MonitorSource, eventText } from './source.js';
export { newTaskId, isTaskId } from './task-id.js';

/** One monitor the command line asked for. `command` undefined: stdin is the monitored stream. */
export interface MonitorSpec {
  command?: string;
  description?: string;
}

/** The description stdin gets in monitor mode when none is given. */
export const STDIN_DESCRIPTION = 'stdin';

/**
 * Pair `--monitor` values with `--monitor-description` values by position: the n-th description belongs to
 * the n-th monitor. An empty `--monitor` value means stdin. Returns an error message for a usage error.
 */
export function monitorSpecs(commands: readonly string[], descriptions: readonly string[]): MonitorSpec[] | string {
  if (descriptions.length > commands.length) {
    return `--monitor-description given ${descriptions.length} times for ${commands.length} --monitor`;
  }
  if (commands.filter((c) => c === '').length > 1) return '--monitor without a command (stdin) given more than once';
  return commands.map((command, index) => {
    const description = descriptions[index];
    return {
      ...(command !== '' ? { command } : {}),
      ...(description !== undefined && description !== '' ? { description } : {}),
    };
  });
}

/** Running command monitors. */
export class MonitorGroup {
  readonly monitors: CommandMonitor[];

  constructor(commands: readonly { command: string; description?: string }[], common: Omit<CommandMonitorOptions, 'command' | 'description'>) {
    this.monitors = commands.map((spec) => startCommandMonitor({
      ...common,
      command: spec.command,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
    }));
  }

  /** Stop every monitor still running (SIGTERM to each process group, SIGKILL after the grace period). */
  stop(): void {
    for (const monitor of this.monitors) monitor.stop();
  }

  /**
   * Wait until every monitor has ended and its last records are written. If `signal` aborts first, the
   * monitors are stopped and still waited for. Resolves with each monitor's exit; never rejects.
   */
  async wait(signal?: AbortSignal): Promise<MonitorExit[]> {
    const stop = () => this.stop();
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    try {
      return await Promise.all(this.monitors.map((m) => m.done));
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }
}
