// What a harness reopening a session of an earlier run needs (see HarnessFactory.reopen): which events that run
// wrote (mapped again, not written), and a read back of the file's last bytes of ours.
import type { AppendFile } from './append-file.js';

/** How much of a reopened session's end is read back: growing steps, up to the last. */
const TAIL_READS = [64 * 1024, 1024 * 1024, 64 * 1024 * 1024];

/** What `find` finds in the last complete lines of our own bytes of `file`, read back in growing steps. */
export function findInOwnTail<T>(file: AppendFile, find: (text: string) => T | undefined): T | undefined {
  for (const max of TAIL_READS) {
    const { text, fromStart } = file.ownTail(max);
    // A read that starts mid-file starts mid-line: that first piece is not a record.
    const found = find(fromStart ? text : text.slice(text.indexOf('\n') + 1));
    if (found !== undefined || fromStart) return found;
  }
  return undefined;
}

/**
 * The events a reopened session's earlier run wrote: all of them until `continueAfter(skip)`, then `skip`
 * more (SessionHarness.continueAfter). A new session replays nothing.
 */
export class Replay {
  private left: number | undefined;

  constructor(reopened: boolean) {
    if (reopened) this.left = Infinity;
  }

  /** Still replaying: nothing new was written yet. */
  get active(): boolean {
    return this.left !== undefined;
  }

  continueAfter(skip: number): void {
    if (this.left !== undefined) this.left = skip;
  }

  /** For the next event: `replay` (the earlier run's: map it only), `first` (the first new one), or `live`. */
  next(): 'replay' | 'first' | 'live' {
    if (this.left === undefined) return 'live';
    if (this.left > 0) {
      this.left -= 1;
      return 'replay';
    }
    this.left = undefined;
    return 'first';
  }
}
