// Opening sessions, for the filter and convert alike: the session options checked against the registry, which
// project directory a session belongs to, and one new session per configured format, each under its storage
// root (made here, one way for every agent, so a root the file system refuses is refused at once with one line
// whatever the format). Beside the registry: it finds the formats' writers there.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findHarness, knownFormats } from './index.js';
import type { SessionHarness } from '../session/types.js';
import type { SessionFacts } from '../input/types.js';
import { makeDirs } from '../util/fs-errors.js';
import { UsageError, type SessionOptions } from '../session/options.js';

/**
 * Validate formats, roots and the project directory up front: an unknown format, a malformed dir, a format
 * whose program is missing (`preflight`), or a `cwd` that is empty or names something other than a directory
 * is a usage error. A `cwd` that does not exist is accepted: the session only records it (it may be a project
 * on another machine, or one made later).
 */
export function checkSessionOptions(
  options: Pick<SessionOptions, 'formats' | 'sessionDirs' | 'cwd'> & { processCwd?: string; env?: SessionOptions['env'] },
): void {
  if (options.cwd !== undefined) {
    if (options.cwd === '') throw new UsageError('--cwd wants a directory, got ""');
    let directory = true;
    try {
      directory = statSync(resolve(options.processCwd ?? '/', options.cwd)).isDirectory();
    } catch (error) {
      // Missing (or out of reach): only recorded. A file on the way makes it impossible.
      directory = (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
    }
    if (!directory) throw new UsageError(`--cwd ${options.cwd}: not a directory`);
  }
  for (const format of options.formats) {
    const factory = findHarness(format);
    if (!factory) {
      throw new UsageError(`unknown session format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
    const missing = factory.preflight?.(options.env ?? {});
    if (missing !== undefined) throw new UsageError(missing);
  }
  for (const format of Object.keys(options.sessionDirs)) {
    if (!findHarness(format)) {
      throw new UsageError(`--session-dir names unknown format ${JSON.stringify(format)} (known: ${knownFormats().join(', ')})`);
    }
  }
}

/** The project directory a session belongs to; `fromInput` when the input named it (then only recorded). */
export interface SessionCwd {
  path: string;
  fromInput: boolean;
}

/**
 * Which directory a session goes to: `cwd` (`--cwd`, resolved against `processCwd`), else the absolute
 * project directory the input named (`facts.cwd`), else `processCwd`. Normalised (`.`, `..`, doubled and
 * trailing slashes) before it names anything, as the agents' CLIs see their own cwd; symlinks are left as they are.
 */
export function sessionCwd(cwd: string | undefined, facts: SessionFacts, processCwd: string): SessionCwd {
  if (cwd !== undefined) return { path: resolve(processCwd, cwd), fromInput: false };
  if (facts.cwd !== undefined && facts.cwd.startsWith('/')) return { path: resolve(facts.cwd), fromInput: true };
  return { path: resolve(processCwd), fromInput: false };
}

/** A format whose session could not be opened: its storage root and why. */
export interface OpenFailure {
  format: string;
  root: string;
  error: Error;
}

/**
 * Open one new session per configured format, each on its own: a format that cannot be opened is a failure
 * of its own and the others are opened all the same. `startedAt` (RFC 3339) is when the session started, for
 * the formats that file sessions by date; default: now.
 */
export function openEachSession(
  options: SessionOptions, cwd: SessionCwd, warn: (message: string, once?: string) => void, startedAt?: string,
): { harnesses: SessionHarness[]; failures: OpenFailure[] } {
  const opened: (SessionHarness | undefined)[] = [];
  const failed: (OpenFailure | undefined)[] = [];
  // A format that may wait for a lock is opened first: while it waits, no other file of this run exists yet.
  const order = options.formats.map((format, at) => ({ format, at, factory: findHarness(format)! }));
  order.sort((a, b) => Number(b.factory.waitsToOpen === true) - Number(a.factory.waitsToOpen === true) || a.at - b.at);
  for (const { format, at, factory } of order) {
    const root = resolve(options.processCwd, options.sessionDirs[format] ?? factory.defaultRoot(options.env, options.homedir));
    try {
      makeDirs(root);
      opened[at] = factory.create({
        root,
        cwd: cwd.path,
        cwdFromInput: cwd.fromInput,
        env: options.env,
        homedir: options.homedir,
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
        ...(startedAt !== undefined ? { startedAt } : {}),
        warn,
      });
    } catch (error) {
      failed[at] = { format, root, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }
  // Both in the order the formats were asked for.
  const harnesses = opened.filter((harness): harness is SessionHarness => harness !== undefined);
  const failures = failed.filter((failure): failure is OpenFailure => failure !== undefined);
  return { harnesses, failures };
}

/**
 * Open one new session per configured format, all or none: when one cannot be opened, those opened before
 * it are abandoned (their files, holding no record yet, removed) and its error is thrown.
 */
export function openSessions(
  options: SessionOptions, cwd: SessionCwd, warn: (message: string, once?: string) => void, startedAt?: string,
): SessionHarness[] {
  const { harnesses, failures } = openEachSession(options, cwd, warn, startedAt);
  if (failures.length === 0) return harnesses;
  for (const harness of harnesses) harness.abandon();
  throw failures[0]!.error;
}
