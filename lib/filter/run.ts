// The filter: bytes on stdin -> lines -> (adapter) generic events -> every harness, one write per input
// chunk, the session line first on stdout. Bad lines are reported and skipped (or, with `strict`, end the
// run after what came before is written). Monitor sources join the same ordered queue (lib/filter/monitors.ts).
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findInputFormat, inputFormatNames } from '../agents/input-formats.js';
import type { InputAdapter } from '../input/types.js';
import { UsageError } from '../session/options.js';
import { checkSessionOptions } from '../agents/open-sessions.js';
import { fidelitySummary, fidelityTargetProblem, writeFidelityFile } from '../session/fidelity.js';
import { describeError } from '../util/fs-errors.js';
import { diagnosticLine } from '../util/shown-text.js';
import { FilterInputs, type InputBatch } from './inputs.js';
import { FilterLines } from './lines.js';
import { FilterMonitors } from './monitors.js';
import { FilterSession } from './session.js';
import { Stdout } from './stdout.js';
import type { InputSurvey } from './survey.js';
import type { FilterIO, FilterOptions, FilterResult } from './types.js';

/**
 * Run the filter over `io.stdin`. Resolves with the exit code; rejects only with UsageError
 * (bad options, or a session that cannot be created).
 */
export async function runFilter(options: FilterOptions, io: FilterIO): Promise<FilterResult> {
  checkSessionOptions(options);
  if (options.fidelityJson !== undefined) {
    const problem = fidelityTargetProblem(options.fidelityJson);
    if (problem !== undefined) throw new UsageError(`--fidelity-json ${options.fidelityJson}: ${problem}`);
  }
  const inputName = options.inputName ?? 'stdin';
  const adapter = givenAdapter(options.from);
  const stdout = new Stdout(io.stdout);
  const result: FilterResult = { code: 0, harnesses: [], badLines: 0, events: 0, warnings: 0, aborted: false };
  const session = new FilterSession(options, result, io.stderr, stdout);
  const monitors = new FilterMonitors(options, session);
  const lines = new FilterLines(session, adapter, options.maxLineBytes, monitors.stdin);

  // The session line comes before any input is read whenever the input cannot change where the session goes;
  // monitors write from the start, so with them the session opens before any input is read too.
  const eager = options.cwd !== undefined || options.from === 'events' || monitors.wanted;
  if (eager && !session.open(lines.adapter?.facts() ?? {})) {
    session.report(session.stop!.message!);
    return { ...result, code: 1, warnings: session.warnings };
  }
  if (monitors.wanted) monitors.start(io.stderr);

  // The inputs, opened one at a time as they are reached (as cat does).
  const inputs = new FilterInputs(options, io, session, inputName);
  await readInputs(inputs, lines, session, stdout, options, io);
  if (session.stop) {
    result.code = 1;
    if (session.stop.message !== undefined) session.report(session.stop.message);
  }

  await monitors.end(inputName, io.signal);
  stdout.release();
  noEvent(session, options, lines.survey, (options.files ?? []).length > 1 ? options.files!.join(', ') : inputs.current);
  return finish(session, options, io.stderr);
}

/**
 * Input that held lines but no event is a failed run (exit 1), said in one line with what the lines looked
 * like: plain text, or another format than `--from` names, exited 0 before, and a script took the session line
 * it had printed for a session. Not after a failure said already, nor after a signal.
 */
function noEvent(session: FilterSession, options: FilterOptions, survey: InputSurvey, where: string): void {
  const { result } = session;
  if (result.events > 0 || survey.lines === 0 || result.code !== 0 || result.aborted || session.stop) return;
  result.code = 1;
  session.report(`${where}: ${survey.describe(options.from)}`);
}

/** The adapter `--from` names (none for `auto`: the first line decides). */
function givenAdapter(from: string): InputAdapter | undefined {
  if (from === 'auto') return undefined;
  const format = findInputFormat(from);
  if (!format) throw new UsageError(`unknown input format ${JSON.stringify(from)} (known: auto, ${inputFormatNames().join(', ')})`);
  return format.create();
}

/** Raised only to end the pipeline: why the run stopped is in `FilterSession.stop`. */
const STOPPED = new Error('stopped');

/** Read every input on this thread: each chunk's lines handled, their records written, then echoed. */
async function readInputs(
  inputs: FilterInputs, lines: FilterLines, session: FilterSession, stdout: Stdout, options: FilterOptions, io: FilterIO,
): Promise<void> {
  const { result } = session;
  const sink = new Writable({
    objectMode: true,
    write(batch: InputBatch, _encoding, callback) {
      const now = new Date().toISOString();
      let failure: Error | undefined;
      try {
        for (const line of batch.lines) {
          lines.handle(line, now, batch.name);
          if (session.stop) break;
        }
      } catch (error) {
        failure = error as Error;
      }
      // Everything this chunk produced goes out now, in one write per harness, before more input is read.
      session.logger?.flush();
      if (failure || session.stop) {
        callback(failure ?? STOPPED);
        return;
      }
      // Tee after the records: the session line is already on stdout when the first input line is echoed.
      if (options.echo && batch.chunk) {
        if (!session.logger && !options.noSession) {
          stdout.hold(batch.chunk);
        } else {
          stdout.release();
          if (!stdout.write(batch.chunk)) {
            void stdout.drain().then(() => callback());
            return;
          }
        }
      }
      callback();
    },
    final(callback) {
      try {
        lines.end(inputs.current, new Date().toISOString());
        callback(session.stop ? STOPPED : undefined);
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  try {
    await pipeline(() => inputs.batches(), sink, io.signal ? { signal: io.signal } : {});
  } catch (error) {
    if (session.stop) return;
    if ((error as Error).name === 'AbortError') {
      result.aborted = true;
    } else {
      result.code = 1;
      session.report(`${inputs.current}: ${(error as Error).message}`);
    }
  }
}

/** End the run: a run that wrote no record keeps no session (no empty transcript is left to be listed or resumed). */
function finish(session: FilterSession, options: FilterOptions, stderr: NodeJS.WritableStream): FilterResult {
  const { result, logger } = session;
  const removed = logger?.finish(true) ?? [];
  if (logger?.failed) result.code = 1;
  const kept = result.harnesses.filter((harness) => !removed.includes(harness));
  // Said once, unless the session could not be created or written (that was said).
  // The session line named the first harness's id: the line says that id has nothing behind it.
  if (!options.noSession && kept.length === 0 && !session.refused && !logger?.failed && !(session.unsupported && removed.length === 0)) {
    stderr.write(removed.length === 0
      ? 'asyncai-log: no events to write, so no session was made\n'
      : `asyncai-log: no events to write, so session ${result.harnesses[0]!.sessionId} was not kept (removed ${removed.map((h) => h.sessionFile).join(', ')})\n`);
  }
  result.harnesses = kept;
  const accounts = kept.map((h) => ({ format: h.format, session_id: h.sessionId, session_file: h.sessionFile, elements: h.fidelity.toJSON() }));
  const summary = fidelitySummary(accounts.map((a) => ({ format: a.format, account: a.elements })));
  if (summary !== undefined) stderr.write(diagnosticLine(summary));
  if (options.fidelityJson !== undefined) {
    try {
      writeFidelityFile(options.fidelityJson, { sessions: accounts, input: { events: result.events, bad_lines: result.badLines } });
    } catch (error) {
      session.report(`--fidelity-json ${options.fidelityJson}: cannot be written: ${describeError(error)}`);
      result.code = 1;
    }
  }
  result.warnings = session.warnings;
  return result;
}
