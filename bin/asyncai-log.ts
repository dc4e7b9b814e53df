#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50 --expose-gc
// The command line: argv -> options -> a library call -> exit code. Nothing else lives here.
// Exit codes: 0 success, 1 failure at run time, 2 usage error, 130/143/129 after SIGINT/SIGTERM/SIGHUP.
// The plain filter's flags are parsed without yargs (filter-argv.ts); every other command line goes to the
// yargs CLI (cli.ts), loaded only then: yargs and the other commands took most of a short run's CPU.
// The shebang (and that of bin/launch.mjs, the installed command) gives V8 a young generation of 4 MB
// semi-spaces (default 16): what one read of stdin makes dies young, and the larger default only holds memory
// (peak RSS, with no gain in speed: docs/performance.md). `--expose-gc` lets `read` run a full collection between a
// transcript's two passes (see commands/read.ts). setGcFlags keeps Node 24's young generation to those
// semi-spaces while a full collection marks (lib/util/worker-heap.ts).
import type { ArgumentsCamelCase } from 'yargs';
import { filterCommand } from './commands/filter.js';
import { filterArgv, recordFlags, typedFlags } from './filter-argv.js';
import { usageErrorMessage, usageErrorText } from './usage-error.js';
import { setGcFlags } from '../lib/filter/index.js';

setGcFlags();

// A write over the file-size limit must fail with EFBIG (reported), not kill the process.
process.on('SIGXFSZ', () => {});
// A stderr that cannot be written (closed pipe, full disk) loses the diagnostics, never the transcript.
process.stderr.on('error', () => {});

// As yargs' hideBin takes them (node, the script, then the arguments).
const args = process.argv.slice(2);
const flags = recordFlags(filterCommand.builder);
const argv = filterArgv(args, flags);
if (argv === undefined) {
  const { runCli } = await import('./cli.js');
  await runCli();
} else {
  try {
    await filterCommand.handler(argv as ArgumentsCamelCase<never>);
  } catch (error) {
    // What yargs' fail handler (cli.ts) says of an error the handler throws; every argument is a known flag.
    const what = usageErrorMessage((error as Error | undefined)?.message ?? 'usage error', args, typedFlags(flags));
    process.stderr.write(usageErrorText(what, undefined));
    process.exit(2);
  }
}
