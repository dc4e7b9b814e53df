// Input from a regular file on stdin (`asyncai-log < archive.ndjson`): read on the main thread, 64 KiB at a
// time, one read per turn of the event loop (signals and monitors are still served between reads). Node's
// own stream reads a file through the thread pool, and the hand-off costs more than the read itself
// (docs/performance.md). Pipes and terminals keep Node's stream.
import { closeSync, constants, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { notRegularFile } from '../util/fs-errors.js';

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

/** A named input opened for reading: its bytes, and how to let it go. */
export interface OpenedPath {
  stream: Readable;
  close(): void;
}

/**
 * Open the input at `path` (a regular file, a FIFO, a device) without ever waiting in `open`: a FIFO is opened
 * non-blocking on this thread and read through libuv's pipe handle, which waits for a writer as `cat` does.
 * An open that waits on the thread pool cannot be ended: a signal's exit then waits on that thread for ever.
 * A device is read through Node's own stream; a directory is refused (EISDIR). Throws what `open` throws.
 */
export function openInputPath(path: string): OpenedPath {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let stat;
  try {
    stat = fstatSync(fd);
    if (stat.isDirectory()) throw notRegularFile(stat);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (stat.isFile()) return { stream: fileInput(fd)!, close: () => closeSync(fd) };
  if (stat.isFIFO() || stat.isSocket()) {
    const socket = new Socket({ fd, readable: true, writable: false });
    return { stream: socket, close: () => socket.destroy() };
  }
  // A device wants a blocking descriptor, and its open does not wait for a peer.
  closeSync(fd);
  const stream = createReadStream(path);
  return { stream, close: () => stream.destroy() };
}
