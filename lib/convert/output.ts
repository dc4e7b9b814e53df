// Where a convert run's report goes: one NDJSON line per input on stdout (data: a closed stdout only stops the
// report, never the run), its diagnostics on stderr, both around the progress line when one is drawn.
import type { ProgressLine } from './progress.js';
import type { ConvertOutcome } from './types.js';
import { diagnosticLine } from '../util/shown-text.js';

/** The streams a convert run writes to, and what stops it. */
export interface ConvertIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborting stops handing out files; the files being converted are finished and recorded. */
  signal?: AbortSignal;
}

/** The NDJSON line reported for one input. */
export function outcomeLine(path: string, outcome: ConvertOutcome): string {
  const line: Record<string, unknown> = { source: path, status: outcome.status };
  if (outcome.reason !== undefined) line.reason = outcome.reason;
  if (outcome.input_format !== undefined) line.input_format = outcome.input_format;
  if (outcome.cwd !== undefined) line.cwd = outcome.cwd;
  // The resume command is said on stderr for a session named by id, never in the report.
  if (outcome.harnesses.length > 0) line.harnesses = outcome.harnesses.map(({ resume: _, ...ref }) => ref);
  line.records = outcome.records;
  line.events = outcome.events;
  line.warnings = outcome.warnings;
  if (outcome.error !== undefined) line.error = outcome.error;
  return JSON.stringify(line);
}

/** Whether a stdout has failed, kept per stream: one error listener however many runs (a watch's passes) use it. */
const stdoutStates = new WeakMap<NodeJS.WritableStream, { closed: boolean }>();

function stdoutState(stdout: NodeJS.WritableStream): { closed: boolean } {
  let state = stdoutStates.get(stdout);
  if (!state) {
    const created = { closed: false };
    stdout.on('error', () => {
      created.closed = true;
    });
    stdoutStates.set(stdout, created);
    state = created;
  }
  return state;
}

/** stdout (data, never failing the run: a closed stdout only stops the report) and stderr (diagnostics). */
export class Output {
  progress: ProgressLine | undefined;
  private readonly stdout: { closed: boolean };

  constructor(private readonly io: ConvertIO, private readonly changesOnly = false) {
    this.stdout = stdoutState(io.stdout);
  }

  diagnostic(message: string): void {
    this.progress?.clear();
    this.io.stderr.write(diagnosticLine(message));
    this.progress?.draw(true);
  }

  report(path: string, outcome: ConvertOutcome): void {
    if (this.changesOnly && outcome.status === 'skipped') return;
    const lines = outcome.messages.map(diagnosticLine);
    if (outcome.warnings > outcome.messages.length) {
      lines.push(diagnosticLine(`${path}: ${outcome.warnings - outcome.messages.length} more warnings not shown`));
    }
    if (outcome.status === 'failed' && outcome.error !== undefined) lines.push(diagnosticLine(`${path}: ${outcome.error}`));
    if (lines.length > 0) {
      this.progress?.clear();
      this.io.stderr.write(lines.join(''));
      this.progress?.draw(true);
    }
    if (!this.stdout.closed) {
      // stdout may be the terminal the progress line is drawn on: a report line never continues it.
      this.progress?.clear();
      try {
        this.io.stdout.write(`${outcomeLine(path, outcome)}\n`);
      } catch {
        this.stdout.closed = true;
      }
      this.progress?.draw();
    }
  }
}
