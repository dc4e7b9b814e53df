// What `read` writes: NDJSON to stdout with backpressure; a value that cannot be written is reported and
// skipped, and a closed stdout ends the output quietly.
import { drainedOrFailed } from '../util/drain.js';

/** NDJSON to stdout with backpressure; a closed stdout (EPIPE) ends the output quietly. */
export class Output {
  closed = false;
  /** The transcript being written out, for the report of a value that cannot be serialised. */
  source = '';
  constructor(private readonly stream: NodeJS.WritableStream, private readonly report: (message: string) => void) {
    stream.on('error', () => {
      this.closed = true;
    });
  }

  async write(value: unknown): Promise<void> {
    await this.writeAll([value]);
  }

  /** Write values as NDJSON lines in one write (a value that cannot be serialised is reported and skipped). */
  async writeAll(values: readonly unknown[]): Promise<void> {
    let text = '';
    for (const value of values) {
      try {
        text += `${JSON.stringify(value)}\n`;
      } catch (error) {
        this.unwritable(value, error as Error);
      }
    }
    await this.writeText(text);
  }

  /** Report a value JSON.stringify could not write (nested too deeply): it is skipped; the output goes on. */
  unwritable(value: unknown, error: Error): void {
    const type = (value as { type?: unknown }).type;
    this.report(`${this.source}: ${typeof type === 'string' ? `a ${type} event` : 'a value'} cannot be written as JSON (${error.message}); skipped`);
  }

  /** Write NDJSON text as it is, in one write. */
  async writeText(text: string | Buffer): Promise<void> {
    if (this.closed || text.length === 0) return;
    let ok: boolean;
    try {
      ok = this.stream.write(text);
    } catch {
      this.closed = true;
      return;
    }
    if (ok) return;
    await drainedOrFailed(this.stream);
  }
}
