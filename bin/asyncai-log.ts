#!/usr/bin/env -S node --max-semi-space-size=4
// The command line: argv (yargs) -> options -> a library call -> exit code. Nothing else lives here.
// Exit codes: 0 success, 1 failure at run time, 2 usage error, 130/143 after SIGINT/SIGTERM.
// The launcher gives V8 a young generation of 4 MB semi-spaces (default 16): what one read of stdin makes dies
// young, and the larger default only holds memory (about 30 MB of peak RSS, with no gain in speed).
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { filterCommand } from './commands/filter.js';
import { convertCommand } from './commands/convert.js';
import { readCommand } from './commands/read.js';
import { markOperands, unmarkOperands } from './arguments.js';

// A write over the file-size limit must fail with EFBIG (reported), not kill the process.
process.on('SIGXFSZ', () => {});
// A stderr that cannot be written (closed pipe, full disk) loses the diagnostics, never the transcript.
process.stderr.on('error', () => {});

await yargs(markOperands(hideBin(process.argv), ['read', 'convert']))
  .scriptName('asyncai-log')
  .usage('$0 [options] [file...]    (no file, or -: stdin)\n\nTurn agent events into a session transcript that the agent CLI can resume.')
  .middleware((argv) => {
    unmarkOperands(argv);
  }, true)
  .command(filterCommand)
  .command(readCommand)
  .command(convertCommand)
  .strict()
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(110, process.stdout.columns ?? 110))
  .fail((message, error) => {
    process.stderr.write(`asyncai-log: ${message ?? error?.message ?? 'usage error'}\n`);
    process.stderr.write("Try 'asyncai-log --help'.\n");
    process.exit(2);
  })
  .parseAsync();
