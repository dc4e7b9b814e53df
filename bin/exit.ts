// How a command ends: its exit code once stdout and stderr have drained (a pipe reader must get every
// byte we wrote), a usage error reported as one line with exit 2, and the signals that end a run
// (SIGINT, SIGTERM, SIGHUP: 128 + the signal's number).
import { UsageError } from '../lib/filter/index.js';
import { usageErrorText } from './usage-error.js';

/** The signals that end a command as asked, each with its exit code (128 + its number). */
const STOP_SIGNALS = [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const;

/**
 * Call `stop` with the exit code when SIGINT, SIGTERM or SIGHUP arrives. SIGHUP (a closed terminal, a dropped
 * SSH connection) is handled as SIGTERM is: its default action killed the process before the end of the run,
 * which removes a session that got no record and writes the monitors' stopped notices. A hangup comes twice
 * (from the kernel, then from the shell passing it on to its jobs): a SIGHUP after the first signal is not
 * someone asking to stop at once, so it is not passed on.
 */
export function onStopSignals(stop: (code: number) => void): void {
  let stopping = false;
  for (const [signal, code] of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping && signal === 'SIGHUP') return;
      stopping = true;
      stop(code);
    });
  }
}

export function exitWhenDrained(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    // Bytes may still be queued for a pipe whose reader is behind without `writableNeedDrain` (a last write
    // under the high-water mark; on Node 22 and 24 this cut the end off `read`'s output). An empty write's
    // callback runs once every write before it is done, or has failed (a closed pipe).
    if (stream.writableLength > 0 && !stream.destroyed && !stream.writableEnded) stream.write('', () => done());
    else done();
  }
}

/**
 * Run a command's body and exit with the code it returns; a UsageError it throws is reported on stderr
 * (usageErrorText: `command` names the help to try, undefined for the filter's) and exits 2. Anything else is
 * a bug and propagates.
 */
export async function runCommand(body: () => Promise<number>, command?: string): Promise<void> {
  try {
    exitWhenDrained(await body());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(usageErrorText(error.message, command));
    exitWhenDrained(2);
  }
}
