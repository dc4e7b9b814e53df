#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50 --expose-gc --no-concurrent-recompilation
// The command line: argv (yargs) -> options -> a library call -> exit code. Nothing else lives here.
// Exit codes: 0 success, 1 failure at run time, 2 usage error, 130/143/129 after SIGINT/SIGTERM/SIGHUP.
// The shebang (and that of bin/launch.mjs, the installed command) gives V8 a young generation of 4 MB
// semi-spaces (default 16): what one read of stdin makes dies young, and the larger default only holds memory
// (peak RSS, with no gain in speed: docs/performance.md). `--expose-gc` lets `read` run a full collection between a
// transcript's two passes (see commands/read.ts). `--no-concurrent-recompilation` compiles optimised code on
// the thread that runs it: on V8's helper threads each compile's memory is freed into that thread's own
// malloc arena, which glibc keeps, for a few stalls of up to tens of ms while the hot functions are first
// optimised. setGcFlags keeps Node 24's young generation to those semi-spaces while a full collection marks
// (lib/util/worker-heap.ts).
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { filterCommand } from './commands/filter.js';
import { completion, completionCommand, YARGS_COMPLETION_NAME } from './completion.js';
import { convertCommand } from './commands/convert.js';
import { readCommand } from './commands/read.js';
import { markOperands, unmarkOperands } from './arguments.js';
import { helpWidth, withoutTypeColumn } from './help.js';
import { commandOf, knownFlags, usageErrorMessage, usageErrorText } from './usage-error.js';
import { setGcFlags } from '../lib/read/index.js';

setGcFlags();

// A write over the file-size limit must fail with EFBIG (reported), not kill the process.
process.on('SIGXFSZ', () => {});
// A stderr that cannot be written (closed pipe, full disk) loses the diagnostics, never the transcript.
process.stderr.on('error', () => {});

const cli = withoutTypeColumn(yargs(markOperands(hideBin(process.argv), ['read', 'convert', 'completion'])));
await cli
  .scriptName('asyncai-log')
  .usage('$0 [options] [file...]    (no file, or -: stdin)\n\nTurn agent events into session transcripts that the agent CLIs resume.')
  .middleware((argv) => {
    unmarkOperands(argv);
  }, true)
  .command(filterCommand)
  .command(readCommand)
  .command(convertCommand)
  .command(completionCommand(() => (cli as unknown as { showCompletionScript($0: string, cmd: string): void }).showCompletionScript('asyncai-log', 'completion')))
  .completion(YARGS_COMPLETION_NAME, false,
    completion(() => knownFlags((filterCommand.builder as (y: Argv) => Argv)(yargs([])))))
  .strict()
  .help()
  .alias('h', 'help')
  .describe('help', 'show this help')
  .version()
  .describe('version', 'print the version number')
  .locale('en')
  .wrap(helpWidth())
  .fail((message, error) => {
    const args = hideBin(process.argv);
    const what = usageErrorMessage(message ?? error?.message ?? 'usage error', args, knownFlags(cli));
    process.stderr.write(usageErrorText(what, commandOf(args)));
    process.exit(2);
  })
  .parseAsync();
