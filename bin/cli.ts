// The command line through yargs: every command, help, completion and usage errors (plain command lines are
// parsed in asyncai-log.ts without it, plain-argv.ts). Loaded only when it is needed.
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { filterCommand } from './commands/filter.js';
import { completion, completionCommand, YARGS_COMPLETION_NAME } from './completion.js';
import { convertCommand } from './commands/convert.js';
import { readCommand } from './commands/read.js';
import { sessionsCommand } from './commands/sessions.js';
import { markOperands, unmarkOperands } from './arguments.js';
import { helpWidth, withoutTypeColumn } from './help.js';
import { commandOf, knownFlags, usageErrorMessage, usageErrorText } from './usage-error.js';

/** Parse the command line with yargs and run the command it names. */
export async function runCli(): Promise<void> {
  const cli = withoutTypeColumn(yargs(markOperands(hideBin(process.argv), ['read', 'convert', 'sessions', 'completion'])));
  skipHelpCache(cli);
  await cli
    .scriptName('asyncai-log')
    .usage('$0 [options] [file...]    (no file, or -: stdin)\n\nTurn agent events into session transcripts that the agent CLIs resume.')
    .middleware((argv) => {
      unmarkOperands(argv);
    }, true)
    .command(filterCommand)
    .command(readCommand)
    .command(convertCommand)
    .command(sessionsCommand)
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
}

/**
 * yargs renders a command's whole help text each time it starts the command's handler, to have it ready should
 * the handler ask for it; no handler here does (a usage error prints its own text, usage-error.ts), and the
 * rendering (string widths, wrapping) is a tenth of a second of every run, so it is left out.
 */
function skipHelpCache(cli: Argv): void {
  const usage = (cli as unknown as { getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage?: () => void } } })
    .getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

