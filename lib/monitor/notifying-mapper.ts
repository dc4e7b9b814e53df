// The monitor events of a mapper whose agent gives the model a notification as plain user-side text: the "not
// user input" preamble, then the task-notification XML Claude Code sends for the same event. Every agent but
// Claude Code (which has a record of its own for it) extends this rather than EventMapper.
import type { MonitorEndEvent, MonitorEvent } from '../events.js';
import { EventMapper } from '../session/event-mapper.js';
import { MonitorTasks } from './monitor-tasks.js';
import { PRE } from './notification.js';

export abstract class NotifyingMapper<R> extends EventMapper<R> {
  private readonly tasks = new MonitorTasks();

  /** Write `text`, a monitor notification, as the agent's user-side message at `timestamp`. */
  protected abstract notify(text: string, timestamp: string): R;

  protected monitorEvent(event: MonitorEvent): R {
    return this.notify(`${PRE}\n\n${this.tasks.eventText(event)}`, event.timestamp);
  }

  protected monitorEnd(event: MonitorEndEvent): R {
    return this.notify(`${PRE}\n\n${this.tasks.endText(event)}`, event.timestamp);
  }
}
