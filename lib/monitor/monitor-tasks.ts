// The task ids a harness gives monitor events, shared by every agent's mapper: an event's own id, else one
// drawn per description; and which tasks had output (their end says "stream ended", not "without output").
// Bounded, so memory stays flat however many monitors a stream names.
import { newTaskId } from './task-id.js';

const MAX_TASKS = 100_000;

export class MonitorTasks {
  private readonly ids = new Map<string, string>();
  private readonly withOutput = new Set<string>();

  /** The task id of an event: `given`, else the one drawn for `description` (drawn on first use). */
  idFor(description: string, given: string | undefined): string {
    if (given !== undefined) return given;
    let id = this.ids.get(description);
    if (id === undefined) {
      id = newTaskId();
      if (this.ids.size >= MAX_TASKS) this.ids.delete(this.ids.keys().next().value!);
      this.ids.set(description, id);
    }
    return id;
  }

  /** Task `id` had an event. */
  noteOutput(id: string): void {
    if (this.withOutput.has(id)) return;
    if (this.withOutput.size >= MAX_TASKS) this.withOutput.delete(this.withOutput.values().next().value!);
    this.withOutput.add(id);
  }

  hadOutput(id: string): boolean {
    return this.withOutput.has(id);
  }
}
