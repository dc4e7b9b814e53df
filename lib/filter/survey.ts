// What the filter's input looked like, kept as its lines are read (their count, how many were JSON, the format
// the first JSON value looks like), so a run whose input held lines but no event ends saying why in one line:
// plain text, another format than `--from` names, or a known format with nothing usable in it.
import { detectInputFormat } from '../agents/input-formats.js';

/** How a format is called in that line. */
function formatLabel(name: string): string {
  return name === 'events' ? 'generic events' : name;
}

export class InputSurvey {
  /** Non-blank lines read (blank lines never reach the filter). */
  lines = 0;
  /** Lines (or gathered documents) that were JSON values. */
  values = 0;
  /** Lines over the line limit (skipped unread). */
  overLong = 0;
  /** The format the first JSON value looks like (null: none); undefined until one is read. */
  private firstFormat: string | null | undefined;

  /** One non-blank line read; `overLong` when it is over the line limit. */
  line(overLong: boolean): void {
    this.lines += 1;
    if (overLong) this.overLong += 1;
  }

  /** One JSON value read (the first one's format is looked up once). */
  value(value: unknown): void {
    this.values += 1;
    if (this.firstFormat === undefined) this.firstFormat = detectInputFormat(value)?.name ?? null;
  }

  /**
   * What the lines looked like, for a run that found no event in them (`from`: the `--from` given, or auto):
   * `no event in 12 lines: they look like plain text`.
   */
  describe(from: string): string {
    const one = this.lines === 1;
    const count = `no event in ${this.lines} line${one ? '' : 's'}`;
    const they = one ? 'it looks like' : 'they look like';
    if (this.overLong === this.lines) return `${count}: ${one ? 'it is' : 'they are'} over the line limit (--max-line-bytes)`;
    if (this.values === 0) return `${count}: ${they} plain text, not JSON`;
    const looks = this.firstFormat ?? undefined;
    if (from !== 'auto' && looks !== from) {
      return looks !== undefined
        ? `${count}: ${they} ${formatLabel(looks)}, not ${from} (--from)`
        : `${count}: ${they} no known format, and not ${from} (--from)`;
    }
    return `${count}: ${they} ${formatLabel(looks ?? from)}, but ${one ? 'it held no event' : 'none held an event'} (see above)`;
  }
}
