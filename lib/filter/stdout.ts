// The filter's stdout: the session line, then (with --echo) the input as it was read. A closed stdout (EPIPE)
// only stops what goes there, never the run.
import { drainedOrFailed } from '../util/drain.js';

/** Writes stdout without ever failing the run: a closed stdout (EPIPE) only stops what goes there. */
export class Stdout {
  closed = false;
  /** With --echo, bytes read before the session line could be printed wait here (only until the first line). */
  private held: Buffer[] = [];

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', () => {
      this.closed = true;
    });
  }

  write(data: string | Buffer): boolean {
    if (this.closed) return true;
    try {
      return this.stream.write(data);
    } catch {
      this.closed = true;
      return true;
    }
  }

  drain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return drainedOrFailed(this.stream);
  }

  /** Keep echoed input until the session line is out (`release`). */
  hold(chunk: Buffer): void {
    this.held.push(chunk);
  }

  /** Write the echoed input held so far. */
  release(): void {
    for (const chunk of this.held) this.write(chunk);
    this.held = [];
  }
}
