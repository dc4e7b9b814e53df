// The append-only transcript file: created exclusively (never an existing path, never through a symlink),
// mode 0600, written with O_APPEND, one synchronous write per batch of records. It counts its own bytes so a
// harness can notice when another process (a concurrent `claude --resume`) appended to the same file.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

/** How many fresh names to try before giving up (a collision of random UUIDs means something is wrong). */
const MAX_ATTEMPTS = 16;

/** Bytes appended by someone else, read back from the file. */
export interface ForeignBytes {
  text: string;
  /** The file did not end with a newline: the next own write must start with one. */
  needsNewline: boolean;
}

export class AppendFile {
  /** Size of the file after our last write, as far as we know. */
  private knownSize = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  /**
   * Create `dir` (mkdir -p) and a new file in it named by `name()`; on an existing path draw a new name.
   * `name` returns the file name for one attempt and is called again after each collision.
   */
  static createExclusive(dir: string, name: () => string): { file: AppendFile; attempt: string } {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const attempt = name();
      const path = join(dir, attempt);
      try {
        const fd = openSync(path, CREATE_FLAGS, 0o600);
        return { file: new AppendFile(path, fd), attempt };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error(`could not create a new file in ${dir} after ${MAX_ATTEMPTS} attempts`);
  }

  /** Bytes another process appended since our last write, or undefined when there are none. */
  foreignBytes(): ForeignBytes | undefined {
    const size = fstatSync(this.fd).size;
    if (size <= this.knownSize) return undefined;
    const length = size - this.knownSize;
    const buf = Buffer.allocUnsafe(length);
    const readFd = openSync(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    let got = 0;
    try {
      while (got < length) {
        const n = readSync(readFd, buf, got, length - got, this.knownSize + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(readFd);
    }
    this.knownSize += got;
    return { text: buf.toString('utf8', 0, got), needsNewline: got > 0 && buf[got - 1] !== 10 };
  }

  /** Append `data` in full (one write unless the kernel takes less), then account for it. */
  write(data: string): void {
    if (this.closed) throw new Error('transcript file is closed');
    const buf = Buffer.from(data, 'utf8');
    let offset = 0;
    while (offset < buf.length) offset += writeSync(this.fd, buf, offset, buf.length - offset);
    this.knownSize += buf.length;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
