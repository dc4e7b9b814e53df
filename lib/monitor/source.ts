// One monitor as the transcript sees it: a description, a task id, and the rule that turns a line of its
// output into a monitor event (trimmed, blank lines and Claude Code's own hint lines dropped, as the CLI
// does). Shared by command monitors and stdin in monitor mode; pure, no I/O.
import type { MonitorEndEvent, MonitorEvent } from '../events.js';
import { newTaskId } from './task-id.js';

/** Claude Code removes these control lines from monitor output before they become events. */
const HINT_LINE = /^[ \t]*<claude-code-hint[ \t][^>\r\n]*\/>[ \t]*$/;
const HINT_MAX = 1024;

/**
 * The event text of one output line, or undefined when the line makes no event. Claude Code trims each
 * line and skips empty ones and its own `<claude-code-hint .../>` lines; the rest is kept whole (the CLI
 * cuts lines at 500 characters, a transcript keeps what was printed).
 */
export function eventText(line: string): string | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  if (text.length <= HINT_MAX && HINT_LINE.test(text)) return undefined;
  return text;
}

/** One monitor's identity (description, task id) and the events it makes from lines of output. */
export class MonitorSource {
  /** Events made so far (for diagnostics). */
  events = 0;

  /**
   * @param description what the notifications call the monitor (default: its command line, or `stdin`)
   * @param taskId Claude Code-shaped task id; a fresh one by default
   */
  constructor(readonly description: string, readonly taskId: string = newTaskId()) {}

  /** The monitor event for one output line, or undefined when the line makes none. */
  event(line: string, timestamp: string): MonitorEvent | undefined {
    const text = eventText(line);
    if (text === undefined) return undefined;
    this.events += 1;
    return { type: 'monitor_event', event: text, description: this.description, task_id: this.taskId, timestamp };
  }

  /** The event that ends the monitor: its exit code, or `stopped` when it was ended from outside. */
  end(exitCode: number, stopped: boolean, timestamp: string): MonitorEndEvent {
    return {
      type: 'monitor_end', exit_code: exitCode, description: this.description, task_id: this.taskId, timestamp,
      ...(stopped ? { stopped: true } : {}),
    };
  }
}
