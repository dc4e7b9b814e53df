// The convert manifest: which sessions were written from which source, so a rerun converts only what is
// new or changed. A directory under each harness root; every run appends to its own new file (created
// O_EXCL, mode 0600, one fsync'd line per finished source) and reading takes the union, the newest entry per
// source and format winning. No file is ever rewritten, so a crash or a concurrent run cannot tear another's;
// a long `--watch` folds the run files it wrote and closed into one new file (`compactRunFiles`).
import { constants, existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { FileMark } from '../session/append-file.js';
import { describeError, makeDirs } from '../util/fs-errors.js';

/** The manifest directory's name inside a harness root (`~/.claude/asyncai-log-convert/`). */
export const MANIFEST_DIR = 'asyncai-log-convert';

const RUN_FILE = /^run-[A-Za-z0-9-]+\.ndjson$/;

/**
 * Why the manifest directory under `root` cannot be used (a symbolic link, or not a directory: its run files
 * would land elsewhere), or undefined when it is a real directory or absent. Never followed.
 */
export function manifestDirProblem(root: string): string | undefined {
  const dir = join(root, MANIFEST_DIR);
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    // Absent, or its root is no directory: what writes there says so (the sessions fail to be created).
    return undefined;
  }
  if (st.isDirectory()) return undefined;
  return `${dir}: ${st.isSymbolicLink() ? 'is a symbolic link' : 'is not a directory'}; the manifest is not read or written through it`;
}

/** The manifest directory under `root`, made (mode 0700) when absent; throws one line when it is not a real directory. */
export function manifestDir(root: string): string {
  const dir = join(root, MANIFEST_DIR);
  const problem = manifestDirProblem(root);
  if (problem !== undefined) throw new Error(problem);
  makeDirs(dir);
  // Made by someone else meanwhile as a link: still refused.
  const again = manifestDirProblem(root);
  if (again !== undefined) throw new Error(again);
  return dir;
}

/** One source converted into one session of one format. */
export interface ManifestEntry {
  v: 1;
  /** Canonical absolute path of the source. */
  source: string;
  /** Bytes converted, the source's mtime before reading, and the SHA-256 of those bytes. */
  size: number;
  mtime_ms: number;
  sha256: string;
  /** The harness format and the session written. */
  format: string;
  session_id: string;
  session_file: string;
  /** The input format read, and the project directory the session belongs to. */
  input_format: string;
  cwd: string;
  /** When the entry was written (RFC 3339 with milliseconds): the newest wins. */
  at: string;
  /**
   * The session file as this tool left it (device, inode, size, hash of its last bytes): a source that only
   * grew is appended to it when it is still that file. Absent in entries of older versions.
   */
  session_mark?: FileMark;
  /** Events the input format gave only at the end of the converted bytes (a reply held for its usage). */
  tail_events?: number;
}

export function isFileMark(value: unknown): value is FileMark {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.dev === 'number' && typeof v.ino === 'number' && typeof v.size === 'number' && typeof v.tail === 'string';
}

function isEntry(value: unknown): value is ManifestEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.v === 1 && typeof v.source === 'string' && typeof v.size === 'number' && typeof v.mtime_ms === 'number'
    && typeof v.sha256 === 'string' && typeof v.format === 'string' && typeof v.session_id === 'string'
    && typeof v.session_file === 'string' && typeof v.input_format === 'string' && typeof v.cwd === 'string'
    && typeof v.at === 'string' && (v.session_mark === undefined || isFileMark(v.session_mark))
    && (v.tail_events === undefined || typeof v.tail_events === 'number');
}

const key = (source: string, format: string) => `${format}\u0000${source}`;

/** The union of every run file of one manifest directory. */
export class Manifest {
  private readonly latest = new Map<string, ManifestEntry>();
  /** Every session file any entry names (also superseded ones): sessions this tool wrote. */
  readonly sessionFiles = new Set<string>();

  /** The newest entry for a source and format. */
  get(source: string, format: string): ManifestEntry | undefined {
    return this.latest.get(key(source, format));
  }

  /** Take one entry into the union (newer `at` wins; on a tie, the one added later). */
  add(entry: ManifestEntry): void {
    this.sessionFiles.add(entry.session_file);
    const k = key(entry.source, entry.format);
    const known = this.latest.get(k);
    if (!known || entry.at >= known.at) this.latest.set(k, entry);
  }

  get size(): number {
    return this.latest.size;
  }

  /** The newest entry of every source and format. */
  entries(): ManifestEntry[] {
    return [...this.latest.values()];
  }

  /**
   * Read the manifest under `root` (an absent directory is an empty manifest). A line that does not parse
   * is ignored: silently when it is a file's unterminated last line (a run that crashed mid-write), with a
   * warning otherwise. Symlinks and other odd names in the directory are not read.
   */
  static read(root: string, warn: (message: string) => void): Manifest {
    const manifest = new Manifest();
    const dir = join(root, MANIFEST_DIR);
    const problem = manifestDirProblem(root);
    if (problem !== undefined) {
      warn(problem);
      return manifest;
    }
    const read = new Set<string>();
    // A file listed but gone when read was folded into a new one by a watch (written before the old went):
    // the directory is listed again for it.
    for (let listing = 0; listing < 16; listing += 1) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`${dir}: cannot read the manifest: ${describeError(error)}`);
        return manifest;
      }
      let gone = false;
      for (const name of names.filter((n) => RUN_FILE.test(n) && !read.has(n)).sort()) {
        read.add(name);
        if (!readRunFile(join(dir, name), warn, (entry) => manifest.add(entry))) gone = true;
      }
      if (!gone) break;
    }
    return manifest;
  }
}

/**
 * The entries of one run file, in line order, to `add`. A line that does not parse is ignored: silently when
 * it is the file's unterminated last line (a run that crashed mid-write), with a warning otherwise. A symlink
 * or other odd file is not read. False when the file is gone.
 */
function readRunFile(path: string, warn: (message: string) => void, add: (entry: ManifestEntry) => void): boolean {
  let text: string;
  try {
    if (!lstatSync(path).isFile()) return true;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    warn(`${path}: cannot read: ${describeError(error)}`);
    return true;
  }
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const torn = index === lines.length - 1; // no newline after it: the write was cut short
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (!torn) warn(`${path}:${index + 1}: not a manifest entry; ignored`);
      return;
    }
    if (isEntry(value)) add(value);
    else if (!torn) warn(`${path}:${index + 1}: not a manifest entry; ignored`);
  });
  return true;
}

/**
 * Fold run files this process wrote and has closed (`files`, all of one manifest directory) into one new run
 * file, then remove them. The new file keeps what a reader takes from them: the newest entry per source and
 * format, and the newest entry naming each other session file (a superseded session is still one this tool
 * wrote). It is written and fsync'd before any old file goes: a crash in between leaves both, which read the
 * same. Files of other runs are never touched (one may still be appending). Resolves with the new file.
 */
export async function compactRunFiles(files: readonly string[], warn: (message: string) => void): Promise<string | undefined> {
  if (files.length === 0) return undefined;
  const dir = dirname(files[0]!);
  if (basename(dir) !== MANIFEST_DIR || files.some((file) => dirname(file) !== dir || !RUN_FILE.test(basename(file)))) {
    throw new Error('compactRunFiles: the files must be run files of one manifest directory');
  }
  const manifest = new Manifest();
  const bySession = new Map<string, ManifestEntry>();
  for (const file of [...files].sort()) {
    readRunFile(file, warn, (entry) => {
      manifest.add(entry);
      const known = bySession.get(entry.session_file);
      if (!known || entry.at >= known.at) bySession.set(entry.session_file, entry);
    });
  }
  const kept = new Set(manifest.entries());
  for (const entry of bySession.values()) kept.add(entry);
  // Oldest first: among entries with the same time, the one written later still comes later.
  const entries = [...kept].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const writer = new ManifestWriter(dirname(dir));
  try {
    await writer.append(entries);
  } finally {
    await writer.close();
  }
  for (const file of files) {
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  await syncDir(dir);
  return writer.runFile;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

interface Pending {
  text: string;
  done: (error?: Error) => void;
}

/**
 * This run's manifest file under `root`, created on the first append (a run that converts nothing leaves
 * no file). `append` resolves once its lines are written and fsync'd. Appends that arrive while a sync is
 * under way are written together and share the next sync (group commit), in the order they were made.
 */
export class ManifestWriter {
  private file: FileHandle | undefined;
  private path: string | undefined;
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly root: string, private readonly now: () => Date = () => new Date()) {}

  /** The run file, once created. */
  get runFile(): string | undefined {
    return this.path;
  }

  append(entries: readonly ManifestEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    return new Promise((resolve, reject) => {
      this.queue.push({ text, done: (error) => (error ? reject(error) : resolve()) });
      this.draining ??= this.drain();
    });
  }

  /** Wait for what is queued, then close the file. */
  async close(): Promise<void> {
    await this.draining;
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        const file = this.file ?? await this.create();
        const buf = Buffer.from(batch.map((p) => p.text).join(''), 'utf8');
        let offset = 0;
        while (offset < buf.length) offset += (await file.write(buf, offset, buf.length - offset, null)).bytesWritten;
        await file.sync();
        for (const p of batch) p.done();
      } catch (error) {
        for (const p of batch) p.done(error as Error);
      }
    }
    this.draining = undefined;
  }

  private async create(): Promise<FileHandle> {
    const dir = join(this.root, MANIFEST_DIR);
    const fresh = !existsSync(dir);
    manifestDir(this.root);
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    for (let attempt = 0; attempt < 16; attempt += 1) {
      const path = join(dir, `run-${stamp}-${process.pid}-${randomBytes(4).toString('hex')}.ndjson`);
      try {
        this.file = await open(path, CREATE_FLAGS, 0o600);
        this.path = path;
        // The new name must survive a crash as well as the lines in it.
        await syncDir(dir);
        if (fresh) await syncDir(this.root);
        return this.file;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error(`could not create a new manifest file in ${dir}`);
  }
}

/** fsync a directory (where the platform allows it), so a new entry in it is durable. */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Not every platform lets a directory be synced; the file's own fsync still holds its lines.
  } finally {
    await handle?.close();
  }
}
