// The task ids a harness gives monitor events, shared by every agent's mapper: an event's own id, else one
// drawn per description; and which tasks had output (their end says "stream ended", not "without output").
// Bounded, so memory stays flat however many monitors a stream names.
import type { MonitorEndEvent, MonitorEvent } from '../events.js';
import { endNotification, eventNotification, monitorOutcome } from './notification.js';
import { newTaskId } from './task-id.js';
import { RecentMap, RecentSet } from '../util/recent.js';

const MAX_TASKS = 100_000;

export class MonitorTasks {
  private readonly ids = new RecentMap<string, string>(MAX_TASKS);
  private readonly withOutput = new RecentSet<string>(MAX_TASKS);

  /** The task id of an event: `given`, else the one drawn for `description` (drawn on first use). */
  idFor(description: string, given: string | undefined): string {
    if (given !== undefined) return given;
    let id = this.ids.get(description);
    if (id === undefined) {
      id = newTaskId();
      this.ids.set(description, id);
    }
    return id;
  }

  /** Task `id` had an event. */
  noteOutput(id: string): void {
    if (this.withOutput.has(id)) return;
    this.withOutput.add(id);
  }

  hadOutput(id: string): boolean {
    return this.withOutput.has(id);
  }

  /** The notification text the model sees for a monitor event (its task is then one that had output). */
  eventText(event: MonitorEvent): string {
    const description = event.description ?? 'monitor';
    const taskId = this.idFor(description, event.task_id);
    this.noteOutput(taskId);
    return eventNotification(taskId, description, event.event, event.note);
  }

  /** The notification text the model sees for a monitor's end. */
  endText(event: MonitorEndEvent): string {
    const description = event.description ?? 'monitor';
    const taskId = this.idFor(description, event.task_id);
    return endNotification(taskId, description, monitorOutcome(event, this.hadOutput(taskId)));
  }
}
