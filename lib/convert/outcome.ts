// What converting one file came to (`ConvertOutcome`): the status and reason a file's conversion ends with,
// from why it stopped early, what it read and which sessions it wrote.
import type { SessionHarness } from '../session/types.js';
import type { ConvertOutcome, ConvertTarget, ConvertTask } from './types.js';

/** Why a file's conversion stopped before its end. */
export type Stop = { status: 'skipped'; reason: string } | { status: 'failed'; error: string } | { status: 'would-convert' };

/** An error as one line: its code, then its message. */
export function describe(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '')}` : err.message;
}

export function emptyOutcome(index: number): ConvertOutcome {
  return { index, status: 'failed', harnesses: [], records: 0, events: 0, warnings: 0, messages: [], bytes: 0 };
}

/** What one file's conversion ended with. */
export interface ConversionEnd {
  task: ConvertTask;
  targets: readonly ConvertTarget[];
  /** The sessions written (empty when none was opened). */
  harnesses: readonly SessionHarness[];
  inputFormat: string | undefined;
  cwd: string | undefined;
  stop: Stop | undefined;
  /** Events the input format gave only at the end. */
  tailEvents: number;
  /** The file's input format is known. */
  recognised: boolean;
  /** The sessions were opened (a dry run: would have been). */
  opened: boolean;
  /** A session of an earlier run was appended to. */
  appended: boolean;
  dryRun: boolean;
  /** The project directory the sessions would go to, for a dry run that read the whole file. */
  dryRunCwd(): string;
  /** The reason a real run would give (a dry run; `grew` when it would append). */
  dryRunReason(): string;
}

/** Fill `o` from how the conversion ended; `fingerprint` is of the bytes converted. */
export function settleOutcome(o: ConvertOutcome, end: ConversionEnd, fingerprint: NonNullable<ConvertOutcome['fingerprint']>): void {
  if (end.inputFormat !== undefined) o.input_format = end.inputFormat;
  if (end.cwd !== undefined) o.cwd = end.cwd;
  o.harnesses = end.harnesses.map((h) => {
    const known = end.targets.find((t) => t.format === h.format)?.known;
    return {
      format: h.format, session_id: h.sessionId, session_file: h.sessionFile, resume: h.resumeCommand,
      ...(known !== undefined && known.session_id !== h.sessionId ? { previous_session_id: known.session_id } : {}),
      fidelity: h.fidelity.toJSON(),
    };
  });
  for (const h of end.harnesses) if (h.mark !== undefined) (o.marks ??= {})[h.format] = h.mark;
  o.tail_events = end.tailEvents;
  const stop = end.stop;
  if (stop) {
    o.status = stop.status;
    if (stop.status === 'skipped') o.reason = stop.reason;
    else if (stop.status === 'failed') o.error = stop.error;
    else o.reason = end.dryRunReason();
    return;
  }
  if (end.dryRun && end.opened) {
    // The whole file was read (a stream that never names its project, or one a real run would append to).
    o.cwd = end.cwd ?? end.dryRunCwd();
    o.status = 'would-convert';
    o.reason = end.dryRunReason();
    return;
  }
  if (!end.opened) {
    o.status = 'skipped';
    o.reason = o.records === 0 ? 'empty' : end.recognised ? 'no-conversation' : 'unrecognised';
    return;
  }
  o.status = 'converted';
  o.reason = end.appended ? 'grew' : end.task.reason;
  o.fingerprint = fingerprint;
}
