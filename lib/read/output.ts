// What `read` writes: NDJSON to stdout with backpressure; a value that cannot be written is reported and
// skipped, and a closed stdout ends the output quietly.
import { drainedOrFailed } from '../util/drain.js';
import { elementsOf, ELEMENT_KINDS, type ElementKind } from '../session/fidelity.js';
import type { GenericEvent } from '../events.js';

/** An account as written: its kinds in ELEMENT_KINDS order. */
export function orderedAccount(account: ReadAccount): ReadAccount {
  const elements = Object.fromEntries(ELEMENT_KINDS.filter((k) => account.elements[k] !== undefined).map((k) => [k, account.elements[k]!]));
  return { ...account, elements };
}

/** What `read --fidelity-json` says of one input: the elements printed, by kind, its warnings, and whether it was cut off. */
export interface ReadAccount {
  source: string;
  elements: Partial<Record<ElementKind, { read: number }>>;
  warnings: number;
  partial: boolean;
}

/** NDJSON to stdout with backpressure; a closed stdout (EPIPE) ends the output quietly. */
export class Output {
  closed = false;
  /** The transcript being written out, for the report of a value that cannot be serialised. */
  source = '';
  /** With `read --fidelity-json`: an account per input, the last the one being written. */
  accounts: ReadAccount[] | undefined;
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
    if (this.accounts !== undefined) for (const value of values) this.count(value);
    let text = '';
    for (const value of values) {
      try {
        text += `${JSON.stringify(value)}\n`;
      } catch (error) {
        this.unwritable(value, error as Error);
      }
    }
    await this.send(text);
  }

  /** Report a value JSON.stringify could not write (nested too deeply): it is skipped; the output goes on. */
  unwritable(value: unknown, error: Error): void {
    const type = (value as { type?: unknown }).type;
    this.report(`${this.source}: ${typeof type === 'string' ? `a ${type} event` : 'a value'} cannot be written as JSON (${error.message}); skipped`);
  }

  /** Start the account of input `source` (with `--fidelity-json`). */
  begin(source: string): ReadAccount | undefined {
    if (this.accounts === undefined) return undefined;
    const account: ReadAccount = { source, elements: {}, warnings: 0, partial: false };
    this.accounts.push(account);
    return account;
  }

  /** Count the elements of an event printed (a usage or tree line counts nothing). */
  private count(value: unknown): void {
    const account = this.accounts?.at(-1);
    const type = (value as { type?: unknown } | null)?.type;
    if (account === undefined || typeof type !== 'string') return;
    let elements: [ElementKind, number][];
    try {
      elements = elementsOf(value as GenericEvent);
    } catch {
      return; // not an event (a line of --tree)
    }
    for (const [kind, n] of elements) {
      const entry = account.elements[kind] ??= { read: 0 };
      entry.read += n;
    }
  }

  /** Write NDJSON text as it is, in one write (its events counted, with `--fidelity-json`). */
  async writeText(text: string | Buffer): Promise<void> {
    if (this.accounts !== undefined) {
      for (const line of text.toString().split('\n')) if (line !== '') this.count(JSON.parse(line));
    }
    await this.send(text);
  }

  private async send(text: string | Buffer): Promise<void> {
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
