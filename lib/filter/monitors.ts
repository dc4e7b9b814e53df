// The filter's monitors: command monitors whose stdout lines become monitor events, and stdin as a monitored
// stream (`--monitor` without a command). Every source writes through the same logger as the input, from
// the same (single) thread, so records land in arrival order and each source's chunk is flushed at once.
import { MonitorGroup, MonitorSource, STDIN_DESCRIPTION, type MonitorSink } from '../monitor/index.js';
import type { StdinMonitor } from './lines.js';
import type { FilterSession } from './session.js';
import type { FilterOptions } from './types.js';

export class FilterMonitors {
  /** Stdin as a monitored stream, when a spec without a command asks for it. */
  readonly stdin: StdinMonitor | undefined;
  private group: MonitorGroup | undefined;
  private readonly sink: MonitorSink;

  constructor(private readonly options: FilterOptions, private readonly session: FilterSession) {
    this.sink = {
      write(event, where) {
        const rejected = session.write(event, where);
        if (rejected !== undefined) session.report(`${where}: ${rejected}`);
      },
      flush: () => session.logger?.flush(),
    };
    const stdinSpec = (options.monitors ?? []).find((spec) => spec.command === undefined);
    if (stdinSpec) this.stdin = { source: new MonitorSource(stdinSpec.description ?? STDIN_DESCRIPTION), sink: this.sink };
  }

  /** Monitors were asked for: they write from the start, so the session opens before any input is read. */
  get wanted(): boolean {
    return (this.options.monitors ?? []).length > 0;
  }

  /** Start the command monitors (the session is open). */
  start(stderr: NodeJS.WritableStream): void {
    const options = this.options;
    const commands = (options.monitors ?? []).flatMap((spec) => (spec.command !== undefined
      ? [{ command: spec.command, ...(spec.description !== undefined ? { description: spec.description } : {}) }]
      : []));
    if (commands.length === 0) return;
    this.group = new MonitorGroup(commands, {
      shell: options.shell ?? '/bin/sh',
      cwd: options.processCwd,
      env: options.env,
      sink: this.sink,
      stderr,
      report: this.session.report,
      ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
      ...(options.monitorKillGraceMs !== undefined ? { killGraceMs: options.monitorKillGraceMs } : {}),
    });
  }

  /**
   * The input ended: stdin's monitor ends (its end event says how), and command monitors run on until they
   * exit; a signal (or a failed run) stops them, and what they printed until then is still written.
   */
  async end(inputName: string, signal: AbortSignal | undefined): Promise<void> {
    const result = this.session.result;
    if (this.stdin) {
      this.sink.write(this.stdin.source.end(result.code === 0 ? 0 : 1, result.aborted, new Date().toISOString()), inputName);
      this.sink.flush();
    }
    if (!this.group) return;
    if (result.aborted || result.code !== 0) this.group.stop();
    await this.group.wait(signal);
    if (signal?.aborted) result.aborted = true;
  }
}
