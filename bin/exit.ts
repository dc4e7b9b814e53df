// How a command ends: its exit code once stdout and stderr have drained (a pipe reader must get every
// byte we wrote), and a usage error reported as one line with exit 2.
import { UsageError } from '../lib/session/options.js';
import { usageErrorText } from './usage-error.js';

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
