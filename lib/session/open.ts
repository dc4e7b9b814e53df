// Opening sessions, for the filter and convert alike: which project directory a session belongs to, and one
// new session per configured format, each under its storage root (made here, one way for every agent, so a
// root the file system refuses is refused at once with one line whatever the format).
import { resolve } from 'node:path';
import { findHarness } from '../agents/index.js';
import type { SessionHarness } from './types.js';
import type { SessionFacts } from '../input/types.js';
import { makeDirs } from '../util/fs-errors.js';
import type { SessionOptions } from './options.js';

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
