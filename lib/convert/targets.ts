// Opening the sessions a file is converted into: the session of an earlier run that the file only grew from
// is reopened and appended to (it keeps its project directory); every other target gets a new session.
import { findHarness } from '../agents/index.js';
import type { HarnessOptions, SessionHarness } from '../session/types.js';
import type { FileMark, WriteJournal } from '../session/append-file.js';
import { openSessions } from '../agents/open-sessions.js';
import { provenanceFor } from './provenance.js';
import type { ConvertSettings, ConvertTarget, ConvertTask } from './types.js';
import { describeError } from '../util/fs-errors.js';

/** What one file's conversion tells the opening of its sessions. */
export interface TargetContext {
  task: ConvertTask;
  settings: ConvertSettings;
  /** The file's input format (recorded in the sessions' provenance). */
  inputFormat: string | undefined;
  /** The formats whose new part has begun (a reopened session of one continues at once). */
  continued: ReadonlySet<string>;
  /** False when the input's events now are not the earlier ones and more (a transcript that forked). */
  extendsEarlier: boolean;
  /** The sessions' warnings (quiet while the bytes an earlier run converted are read again). */
  warn(message: string): void;
  /** Said whatever part of the file is being read. */
  notice(message: string): void;
}

/** The sessions open: one harness per target, in target order. */
export interface OpenedTargets {
  harnesses: SessionHarness[];
  /** The sessions of earlier runs appended to, by format. */
  reopened: Map<string, SessionHarness>;
  /** The targets as opened: one not appended to after all is written from the start. */
  targets: ConvertTarget[];
}

/**
 * Open a session for every target, started at `startedAt` (the log's first event time: Codex files a session
 * by it), in project directory `cwd` unless a reopened session keeps its own. `cwd` in the answer is the one
 * the sessions belong to; `error` says why they could not be created (none is left open then).
 */
export function openTargets(
  targets: readonly ConvertTarget[], cwd: string, startedAt: string, context: TargetContext,
): { cwd: string } & (OpenedTargets | { error: string }) {
  const { settings, task } = context;
  const provenance = provenanceFor(context.inputFormat ?? 'unknown', task.real);
  const fresh: ConvertTarget[] = [];
  const harnesses = new Map<string, SessionHarness>();
  const reopened = new Map<string, SessionHarness>();
  let sessionCwd = cwd;
  for (const target of targets) {
    const known = target.known;
    // An input whose events now are not the earlier ones and more (a transcript that forked) is converted anew.
    if (!target.append || !known?.session_mark || !context.extendsEarlier) {
      fresh.push(target);
      continue;
    }
    // The session keeps the project it was written for.
    const options: HarnessOptions = {
      root: target.root, cwd: known.cwd, cwdFromInput: true, env: settings.env, homedir: settings.homedir,
      provenance, warn: context.warn, ...(settings.model !== undefined ? { model: settings.model } : {}),
    };
    // The session's lock rides on the mark to the reopened file (AppendFile.reopen): told of every write.
    const mark: FileMark & { journal?: WriteJournal } = target.journal ? { ...known.session_mark, journal: target.journal } : known.session_mark;
    try {
      const harness = findHarness(target.format)!.reopen!(options, { sessionId: known.session_id, sessionFile: known.session_file, mark });
      harnesses.set(target.format, harness);
      reopened.set(target.format, harness);
      sessionCwd = known.cwd;
      if (context.continued.has(target.format)) harness.continueAfter?.(known.tail_events ?? 0);
    } catch (error) {
      context.notice(`${task.path}: cannot append to ${known.session_file}: ${describeError(error)}; converted into a new session`);
      fresh.push({ ...target, append: false });
    }
  }
  if (fresh.length > 0) {
    const sessionDirs: Record<string, string> = {};
    for (const target of fresh) sessionDirs[target.format] = target.root;
    try {
      const created = openSessions({
        formats: fresh.map((t) => t.format),
        sessionDirs,
        agentName: 'asyncai-log',
        env: settings.env,
        homedir: settings.homedir,
        processCwd: settings.processCwd,
        provenance,
        ...(settings.model !== undefined ? { model: settings.model } : {}),
      // Converted sessions are never stamped with what is on disk now (the branch checked out today).
      }, { path: cwd, fromInput: true }, context.warn, startedAt);
      created.forEach((harness) => harnesses.set(harness.format, harness));
    } catch (error) {
      for (const harness of harnesses.values()) harness.abandon();
      return { cwd: sessionCwd, error: `cannot create the session: ${describeError(error)}` };
    }
  }
  // A new session from this file replays nothing: it is written from the start.
  const opened = targets.map((t) => (t.append && !reopened.has(t.format) ? { ...t, append: false } : t));
  return { cwd: sessionCwd, harnesses: opened.map((t) => harnesses.get(t.format)!), reopened, targets: opened };
}
