// Input from a regular file on stdin (`asyncai-log < archive.ndjson`): read on the main thread, 64 KiB at a
// time, one read per turn of the event loop (signals and monitors are still served between reads). Node's
// own stream reads a file through the thread pool, and the hand-off costs more than the read itself
// (about 7% of the filter's time on a 478 MB archive). Pipes and terminals keep Node's stream.
import { fstatSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';

/** Bytes per read: what one read produces dies young, which keeps garbage collection cheap. */
export const FILE_READ_BYTES = 64 * 1024;

/**
 * A stream of the regular file open on `fd`, read from its current position; undefined when `fd` is not
 * a regular file (a pipe, a terminal, a socket) or cannot be examined. The stream never closes `fd`.
 */
export function fileInput(fd: number): Readable | undefined {
  try {
    if (!fstatSync(fd).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return new Readable({
    highWaterMark: FILE_READ_BYTES,
    read() {
      // Deferred to the next turn of the event loop: a file never makes the loop wait, so without it a
      // long file would be read to the end before any timer, signal or child's output is handled.
      setImmediate(() => {
        if (this.destroyed) return;
        const buf = Buffer.allocUnsafeSlow(FILE_READ_BYTES);
        let n: number;
        try {
          n = readSync(fd, buf, 0, buf.length, null);
        } catch (error) {
          this.destroy(error as Error);
          return;
        }
        this.push(n === 0 ? null : n === buf.length ? buf : buf.subarray(0, n));
      });
    },
  });
}
