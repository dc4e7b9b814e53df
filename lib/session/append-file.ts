// The append-only transcript file: created exclusively (never an existing path, never through a symlink),
// mode 0600, written with O_APPEND, one synchronous write per batch of records. It counts its own bytes so a
// harness can notice when another process (a concurrent `claude --resume`) appended to the same file.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, unlinkSync, writevSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { makeDirs } from '../util/fs-errors.js';

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

/** Reopening an existing file to append: never created, never through a symlink. */
const REOPEN_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

/** How many of its last own bytes identify a file written before (see `AppendFile.reopen`). */
export const MARK_BYTES = 4096;

/** What identifies a file this tool wrote in an earlier run: where it is, how far our bytes went, and their end. */
export interface FileMark {
  dev: number;
  ino: number;
  /** The file's size after our last write. */
  size: number;
  /** SHA-256 (hex) of the last MARK_BYTES bytes (or fewer) before `size`. */
  tail: string;
}

/**
 * Told around each own write to a reopened file (convert's lock records the append under way), so the bytes
 * of a write cut short by a crash can later be told from another process's.
 */
export interface WriteJournal {
  /** Our next write, of `length` bytes, follows what we know of the file, `at` bytes. */
  writing(at: number, length: number): void;
  /** It is done: the file as we know it is `size` bytes; `foreign` when another process's bytes came with it. */
  wrote(size: number, foreign: boolean): void;
}

/** How many fresh names to try before giving up (a collision of random UUIDs means something is wrong). */
const MAX_ATTEMPTS = 16;

/** Text is encoded into blocks of this size (the first one is kept from write to write). */
const BLOCK_BYTES = 1 << 20;
/** Byte pieces at least this long are written from where they are, not copied into a block. */
const COPY_MAX_BYTES = 16 * 1024;
/** `buffer.write(text, offset)` without its argument handling (about 15% of encoding short text). */
const { utf8Write } = Buffer.prototype as unknown as { utf8Write: (text: string, offset: number) => number };

/** Bytes appended by someone else, read back from the file. */
export interface ForeignBytes {
  text: string;
  /** The file did not end with a newline: the next own write must start with one. */
  needsNewline: boolean;
}

/**
 * `mkdir -p dir` where `dir` is below `root`: the root is made as given (following symlinks), each directory
 * below it is made or must already be a real directory. Throws (with the path) on a symlink or a file.
 */
export function makeDirsBelow(root: string, dir: string): void {
  const below = relative(root, dir);
  if (below === '' || below.startsWith('..') || isAbsolute(below)) throw new Error(`${dir} is not below ${root}`);
  makeDirs(root);
  let path = root;
  for (const part of below.split(sep)) {
    path = join(path, part);
    try {
      mkdirSync(path, { mode: 0o700 });
      continue;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) throw new Error(`${path} is a symbolic link; a session is not written through one below the storage root`);
    if (!stat.isDirectory()) throw new Error(`${path} exists and is not a directory`);
  }
}

/**
 * The one line a writer says the first time another process appended to its session (a resume while it
 * writes); `then` says what the writer does about it.
 */
export function foreignAppendWarning(path: string, then: string): string {
  return `warn session.foreign_append: ${path} was appended to by another process (a concurrent resume?); ${then}`;
}

export class AppendFile {
  /** Size of the file after our last write, as far as we know. */
  private knownSize = 0;
  /** Foreign bytes found before one of our writes (another process appended just before it), not yet reported. */
  private missed: string | undefined;
  private closed = false;
  /** A file this run created: the bytes its opening wrote (see `markOpened`); undefined for a reopened one. */
  private opening: number | undefined;
  /** The block text is encoded into: `staged` ends with its bytes from `sealed` to `used` (not pushed yet). */
  private block: Buffer | undefined;
  private sealed = 0;
  private used = 0;
  /** Encoded and not yet written (see `stage`). */
  private staged: Uint8Array[] = [];
  private journal: WriteJournal | undefined;

  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  /**
   * Create `dir` (mkdir -p) and a new file in it named by `name()`; on an existing path draw a new name.
   * `name` returns the file name for one attempt and is called again after each collision. With `root`
   * (a directory above `dir`), the directories below `root` must be real directories: a symlink planted
   * there is not followed (the root itself may be one: it is the user's choice, as `~/.claude` is).
   */
  static createExclusive(dir: string, name: () => string, root?: string): { file: AppendFile; attempt: string } {
    if (root !== undefined) makeDirsBelow(root, dir);
    else makeDirs(dir);
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const attempt = name();
      const path = join(dir, attempt);
      try {
        const fd = openSync(path, CREATE_FLAGS, 0o600);
        const file = new AppendFile(path, fd);
        file.opening = 0;
        return { file, attempt };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error(`could not create a new file in ${dir} after ${MAX_ATTEMPTS} attempts`);
  }

  /**
   * Reopen a file this tool wrote in an earlier run (its manifest holds `mark`) to append to it: opened with
   * O_APPEND|O_NOFOLLOW and never O_CREAT, and only when it is still that file (same device and inode, at least
   * as long, the same last bytes of ours). Bytes after `mark.size` count as another process's. Throws one line.
   * A `journal` riding on the mark is told of every write.
   */
  static reopen(path: string, mark: FileMark & { journal?: WriteJournal }): AppendFile {
    // Non-blocking: a FIFO planted at the path must not hold the open (fstat then refuses it).
    const fd = openSync(path, REOPEN_FLAGS | (constants.O_NONBLOCK ?? 0));
    const file = new AppendFile(path, fd);
    file.journal = mark.journal;
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.dev !== mark.dev || st.ino !== mark.ino) throw new Error('it is not the file written before');
      if (st.size < mark.size) throw new Error('it is shorter than what was written before');
      if (file.tailHash(mark.size) !== mark.tail) throw new Error('its bytes written before have changed');
      file.knownSize = mark.size;
      return file;
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /** This file's mark as of our last write (what `reopen` checks in a later run). */
  mark(): FileMark {
    const st = fstatSync(this.fd);
    return { dev: st.dev, ino: st.ino, size: this.knownSize, tail: this.tailHash(this.knownSize) };
  }

  /** Our last bytes before `end` (up to `max`), read back as text: where a reopened file's chain ends. */
  ownTail(max: number): { text: string; fromStart: boolean } {
    const start = Math.max(0, this.knownSize - max);
    return { text: this.readRange(start, this.knownSize).toString('utf8'), fromStart: start === 0 };
  }

  private tailHash(end: number): string {
    return createHash('sha256').update(this.readRange(Math.max(0, end - MARK_BYTES), end)).digest('hex');
  }

  /** Bytes another process appended since our last write, or undefined when there are none. */
  foreignBytes(): ForeignBytes | undefined {
    const missed = this.missed;
    const size = fstatSync(this.fd).size;
    if (size <= this.knownSize && missed === undefined) return undefined;
    this.missed = undefined;
    const buf = size > this.knownSize ? this.readRange(this.knownSize, size) : Buffer.alloc(0);
    this.knownSize += buf.length;
    // Missed bytes were followed by our own write, which ends with a newline: only later bytes can lack one.
    return { text: (missed ?? '') + buf.toString('utf8'), needsNewline: buf.length > 0 && buf[buf.length - 1] !== 10 };
  }

  /**
   * Encode `pieces` now, to be written by the next `write`: text into the block, short byte pieces copied beside
   * it, long ones kept as they are. A writer that stages each record as it is made leaves no text to live until
   * the write (young garbage that every collection before the write would have to copy).
   */
  stage(pieces: readonly (string | Uint8Array)[]): void {
    if (this.closed) throw new Error('transcript file is closed');
    for (const piece of pieces) {
      if (typeof piece === 'string') this.stageText(piece);
      else this.stageBytes(piece);
    }
  }

  /** Something is staged and not yet written. */
  get holdsStaged(): boolean {
    return this.staged.length > 0 || this.used > this.sealed;
  }

  /**
   * Append what is staged and then `data` in full (text as UTF-8, byte pieces as they are), back to back, in one
   * write (unless the kernel takes less), then account for it.
   */
  write(data: string | readonly (string | Uint8Array)[] = []): void {
    if (this.closed) throw new Error('transcript file is closed');
    this.stage(typeof data === 'string' ? [data] : data);
    this.seal();
    const iov = this.staged;
    // The staged bytes are taken whatever the write does: a failed write is reported, never written twice.
    this.staged = [];
    this.sealed = 0;
    this.used = 0;
    if (iov.length === 0) return;
    const ours = iov.slice();
    const before = this.knownSize;
    this.journal?.writing(before, iov.reduce((sum, piece) => sum + piece.length, 0));
    let total = 0;
    let first = 0;
    while (first < iov.length) {
      let written = writevSync(this.fd, first === 0 ? iov : iov.slice(first));
      if (written === 0) throw new Error('the transcript file accepted no bytes');
      total += written;
      while (first < iov.length && written >= iov[first]!.length) written -= iov[first++]!.length;
      if (written > 0) iov[first] = iov[first]!.subarray(written);
    }
    this.knownSize = before + total;
    // Another process may have appended between our last look and this write: its bytes then sit before
    // ours, and counting only our own would misplace every later look at the file. One fstat tells.
    const size = fstatSync(this.fd).size;
    if (size > this.knownSize) this.locateOwnWrite(before, size, ours, total);
    this.journal?.wrote(this.knownSize, this.knownSize !== before + total);
  }

  /**
   * The file grew by more than our write of `own` since `before`: find where ours landed. Foreign bytes before
   * it are kept for the next `foreignBytes`, and those after it are left to it as usual. If ours cannot be
   * found whole (the kernel took it in pieces with foreign bytes between), the whole range counts as
   * foreign: a harness then sees its own records again, which costs copies, never records.
   */
  private locateOwnWrite(before: number, size: number, pieces: readonly Uint8Array[], total: number): void {
    const own = Buffer.concat(pieces, total);
    const range = this.readRange(before, size);
    const at = range.indexOf(own);
    if (at === 0) return;
    if (at > 0) {
      this.missed = (this.missed ?? '') + range.toString('utf8', 0, at);
      this.knownSize = before + at + own.length;
      return;
    }
    this.missed = (this.missed ?? '') + range.toString('utf8');
    this.knownSize = before + range.length;
  }

  /** Bytes `start` to `end` of the file, read through a descriptor of its own (ours is write-only). */
  private readRange(start: number, end: number): Buffer {
    const length = end - start;
    const buf = Buffer.allocUnsafe(length);
    const readFd = openSync(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    let got = 0;
    try {
      while (got < length) {
        const n = readSync(readFd, buf, got, length - got, start + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(readFd);
    }
    return buf.subarray(0, got);
  }

  /** The bytes encoded into the block since the last seal join `staged`. */
  private seal(): void {
    if (this.used > this.sealed) this.staged.push(this.block!.subarray(this.sealed, this.used));
    this.sealed = this.used;
  }

  /** Text encoded into the block (writing into a reused buffer is several times faster than Buffer.from). */
  private stageText(text: string): void {
    let block = this.block ??= Buffer.allocUnsafeSlow(BLOCK_BYTES);
    // At most 3 UTF-8 bytes per UTF-16 unit: measure exactly only when that bound does not fit.
    if (text.length * 3 > block.length - this.used) {
      const bytes = Buffer.byteLength(text);
      if (bytes > block.length - this.used) {
        this.seal();
        if (bytes > BLOCK_BYTES / 2) {
          this.staged.push(Buffer.from(text, 'utf8'));
          return;
        }
        // The full block is still referenced by `staged`: continue in a new one, kept from here on.
        block = this.block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
        this.sealed = 0;
        this.used = 0;
      }
    }
    this.used += utf8Write.call(block, text, this.used) as number;
  }

  /** Short byte pieces are copied into the block; long ones are written from where they are. */
  private stageBytes(bytes: Uint8Array): void {
    const block = this.block ??= Buffer.allocUnsafeSlow(BLOCK_BYTES);
    if (bytes.length >= COPY_MAX_BYTES || bytes.length > block.length - this.used) {
      this.seal();
      this.staged.push(bytes);
      return;
    }
    block.set(bytes, this.used);
    this.used += bytes.length;
  }

  /**
   * Before `close`: remove the file when it holds exactly the `bytes` bytes this writer wrote first and
   * nothing else (no later write of ours, nothing appended by another process) and the path still names it.
   * The file is still open, so its inode cannot have been reused for a file put in its place. True when removed.
   */
  removeIfHolding(bytes: number): boolean {
    return !this.closed && this.knownSize === bytes && this.unlinkIfSized(bytes);
  }

  /** Remove the file when it is `size` bytes long and the path still names it (see `removeIfHolding`). */
  private unlinkIfSized(size: number): boolean {
    try {
      const own = fstatSync(this.fd);
      const named = lstatSync(this.path);
      if (own.size !== size || named.dev !== own.dev || named.ino !== own.ino) return false;
      unlinkSync(this.path);
      return true;
    } catch {
      return false;
    }
  }

  /** The file as opened holds what was written so far (a harness's opening line): `discard` removes no more. */
  markOpened(): void {
    if (this.opening !== undefined) this.opening = this.knownSize;
  }

  /**
   * Close after a failure (the session could not be opened whole, or a write failed): a file this run created
   * that holds only its opening bytes (a failed write left nothing of its records) and nothing another process
   * appended is removed first, so no session without a record is left. True when removed.
   */
  discard(): boolean {
    const removed = !this.closed && this.opening !== undefined && this.knownSize === this.opening
      && this.unlinkIfSized(this.opening);
    this.close();
    return removed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
