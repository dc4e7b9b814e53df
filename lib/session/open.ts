// Opening sessions, for the filter and convert alike: which project directory a session belongs to, and one
// new session per configured format, each under its storage root.
import { resolve } from 'node:path';
import { findHarness } from '../agents/index.js';
import type { SessionHarness } from '../agents/types.js';
import type { SessionFacts } from '../input/types.js';
import type { SessionOptions } from './options.js';

/** The project directory a session belongs to; `fromInput` when the input named it (then only recorded). */
export interface SessionCwd {
  path: string;
  fromInput: boolean;
}

/**
 * Which directory a session goes to: `cwd` (`--cwd`, resolved against `processCwd`), else the absolute
 * project directory the input named (`facts.cwd`), else `processCwd`.
 */
export function sessionCwd(cwd: string | undefined, facts: SessionFacts, processCwd: string): SessionCwd {
  if (cwd !== undefined) return { path: resolve(processCwd, cwd), fromInput: false };
  if (facts.cwd !== undefined && facts.cwd.startsWith('/')) return { path: facts.cwd, fromInput: true };
  return { path: processCwd, fromInput: false };
}

/**
 * Open one new session per configured format. `startedAt` (RFC 3339) is when the session started, for the
 * formats that file sessions by date; default: now.
 */
export function openSessions(
  options: SessionOptions, cwd: SessionCwd, warn: (message: string, once?: string) => void, startedAt?: string,
): SessionHarness[] {
  return options.formats.map((format) => {
    const factory = findHarness(format)!;
    const root = resolve(options.processCwd, options.sessionDirs[format] ?? factory.defaultRoot(options.env, options.homedir));
    return factory.create({
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
  });
}
