// The default command: the filter. Parses its flags, installs the signal handlers, calls runFilter.
import { homedir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { parseSessionDirs, runFilter, UsageError, type FilterOptions } from '../../lib/filter.js';
import { fileInput } from '../../lib/input/file-input.js';
import { monitorSpecs } from '../../lib/monitor/index.js';
import { DEFAULT_MODEL } from '../../lib/harnesses/claude-code-cli/records.js';
import { FILTER_EXAMPLES, MAIN_NOTES, inputFormatChoices, sessionFormatChoices } from '../help.js';
import { runCommand } from '../exit.js';

export interface SessionArgs {
  'session-format': string[];
  'session-dir': string[];
  cwd?: string;
  model?: string;
}

/** The session flags shared by the filter and convert; `cwd` says which directory the session goes to by default. */
export function sessionFlags<T>(y: Argv<T>, cwd: string): Argv<T & SessionArgs> {
  return y
    .option('session-format', {
      type: 'string', array: true, default: ['claude-code-cli'], requiresArg: true,
      describe: `<format>: transcript format to write, repeatable: ${sessionFormatChoices()} (default: claude-code-cli)`,
    })
    .option('session-dir', {
      type: 'string', array: true, default: [], requiresArg: true,
      describe: '<format>=<path>: that format\'s storage root, repeatable (default: $CLAUDE_CONFIG_DIR, else ~/.claude; $CODEX_HOME, else ~/.codex)',
    })
    .option('cwd', { type: 'string', requiresArg: true, describe: `<dir>: the project directory the session belongs to (default: ${cwd})` })
    .option('model', {
      type: 'string', requiresArg: true,
      describe: `<id>: model for Claude Code assistant records whose event names none (default: ${DEFAULT_MODEL})`,
    }) as unknown as Argv<T & SessionArgs>;
}

interface FilterArgs extends SessionArgs {
  'agent-name': string;
  session: boolean;
  echo: boolean;
  strict: boolean;
  from: string;
  prompt?: string;
  'max-line-bytes': number;
  monitor?: string | string[];
  'monitor-description'?: string | string[];
  threads: number;
}

/** A flag given once or repeated, as a list. */
function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const filterCommand: CommandModule<object, FilterArgs> = {
  command: '$0',
  describe: 'read agent events on stdin and write session transcripts (the default command)',
  builder: (y) => sessionFlags(y, "the input's own where it names one, else the current directory")
    .option('agent-name', { type: 'string', default: 'asyncai-log', requiresArg: true, describe: '<name>: agent_name in the session line (default: asyncai-log)' })
    .option('session', { type: 'boolean', default: true, describe: 'write transcripts and print the session line; --no-session: neither (default: on)' })
    .option('echo', { type: 'boolean', default: false, describe: 'after the session line, copy the input to stdout unchanged (tee)' })
    .option('strict', { type: 'boolean', default: false, describe: 'stop at the first bad line: write what came before, exit 1' })
    .option('from', {
      type: 'string', default: 'auto', requiresArg: true,
      describe: `<format>: input format: ${inputFormatChoices()} (default: auto, decided from the first line)`,
    })
    .option('prompt', { type: 'string', requiresArg: true, describe: '<text>: record <text> as the first user turn, for streams that do not print their prompt' })
    .option('max-line-bytes', {
      type: 'number', default: 64 * 1024 * 1024, requiresArg: true,
      describe: '<n>: longest input line accepted; a longer one is reported and skipped (default: 67108864, 64 MiB)',
    })
    .option('monitor', {
      type: 'string',
      describe: '[<command>]: run <command> with $SHELL -c and record each line it prints as a monitor event, repeatable; '
        + 'without a command, stdin is plain text and each line is one',
    })
    .option('monitor-description', {
      type: 'string', requiresArg: true,
      describe: '<text>: description of the n-th --monitor, repeatable, paired by position (default: the command, or "stdin")',
    })
    .option('threads', {
      type: 'number', default: 2, requiresArg: true,
      describe: '<n>: worker threads for a file of events of 8 MiB or more on stdin; 0: one thread (default: 2)',
    })
    .example(FILTER_EXAMPLES)
    .epilogue(MAIN_NOTES) as unknown as Argv<FilterArgs>,
  handler: async (argv: ArgumentsCamelCase<FilterArgs>) => {
    const controller = new AbortController();
    let signalCode = 0;
    const onSignal = (code: number) => () => {
      signalCode = code;
      controller.abort();
    };
    process.once('SIGINT', onSignal(130));
    process.once('SIGTERM', onSignal(143));
    const monitors = monitorSpecs(list(argv.monitor), list(argv['monitor-description']));
    // Monitors run in their own process groups, out of reach of a hangup: stop them ourselves.
    if (typeof monitors !== 'string' && monitors.length > 0) process.once('SIGHUP', onSignal(129));
    await runCommand(async () => {
      if (typeof monitors === 'string') throw new UsageError(monitors);
      if (!Number.isInteger(argv.threads) || argv.threads < 0) throw new UsageError('--threads wants a whole number, 0 or more');
      const options: FilterOptions = {
        formats: argv['session-format'],
        sessionDirs: parseSessionDirs(argv['session-dir']),
        agentName: argv['agent-name'],
        noSession: !argv.session,
        echo: argv.echo,
        strict: argv.strict,
        from: argv.from,
        maxLineBytes: argv['max-line-bytes'],
        threads: argv.threads,
        ...(typeof monitors !== 'string' && monitors.length > 0
          ? { monitors, shell: process.env.SHELL !== undefined && process.env.SHELL !== '' ? process.env.SHELL : '/bin/sh' }
          : {}),
        env: process.env,
        homedir: homedir(),
        processCwd: process.cwd(),
        ...(argv.cwd !== undefined ? { cwd: argv.cwd } : {}),
        ...(argv.model !== undefined ? { model: argv.model } : {}),
        ...(argv.prompt !== undefined ? { prompt: argv.prompt } : {}),
      };
      // A file on stdin is read on the main thread (lib/input/file-input.ts); a pipe stays process.stdin.
      const file = fileInput(0);
      const stdin = file ?? process.stdin;
      const result = await runFilter(options, {
        stdin, ...(file ? { stdinFd: 0 } : {}), stdout: process.stdout, stderr: process.stderr, signal: controller.signal,
      });
      if (process.stderr.isTTY) {
        for (const harness of result.harnesses) {
          process.stderr.write(`asyncai-log: resume with: ${harness.resumeCommand}  (from ${harness.cwd})\n`);
        }
      }
      return signalCode !== 0 ? signalCode : result.code;
    });
  },
};
