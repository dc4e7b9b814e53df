// The progress line of a batch conversion on stderr (a terminal): files done of all, bytes read of the bytes
// to read, the rate and the time left, redrawn in place at most five times a second. Diagnostics clear it
// first and it is drawn again after them, so the two never mix on one line.

/** A count of bytes as people read it (decimal units, as rates are usually given). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 'B';
  for (const next of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = next;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}

/** Seconds as `42s`, `3m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const REDRAW_MS = 200;

/** The progress line of one run: fed bytes read and files finished, drawn in place on a terminal. */
export class ProgressLine {
  private files = 0;
  private bytes = 0;
  private shown = false;
  private lastDraw = -Infinity;
  private readonly started: number;

  /**
   * @param stream where the line is drawn (a terminal)
   * @param totals files in the run, and bytes of the files that will be read
   * @param clock milliseconds, injectable for tests
   */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly totals: { files: number; bytes: number },
    private readonly clock: () => number = Date.now,
  ) {
    this.started = clock();
  }

  /** Bytes read since the last call. */
  read(bytes: number): void {
    this.bytes += bytes;
    this.draw();
  }

  /** One file finished; `unread` is what is left of its bytes to count (read less than its size). */
  fileDone(unread = 0): void {
    this.files += 1;
    this.bytes += unread;
    this.draw();
  }

  /** The line as it would be drawn now. */
  text(): string {
    const elapsed = (this.clock() - this.started) / 1000;
    const rate = elapsed > 0 ? this.bytes / elapsed : 0;
    const left = Math.max(0, this.totals.bytes - this.bytes);
    const eta = this.files >= this.totals.files ? '0s' : rate > 0 ? formatDuration(left / rate) : '?';
    return `asyncai-log: convert: ${this.files}/${this.totals.files} files, `
      + `${formatBytes(this.bytes)}/${formatBytes(this.totals.bytes)}, ${formatBytes(Math.round(rate))}/s, ETA ${eta}`;
  }

  /** Redraw, at most every 200 ms unless forced. */
  draw(force = false): void {
    const now = this.clock();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.stream.write(`\r\u001b[2K${this.text()}`);
    this.shown = true;
  }

  /** Erase the line (before a diagnostic is written). */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\u001b[2K');
    this.shown = false;
  }

  /** Draw the final state and end the line. */
  end(): void {
    this.draw(true);
    this.stream.write('\n');
    this.shown = false;
  }
}
