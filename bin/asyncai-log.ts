#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50 --expose-gc
// The command line: argv -> options -> a library call -> exit code. Nothing else lives here.
// Exit codes: 0 success, 1 failure at run time, 2 usage error, 130/143/129 after SIGINT/SIGTERM/SIGHUP.
// A plain command line (the filter's, or read's, convert's or sessions') is parsed without yargs
// (plain-argv.ts); every other one goes to the yargs CLI (cli.ts), loaded only then: loading yargs took most of
// a short run's CPU. A command other than the filter is loaded only when it is named.
// The shebang (and that of bin/launch.mjs, the installed command) gives V8 a young generation of 4 MB
// semi-spaces (default 16): what one read of stdin makes dies young, and the larger default only holds memory
// (peak RSS, with no gain in speed: docs/performance.md). `--expose-gc` lets `read` run a full collection between a
// transcript's two passes (see commands/read.ts). setGcFlags keeps Node 24's young generation to those
// semi-spaces while a full collection marks (lib/util/worker-heap.ts).
import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import { filterCommand } from './commands/filter.js';
import { plainArgv, recordCommand, typedFlags } from './plain-argv.js';
import { usageErrorMessage, usageErrorText } from './usage-error.js';
import { setGcFlags } from '../lib/filter/index.js';

/** The commands besides the filter whose plain command lines are parsed here, each loaded when named. */
const NAMED: Record<string, () => Promise<CommandModule>> = {
  read: async () => (await import('./commands/read.js')).readCommand as CommandModule,
  convert: async () => (await import('./commands/convert.js')).convertCommand as CommandModule,
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand as CommandModule,
};

setGcFlags();

// A write over the file-size limit must fail with EFBIG (reported), not kill the process.
process.on('SIGXFSZ', () => {});
// A stderr that cannot be written (closed pipe, full disk) loses the diagnostics, never the transcript.
process.stderr.on('error', () => {});

// As yargs' hideBin takes them (node, the script, then the arguments).
const args = process.argv.slice(2);
const named = Object.hasOwn(NAMED, args[0] ?? '') ? await NAMED[args[0]!]!() : undefined;
const module = named ?? filterCommand as CommandModule;
const command = recordCommand(module);
const argv = plainArgv(named === undefined ? args : args.slice(1), command);
if (argv === undefined) {
  const { runCli } = await import('./cli.js');
  await runCli();
} else {
  try {
    await module.handler(argv as ArgumentsCamelCase);
  } catch (error) {
    // What yargs' fail handler (cli.ts) says of an error the handler throws; every argument is a known flag.
    const what = usageErrorMessage((error as Error | undefined)?.message ?? 'usage error', args, typedFlags(command.flags));
    process.stderr.write(usageErrorText(what, command.name === '' ? undefined : command.name));
    process.exit(2);
  }
}
