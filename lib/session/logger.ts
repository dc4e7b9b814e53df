// The session logger: one writer that fans every event out to every configured harness.
// A harness whose file cannot be opened or written is reported once and dropped; the others go on.
import type { GenericEvent } from '../events.js';
import type { JsonSource } from '../json/raw-json.js';
import { EventRejected, type SessionHarness } from './types.js';

/** The first stdout line: which sessions this run writes (its shape: the README's "The session line"). */
export function sessionLine(harnesses: readonly SessionHarness[], agentName: string): string {
  const first = harnesses[0];
  return JSON.stringify({
    work_name: 'session',
    result: {
      session_id: first?.sessionId ?? null,
      session_file: first?.sessionFile ?? null,
      harness: first?.format ?? null,
      agent_name: agentName,
      harnesses: harnesses.map((h) => ({ format: h.format, session_id: h.sessionId, session_file: h.sessionFile })),
    },
  });
}

/** The line said for a format whose session could not be opened while others were. */
export function openFailure(format: string, root: string, error: Error): string {
  return `${format}: cannot create the session under ${root}: ${error.message}; the other sessions are written`;
}

export class SessionLogger {
  /** Replaced, never changed in place: a loop over it goes on over the harnesses it began with. */
  private active: readonly SessionHarness[];
  private writeFailed = false;

  /**
   * @param harnesses the sessions to write
   * @param report one diagnostic line (without the program prefix)
   */
  constructor(readonly harnesses: readonly SessionHarness[], private readonly report: (message: string) => void) {
    this.active = [...harnesses];
  }

  /** True once any harness failed to write: the run must end with exit 1. */
  get failed(): boolean {
    return this.writeFailed;
  }

  /**
   * Hand one event to every harness. Returns the reason when the event itself cannot be written
   * (the same for every harness, so it is reported once by the caller). `source` is the input line the
   * event was parsed from, when there is one.
   */
  write(event: GenericEvent, where: string, source?: JsonSource): string | undefined {
    let rejected: string | undefined;
    for (const harness of this.active) {
      try {
        harness.add(event, where, source);
      } catch (error) {
        if (error instanceof EventRejected) {
          rejected ??= error.message;
          harness.fidelity.dropEvent(event, 'cannot be written');
        } else {
          this.drop(harness, error);
        }
      }
    }
    return rejected;
  }

  /** Write what the harnesses queued: called once per input chunk. */
  flush(): void {
    for (const harness of this.active) {
      try {
        harness.flush();
      } catch (error) {
        this.drop(harness, error);
      }
    }
  }

  /**
   * Flush and close every harness; with `discardEmpty`, a session that holds no record is removed instead
   * (see SessionHarness.finishOrDiscard). Returns the harnesses whose files were removed.
   */
  finish(discardEmpty = false): SessionHarness[] {
    const removed: SessionHarness[] = [];
    for (const harness of this.active) {
      try {
        if (!discardEmpty || !harness.finishOrDiscard) harness.finish();
        else if (harness.finishOrDiscard()) removed.push(harness);
      } catch (error) {
        this.drop(harness, error);
      }
    }
    this.active = [];
    return removed;
  }

  /** A format whose session could not be opened (see openEachSession): said once; the run ends with exit 1. */
  refused(format: string, root: string, error: Error): void {
    this.writeFailed = true;
    this.report(openFailure(format, root, error));
  }

  private drop(harness: SessionHarness, error: unknown): void {
    this.active = this.active.filter((active) => active !== harness);
    this.writeFailed = true;
    const err = error as NodeJS.ErrnoException;
    this.report(`${harness.format}: cannot write ${harness.sessionFile}: ${err.message}; no further records are written to it`);
    try {
      harness.abandon();
    } catch {
      // Already failing; the report above is the one line the user gets.
    }
  }
}
