// The filter's session and diagnostics: opens the sessions once (the session line first on stdout, then the
// `--prompt` turn), writes events through the session logger, counts and reports bad input, and keeps why a
// run stops early (detection failed, the session cannot be created, `--strict` met a bad line).
import type { GenericEvent } from '../events.js';
import type { JsonSource } from '../json/raw-json.js';
import type { SessionFacts } from '../input/types.js';
import { SessionLogger, sessionLine } from '../session/logger.js';
import { openEachSession, sessionCwd } from '../agents/open-sessions.js';
import { WarnOnce } from '../util/warn-once.js';
import type { Stdout } from './stdout.js';
import type { FilterOptions, FilterResult } from './types.js';
import { diagnosticLine } from '../util/shown-text.js';

/** Why a run stopped before its input ended: `message` is said on stderr (a bad line under --strict was said). */
export interface Stop {
  message?: string;
}

export class FilterSession {
  logger: SessionLogger | undefined;
  /** No session could be created (said once): the end of the run does not say more about it. */
  refused = false;
  /** An input was binary, said in its one line: the run needs no second line saying no session was made. */
  unsupported = false;
  /** Set when the run stops before its input ends. */
  stop: Stop | undefined;
  /** Warnings a session gives once: more than one mapper (one per harness) may give them. */
  readonly once = new WarnOnce();
  warnings = 0;

  constructor(
    private readonly options: FilterOptions,
    readonly result: FilterResult,
    private readonly stderr: NodeJS.WritableStream,
    private readonly stdout: Stdout,
  ) {}

  /** One line on stderr, counted as a warning. */
  report = (message: string): void => {
    this.warnings += 1;
    this.stderr.write(diagnosticLine(message));
  };

  /** A session warning: one given once per session (`once`) is said once in the run. */
  warn = (message: string, once?: string): void => {
    if (once === undefined || this.once.first(once)) this.report(message);
  };

  /** A skipped line (or event): counted and said; under --strict the run stops here. */
  bad(where: string, message: string): void {
    this.result.badLines += 1;
    this.report(`${where}: ${message}`);
    if (this.options.strict) this.stop ??= {};
  }

  /** End the run early, saying why. */
  fail(message: string): void {
    this.stop ??= { message };
  }

  /**
   * Open the sessions, unless open (or none are wanted): the session line goes to stdout, then the `--prompt`
   * turn is written. `facts` are what the input said so far (its project directory). False when the sessions
   * cannot be created: the run then stops with the reason.
   */
  open(facts: SessionFacts): boolean {
    if (this.logger || this.options.noSession) return true;
    const options = this.options;
    const { harnesses, failures } = openEachSession(options, sessionCwd(options.cwd, facts, options.processCwd), this.warn);
    if (harnesses.length === 0) {
      // None could be opened: each said once, the last as why the run stops.
      this.refused = true;
      const last = failures.pop()!;
      for (const { format, root, error } of failures) this.report(`${format}: cannot create the session under ${root}: ${error.message}`);
      this.fail(`cannot create the session: ${last.error.message}`);
      return false;
    }
    this.logger = new SessionLogger(harnesses, this.report);
    // Some could not: said once each, the others (and --echo) go on, and the run ends with exit 1.
    for (const { format, root, error } of failures) this.logger.refused(format, root, error);
    this.result.harnesses = harnesses;
    this.stdout.write(`${sessionLine(harnesses, options.agentName)}\n`);
    if (options.prompt !== undefined) {
      this.writeOrReport({ type: 'user', text: options.prompt, timestamp: new Date().toISOString() }, 'prompt');
      this.logger.flush();
    }
    return true;
  }

  /** Write one event (counted), located at `where`; returns why the session rejected it, if it did. */
  write(event: GenericEvent, where: string, source?: JsonSource): string | undefined {
    this.result.events += 1;
    return this.logger?.write(event, where, source);
  }

  /** `write`, a rejected event reported as bad. */
  writeOrReport(event: GenericEvent, where: string): void {
    const rejected = this.write(event, where);
    if (rejected !== undefined) this.bad(where, rejected);
  }
}
